/**
 * The code of one execution thread (a `worker_thread` started by execution-threads.ts): `local`
 * calls and new blocks' commands on read-only views of the node's files. Each contract state and
 * the chain database are opened read-only, on first use, beside the node's own connections;
 * every piece of work reads one snapshot of its chain's state and first checks that it holds the
 * work's parent block (the node saves a state before it hands work over, but the chain may change
 * branch meanwhile). A block's writes stay on a scratch state and go back to the node.
 */
import { workerData } from "node:worker_threads";
import { equalBytes } from "../../chain/bytes.ts";
import { type AncestryReader, openAncestryReader } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { findVersionByName } from "../../chain/version/known-versions.ts";
import { serveWork } from "../../execution/work-thread-port.ts";
import { openSqlitePactDb, type ScratchDb, type VersionedPactDb } from "../../pact/db/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import { DEV_BLOCK_REWARD } from "../genesis/coin-calls.ts";
import type { BlockEnvironment } from "./block/block-executor.ts";
import { blockEnvironment, type EnvironmentParts } from "./block/environment.ts";
import { answerBlock } from "./block-job.ts";
import { type BlockAnswer, failedAnswer, type LocalAnswer } from "./contract-executor.ts";
import { answerLocal } from "./local-job.ts";
import type { ThreadData, ThreadWork } from "./thread-messages.ts";

const data = workerData as ThreadData;
const parts: EnvironmentParts = {
  version: findVersionByName(data.network),
  networkId: data.networkId,
  miner: data.miner,
  reward: Decimal.parseLiteral(DEV_BLOCK_REWARD),
  blockGasLimit: data.blockGasLimit,
};
let ancestry: AncestryReader | undefined;
const states = new Map<number, VersionedPactDb>();

function stateOf(chainId: number): VersionedPactDb {
  let state = states.get(chainId);
  if (state === undefined) {
    state = openSqlitePactDb(data.statePaths[chainId]!, { readOnly: true });
    states.set(chainId, state);
  }
  return state;
}

/**
 * Runs `answer` on a snapshot of the chain's state after `parent`, with the environment of the
 * parent's child; `unserved` when the snapshot does not hold `parent`.
 */
function atParent<A>(
  chainId: number,
  parent: BlockHeader,
  answer: (env: BlockEnvironment, scratch: () => ScratchDb) => A,
): A | { readonly kind: "unserved" } | ReturnType<typeof failedAnswer> {
  try {
    ancestry ??= openAncestryReader(data.chainDbPath);
    const proofs = ancestry;
    const state = stateOf(chainId);
    return state.readSnapshot(() => {
      const block = state.blockAt(parent.height);
      if (block === null || !equalBytes(block.hash, parent.hash)) return { kind: "unserved" };
      const env = blockEnvironment(parts, chainId, parent, proofs);
      return answer(env, () => state.scratchAt(parent.height));
    });
  } catch (e) {
    return failedAnswer(e);
  }
}

function run(work: ThreadWork): LocalAnswer | BlockAnswer {
  const { chainId, parent } = work.request;
  if (work.kind === "block") {
    const request = work.request;
    return atParent(chainId, parent, (env, scratch) => answerBlock(request, { env, scratch }));
  }
  const request = work.request;
  return atParent(chainId, parent, (env, scratch) =>
    answerLocal(request, { parent, env, state: scratch, scratch }),
  );
}

function close(): void {
  for (const state of states.values()) state.close();
  ancestry?.close();
}

serveWork(run, close);
