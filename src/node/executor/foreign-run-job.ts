/**
 * A run of blocks from elsewhere checked by executing them one after another on one scratch state
 * (shared by every executor that checks runs): for each, its payload with the outputs execution
 * gave and what it wrote, for the node to store and apply; and its header's hash computed and
 * compared with the hash it carries. A block that is not what it claims
 * ends the run there; the node executes it again itself and refuses it, so a check here never
 * refuses a block on its own.
 *
 * What only the node can tell is left to it: whether a command is already in a stored block of
 * the branch (the node checks each checked block's request keys when it stores it, all blocks
 * before it stored by then); here a command may not repeat one of the same block.
 */
import { equalBytes } from "../../chain/bytes.ts";
import { computeBlockHash } from "../../chain/header/hash.ts";
import type { ParentBlock } from "../../chain/header/types.ts";
import type { ScratchDb } from "../../pact/db/index.ts";
import type { MinerAccount } from "../options.ts";
import type { BlockEnvironment } from "./block/block-executor.ts";
import type {
  CheckedForeignBlock,
  ForeignRunAnswer,
  ForeignRunRequest,
} from "./contract-executor.ts";
import { executeForeign } from "./foreign-execution.ts";

/** Where a run is checked: the scratch state after its parent, and its blocks' environments. */
export interface ForeignRunSite {
  readonly db: ScratchDb;
  readonly env: (parent: ParentBlock, miner: MinerAccount) => BlockEnvironment;
}

/** Checks the run's blocks in order on `site.db`, which each leaves after itself. */
export function answerForeignRun(
  request: ForeignRunRequest,
  site: ForeignRunSite,
): ForeignRunAnswer & { readonly kind: "checked" } {
  const checked: CheckedForeignBlock[] = [];
  let parent = request.parent;
  for (const block of request.blocks) {
    // Its header's hash too, which the node then need not compute (the longest of its checks).
    if (!equalBytes(computeBlockHash(block.header), block.header.hash)) break;
    const firstTxId = site.db.txId;
    try {
      const at = parent;
      const payload = executeForeign(site.db, block, at, (miner) => site.env(at, miner), {
        onBranch: () => false,
        entityKeys: request.entityKeys,
      });
      checked.push({ payload, writes: site.db.writes(firstTxId) });
    } catch {
      break;
    }
    parent = block.header;
  }
  return { kind: "checked", blocks: checked };
}
