/**
 * chainweb-node's genesis payloads of the `development` network read from a folder of their JSON
 * form (`braid node --genesis <folder>`): `Development0Payload.json` for chain 0 and
 * `Development1to19Payload.json` for chains 1–19, as in `../shared/reference/chainweb-genesis/`.
 * Braid ships none of them: the user points at a copy of chainweb-node's data.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ChainwebGenesisError,
  type ChainwebGenesisPayload,
  readChainwebGenesisPayload,
} from "./chainweb-genesis.ts";
import { CHAIN_COUNT } from "./transactions.ts";

/** The files of the `development` version's genesis payloads, each with the chains it serves. */
export const DEVELOPMENT_GENESIS_FILES = [
  { file: "Development0Payload.json", firstChain: 0, lastChain: 0 },
  { file: "Development1to19Payload.json", firstChain: 1, lastChain: CHAIN_COUNT - 1 },
] as const;

/**
 * The genesis payload of every chain (index = chain id) from `folder`; a
 * {@link ChainwebGenesisError} naming the file when one is missing or is not a payload.
 */
export function readChainwebGenesisFolder(folder: string): ChainwebGenesisPayload[] {
  const byChain: ChainwebGenesisPayload[] = [];
  for (const { file, firstChain, lastChain } of DEVELOPMENT_GENESIS_FILES) {
    const path = join(folder, file);
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new ChainwebGenesisError(
        `${path}: cannot read chainweb-node's genesis payload (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); the genesis folder must hold ${DEVELOPMENT_GENESIS_FILES.map((f) => f.file).join(" and ")}`,
      );
    }
    const payload = readChainwebGenesisPayload(text, path);
    for (let chain = firstChain; chain <= lastChain; chain++) byChain[chain] = payload;
  }
  return byChain;
}
