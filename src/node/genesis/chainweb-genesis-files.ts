/**
 * chainweb-node's genesis payloads of the `development` network read from what `braid node
 * --genesis <path>` names: a chainweb-node source checkout (its generated modules
 * `src/Chainweb/BlockHeader/Genesis/Development0Payload.hs` and `Development1to19Payload.hs`), or
 * a folder of their JSON form (`Development0Payload.json`, `Development1to19Payload.json`, as in
 * `../shared/reference/chainweb-genesis/`). Braid ships none of them: the user points at
 * chainweb-node's data.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ChainwebGenesisError,
  type ChainwebGenesisPayload,
  readChainwebGenesisModule,
  readChainwebGenesisPayload,
} from "./chainweb-genesis.ts";
import { CHAIN_COUNT } from "./transactions.ts";

/** The `development` version's genesis payloads, each with the chains it serves. */
export const DEVELOPMENT_GENESIS_PAYLOADS = [
  { name: "Development0Payload", firstChain: 0, lastChain: 0 },
  { name: "Development1to19Payload", firstChain: 1, lastChain: CHAIN_COUNT - 1 },
] as const;

/** Where a chainweb-node source checkout keeps its generated genesis modules. */
export const GENESIS_MODULES_FOLDER = join("src", "Chainweb", "BlockHeader", "Genesis");

/**
 * The genesis payload of every chain (index = chain id) from `path`, a chainweb-node checkout
 * (when it holds {@link GENESIS_MODULES_FOLDER}) or a folder of the JSON form; a
 * {@link ChainwebGenesisError} naming the file when one is missing or is not a payload.
 */
export function readChainwebGenesisFolder(path: string): ChainwebGenesisPayload[] {
  const modules = join(path, GENESIS_MODULES_FOLDER);
  const checkout = existsSync(modules);
  const [folder, extension, read] = checkout
    ? [modules, ".hs", readChainwebGenesisModule]
    : [path, ".json", readChainwebGenesisPayload];
  const byChain: ChainwebGenesisPayload[] = [];
  for (const { name, firstChain, lastChain } of DEVELOPMENT_GENESIS_PAYLOADS) {
    const file = join(folder, `${name}${extension}`);
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (e) {
      const names = DEVELOPMENT_GENESIS_PAYLOADS.map((p) => `${p.name}${extension}`).join(" and ");
      throw new ChainwebGenesisError(
        `${file}: cannot read chainweb-node's genesis payload (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); --genesis names a chainweb-node checkout (its ${GENESIS_MODULES_FOLDER}) or a folder holding ${names}`,
      );
    }
    const payload = read(text, file);
    for (let chain = firstChain; chain <= lastChain; chain++) byChain[chain] = payload;
  }
  return byChain;
}
