/**
 * The code of one execution thread (a `worker_thread` started by execution-threads.ts): `local`
 * calls and new blocks' commands on read-only views of the node's files. Each contract state and
 * the chain database are opened read-only, on first use, beside the node's own connections;
 * every piece of work reads a snapshot of its chain's state, shared with the pieces of the same
 * 20 ms ({@link SNAPSHOT_HOLD_MS}), and first checks that the snapshot holds the work's parent
 * block (the node saves a state before it hands work over, but the chain may change branch
 * meanwhile). A block's writes stay on a scratch state and go back to the node. A sync's blocks
 * are checked in runs, each run going on from the scratch state the one before left (the node
 * stores them behind the thread).
 */
import { workerData } from "node:worker_threads";
import { equalBytes } from "../../chain/bytes.ts";
import { type AncestryReader, openAncestryReader } from "../../chain/db/index.ts";
import type { ParentBlock } from "../../chain/header/types.ts";
import { findVersionByName } from "../../chain/version/known-versions.ts";
import { serveWork } from "../../execution/work-thread-port.ts";
import {
  type BlockReads,
  type BlockRecord,
  openSqlitePactDb,
  type ScratchDb,
  type VersionedPactDb,
} from "../../pact/db/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import { DEV_BLOCK_REWARD } from "../genesis/coin-calls.ts";
import type { BlockEnvironment } from "./block/block-executor.ts";
import { blockEnvironment, type EnvironmentParts } from "./block/environment.ts";
import { answerBlock } from "./block-job.ts";
import {
  type ForeignRunAnswer,
  type ForeignRunRequest,
  failedAnswer,
} from "./contract-executor.ts";
import { answerForeignRun } from "./foreign-run-job.ts";
import { answerLocal } from "./local-job.ts";
import type { ThreadAnswer, ThreadData, ThreadWork } from "./thread-messages.ts";

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

/**
 * How long one read snapshot of a chain's state serves the work that arrives, in milliseconds:
 * the calls on the same parent block in that time share the snapshot and what it read (a
 * module's stored text, the parent's record) instead of each starting its own. A held snapshot
 * keeps SQLite from copying the node's writes back into the file past it, so it ends after this
 * long (or when the work after it needs a newer block).
 */
export const SNAPSHOT_HOLD_MS = 20;

/** A chain's read snapshot held across pieces of work, with the parent block last found in it. */
interface HeldSnapshot {
  readonly state: VersionedPactDb;
  readonly sinceMs: number;
  at: { readonly parentHash: Uint8Array; readonly reads: BlockReads } | null;
}

const held = new Map<number, HeldSnapshot>();
let releaseTimer: NodeJS.Timeout | undefined;

function stateOf(chainId: number): VersionedPactDb {
  let state = states.get(chainId);
  if (state === undefined) {
    state = openSqlitePactDb(data.statePaths[chainId]!, { readOnly: true });
    states.set(chainId, state);
  }
  return state;
}

/** Ends every held snapshot. */
function releaseSnapshots(): void {
  clearTimeout(releaseTimer);
  releaseTimer = undefined;
  for (const snapshot of held.values()) snapshot.state.endSnapshot();
  held.clear();
}

/**
 * The chain's held snapshot, begun now when there is none or it is older than
 * {@link SNAPSHOT_HOLD_MS} (`fresh`: begun in any case); every held snapshot ends that long after
 * the first of them began, unless the thread is busy then (the next piece ends it, by its age).
 */
function snapshotOf(chainId: number, fresh: boolean): HeldSnapshot {
  const current = held.get(chainId);
  if (current !== undefined && !fresh && young(current)) return current;
  current?.state.endSnapshot();
  held.delete(chainId);
  const state = stateOf(chainId);
  state.beginSnapshot();
  const snapshot: HeldSnapshot = { state, sinceMs: performance.now(), at: null };
  held.set(chainId, snapshot);
  releaseTimer ??= setTimeout(releaseSnapshots, SNAPSHOT_HOLD_MS);
  return snapshot;
}

/** Whether a held snapshot may still serve the work that arrives ({@link SNAPSHOT_HOLD_MS}). */
function young(snapshot: HeldSnapshot): boolean {
  return performance.now() - snapshot.sinceMs <= SNAPSHOT_HOLD_MS;
}

/**
 * The chain's held snapshot and the state's record of `block` in it, or null when the state does
 * not hold `block`; a snapshot begun before the node saved `block` is begun again.
 */
function snapshotHolding(
  chainId: number,
  block: ParentBlock,
): { readonly snapshot: HeldSnapshot; readonly record: BlockRecord } | null {
  const current = held.get(chainId);
  let snapshot = snapshotOf(chainId, false);
  for (let begunNow = snapshot !== current; ; begunNow = true) {
    const record = snapshot.state.blockAt(block.height);
    if (record !== null && equalBytes(record.hash, block.hash)) return { snapshot, record };
    if (begunNow) return null;
    snapshot = snapshotOf(chainId, true);
  }
}

