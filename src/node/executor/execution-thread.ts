/**
 * The code of one execution thread (a `worker_thread` started by execution-threads.ts): `local`
 * calls on read-only views of the node's files. Each contract state and the chain database are
 * opened read-only, on first use, beside the node's own connections; every call reads one
 * snapshot of its chain's state and first checks that it holds the call's parent block (the
 * node saves a state before it hands a call over, but the chain may change branch meanwhile).
 */
import { parentPort, workerData } from "node:worker_threads";
import { equalBytes } from "../../chain/bytes.ts";
import { type AncestryReader, openAncestryReader } from "../../chain/db/index.ts";
import { findVersionByName } from "../../chain/version/known-versions.ts";
import { openSqlitePactDb, type VersionedPactDb } from "../../pact/db/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import { blockEnvironment, type EnvironmentParts } from "../block-execution/environment.ts";
import { DEV_BLOCK_REWARD } from "../genesis/coin-calls.ts";
import { failedAnswer, type LocalAnswer, type LocalRequest } from "./contract-executor.ts";
import { answerLocal } from "./local-job.ts";
import type { ThreadData, ThreadMessage, ThreadReply } from "./thread-messages.ts";

const data = workerData as ThreadData;
const port = parentPort!;
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

function local(request: LocalRequest): LocalAnswer {
  try {
    ancestry ??= openAncestryReader(data.chainDbPath);
    const proofs = ancestry;
    const { chainId, parent } = request;
    const state = stateOf(chainId);
    return state.readSnapshot(() => {
      const block = state.blockAt(parent.height);
      if (block === null || !equalBytes(block.hash, parent.hash)) return { kind: "unserved" };
      const scratch = () => state.scratchAt(parent.height);
      const env = blockEnvironment(parts, chainId, parent, proofs);
      return answerLocal(request, { parent, env, state: scratch, scratch });
    });
  } catch (e) {
    return failedAnswer(e);
  }
}

function close(): void {
  for (const state of states.values()) state.close();
  ancestry?.close();
  port.close();
}

port.on("message", (message: ThreadMessage) => {
  if (message.kind === "close") {
    close();
    return;
  }
  const reply: ThreadReply = { kind: "answer", id: message.id, answer: local(message.request) };
  port.postMessage(reply);
});
port.postMessage({ kind: "ready" } satisfies ThreadReply);
