/**
 * Reads the genesis contract sources (`contracts/*.pact`) at run time.
 *
 * The files sit next to this module both in `src/` (run through tsx) and in
 * `dist/` (where `scripts/copy-assets.mjs` copies them after `tsc`), so a
 * path relative to this module's URL finds them in either place.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The contract files installed at genesis, in installation order. */
export const CONTRACT_FILES = [
  "fungible-v2.pact",
  "fungible-xchain-v1.pact",
  "gas-payer-v1.pact",
  "coin.pact",
  "ns.pact",
] as const;

export type ContractFile = (typeof CONTRACT_FILES)[number];

/** Absolute path of a genesis contract file. */
export function contractPath(file: ContractFile): string {
  return fileURLToPath(new URL(`./contracts/${file}`, import.meta.url));
}

/** Directory holding the contract files (for tools that `load` them, e.g. REPL scripts). */
export const CONTRACTS_DIR = fileURLToPath(new URL("./contracts/", import.meta.url));

const cache = new Map<ContractFile, string>();

/** The Pact source text of a genesis contract file. */
export function contractSource(file: ContractFile): string {
  let text = cache.get(file);
  if (text === undefined) {
    text = readFileSync(contractPath(file), "utf8");
    cache.set(file, text);
  }
  return text;
}