/**
 * The reads of the chain's state after `parent` in its held snapshot (those of the work before
 * when it ran on `parent` too), or null when the state does not hold `parent`.
 */
function readsAfter(chainId: number, parent: ParentBlock): BlockReads | null {
  const current = held.get(chainId);
  if (
    current !== undefined &&
    young(current) &&
    current.at !== null &&
    equalBytes(current.at.parentHash, parent.hash)
  ) {
    return current.at.reads;
  }
  const holding = snapshotHolding(chainId, parent);
  if (holding === null) return null;
  const reads = holding.snapshot.state.blockReads(holding.record);
  holding.snapshot.at = { parentHash: parent.hash, reads };
  return reads;
}

/**
 * Runs `answer` on the chain's state after `parent`, with the environment of the parent's
 * child; `unserved` when the state does not hold `parent`.
 */
function atParent<A>(
  chainId: number,
  parent: ParentBlock,
  answer: (env: BlockEnvironment, scratch: () => ScratchDb) => A,
): A | { readonly kind: "unserved" } | ReturnType<typeof failedAnswer> {
  try {
    ancestry ??= openAncestryReader(data.chainDbPath);
    const reads = readsAfter(chainId, parent);
    if (reads === null) return { kind: "unserved" };
    const state = stateOf(chainId);
    const env = blockEnvironment(parts, chainId, parent, ancestry);
    return answer(env, () => state.scratchOn(reads));
  } catch (e) {
    // The snapshot may be what failed (a file gone, a disk error): the next piece begins anew.
    releaseSnapshots();
    return failedAnswer(e);
  }
}

/**
 * The most blocks of runs from elsewhere one scratch state carries on before the thread starts
 * again from the chain's saved state, once that holds the next run's parent (the node saves what
 * it stored of them every `STATE_FLUSH_INTERVAL_MS`): the scratch state keeps every version each
 * block wrote.
 */
export const FOREIGN_OVERLAY_BLOCKS = 1_000;

/**
 * Past this many, a run whose parent the saved state does not hold yet is left to the node's
 * thread (it executes such blocks itself, as it does without execution threads).
 */
export const FOREIGN_OVERLAY_MAX_BLOCKS = 4 * FOREIGN_OVERLAY_BLOCKS;

/**
 * Per chain, the scratch state the last run from elsewhere left: the next run, which extends it
 * before the node has stored (let alone saved) the blocks before, goes on from there.
 */
interface ForeignOverlay {
  readonly db: ScratchDb;
  /** The saved block it stacks on: if the state no longer holds it, the overlay is dropped. */
  readonly base: ParentBlock;
  /** The hash of its last block. */
  tip: Uint8Array;
  blocks: number;
}

const overlays = new Map<number, ForeignOverlay>();

/**
 * The scratch state to check a run on: the one the run before left when the run extends it (and
 * the state still holds what it stacks on), else a new one after the run's parent when the state
 * holds that; null when neither.
 */
function overlayFor(chainId: number, parent: ParentBlock): ForeignOverlay | null {
  const last = overlays.get(chainId);
  overlays.delete(chainId);
  const continues =
    last !== undefined &&
    equalBytes(last.tip, parent.hash) &&
    snapshotHolding(chainId, last.base) !== null;
  if (continues && last.blocks < FOREIGN_OVERLAY_BLOCKS) return last;
  const reads = readsAfter(chainId, parent);
  if (reads !== null) {
    return { db: stateOf(chainId).scratchOn(reads), base: parent, tip: parent.hash, blocks: 0 };
  }
  return continues && last.blocks < FOREIGN_OVERLAY_MAX_BLOCKS ? last : null;
}

/**
 * Checks a run of blocks from elsewhere, in one read snapshot of the chain's state (a branch
 * change the node makes meanwhile cannot show half-way through); the scratch state is kept for
 * the next run when every block passed.
 */
function checkForeign(request: ForeignRunRequest): ForeignRunAnswer {
  const { chainId } = request;
  try {
    ancestry ??= openAncestryReader(data.chainDbPath);
    const chainAncestry = ancestry;
    const overlay = overlayFor(chainId, request.parent);
    if (overlay === null) return { kind: "unserved" };
    const answer = answerForeignRun(request, {
      db: overlay.db,
      env: (parent, miner) => blockEnvironment(parts, chainId, parent, chainAncestry, miner),
    });
    const last = request.blocks.at(-1);
    if (last !== undefined && answer.blocks.length === request.blocks.length) {
      overlay.tip = last.header.hash;
      overlay.blocks += request.blocks.length;
      overlays.set(chainId, overlay);
    }
    return answer;
  } catch (e) {
    releaseSnapshots();
    return failedAnswer(e);
  }
}

function run(work: ThreadWork): ThreadAnswer {
  if (work.kind === "foreign") return checkForeign(work.request);
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
  overlays.clear();
  releaseSnapshots();
  for (const state of states.values()) state.close();
  ancestry?.close();
}

serveWork(run, close);
