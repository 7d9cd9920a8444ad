/**
 * The boundary between the node and contract execution: requests and answers as plain data (no
 * class instances), so that an executor may run on this thread (`InProcessExecutor`) or on
 * threads of its own (`ExecutionThreads`) behind the same interface, and every refusal comes
 * back as a tagged value that survives `postMessage`.
 *
 * Today the boundary carries `local` (and preflight), the execution of a new block's commands
 * under on-demand mining, and the check of a sync's blocks ahead of their import (the writes of
 * both then applied to the chain's state on the node's thread); the other blocks — made by the
 * other modes, replayed, levelling, forks — still run on the node's thread, on the chains'
 * states (node-chain.ts).
 */
import type { ParentBlock } from "../../chain/header/types.ts";
import type { PayloadWithOutputs } from "../../chain/payload/payload.ts";
import type { BlockWrites } from "../../pact/db/index.ts";
import type { ForeignBlock } from "../import/foreign-block.ts";
import type { MinerAccount } from "../options.ts";
import type { BlockTimeLimits } from "./block/block-executor.ts";
import type { LocalRules } from "./local.ts";

/**
 * `header` as the {@link ParentBlock} of work on top of it: only these fields cross to an
 * execution thread, not the whole header (its other fields cost the copy each way).
 */
export function parentBlockOf(header: ParentBlock): ParentBlock {
  const { chainId, height, creationTime, hash } = header;
  return { chainId, height, creationTime, hash };
}

/**
 * A `local` call, its parent block resolved. The command comes as the request's body text: the
 * executor parses and verifies it (on an execution thread, so a huge command costs the node's
 * thread no more than its copy).
 */
export interface LocalRequest {
  readonly chainId: number;
  /** The request body: one command `{"hash","sigs","cmd"}` as JSON text. */
  readonly body: string;
  /** Whether its signatures are checked (`signatureVerification`). */
  readonly verifySignatures: boolean;
  readonly preflight: boolean;
  /** The block it runs on top of: the chain's head or, with `rewindDepth`, an ancestor. */
  readonly parent: ParentBlock;
  readonly rules: LocalRules;
  /** The node's clock when the call came, in seconds since the UNIX epoch. */
  readonly nowSeconds: number;
  readonly timeLimitMs: number;
  /**
   * Instead of a `local` call, the gas profile of `body`, a transaction of a stored block whose
   * parent is `parent` (profile-job.ts): the block's transactions before it, and its miner.
   */
  readonly profile?: ProfileOf;
}

/** Where a stored transaction profiled ran: what ran before it in its block. */
export interface ProfileOf {
  /** The block's transactions before it (`{"hash","sigs","cmd"}` texts), in order. */
  readonly before: readonly string[];
  /** The block's miner (its coinbase and every gas redemption pay it). */
  readonly miner: MinerAccount;
}

export type LocalAnswer =
  /** The JSON text of the answer. */
  | { readonly kind: "answer"; readonly text: string }
  /** Refused before or while running (a 400 with this message). */
  | { readonly kind: "refused"; readonly message: string }
  /** Too many calls wait already (a 503 with this message). */
  | { readonly kind: "busy"; readonly message: string }
  /**
   * The executor cannot serve the call now: its view of the state does not hold `parent` (the
   * chain changed branch, or its newest blocks are not saved yet), or its thread is not ready
   * (starting, or replaced after a call stopped it). The caller runs it on its own thread.
   */
  | { readonly kind: "unserved" }
  /** Something failed that is not the command's doing; `code` is the error's, if any. */
  | {
      readonly kind: "failed";
      readonly message: string;
      readonly code?: string;
    };

/** A new block's commands, to execute on top of `parent` (its chain's head) without storing. */
export interface BlockRequest {
  readonly chainId: number;
  readonly parent: ParentBlock;
  /** The commands as payload transactions' text, in order (checked when they were admitted). */
  readonly transactions: readonly string[];
  /** The largest of their gas limits: what bounds the work of its longest command. */
  readonly largestGasLimit: number;
  readonly limits: BlockTimeLimits;
}

/** What executing a new block gave: its payload's parts and what it wrote. */
export interface ExecutedBlockData {
  readonly minerData: Uint8Array;
  readonly coinbase: Uint8Array;
  /** The commands it holds, in order: index in the request, output, where `metaData` goes. */
  readonly included: readonly {
    readonly index: number;
    readonly output: Uint8Array;
    readonly metaOffset: number;
  }[];
  /** The commands left out for good (gas not payable, a time-out), with the reason. */
  readonly rejected: readonly {
    readonly index: number;
    readonly reason: string;
  }[];
  readonly writes: BlockWrites;
}

export type BlockAnswer =
  | { readonly kind: "executed"; readonly block: ExecutedBlockData }
  /** As for `local`: the caller makes the block on its own thread. */
  | { readonly kind: "unserved" }
  | {
      readonly kind: "failed";
      readonly message: string;
      readonly code?: string;
    };

/**
 * Who checks a sync's blocks ahead of their import: the execution threads (without them, the
 * importer executes each block on the chain's state as it stores it).
 */
export interface ForeignChecker {
  checkForeign(request: ForeignRunRequest): Promise<ForeignRunAnswer>;
}

/**
 * Blocks made elsewhere, each extending the one before on one chain, to check by executing them
 * (a sync's, ahead of their import: import/checked-ahead.ts).
 */
export interface ForeignRunRequest {
  readonly chainId: number;
  /** The block the first one extends: stored, or the last of the run asked for before it. */
  readonly parent: ParentBlock;
  /** Whether `parent` is the last block of the run asked for before on this chain. */
  readonly continues: boolean;
  readonly blocks: readonly ForeignBlock[];
  /** The keys whose private commands a block may hold (`entityKeys`). */
  readonly entityKeys: readonly string[];
}

/** A block of a run, checked: its payload with the outputs execution gave, and its writes. */
export interface CheckedForeignBlock {
  readonly payload: PayloadWithOutputs;
  readonly writes: BlockWrites;
}

export type ForeignRunAnswer =
  /**
   * The first blocks of the run, checked (all of them, or those before the first that was not:
   * that one and the rest are for the caller to execute, and to refuse if they are bad).
   */
  | { readonly kind: "checked"; readonly blocks: readonly CheckedForeignBlock[] }
  | { readonly kind: "unserved" }
  | {
      readonly kind: "failed";
      readonly message: string;
      readonly code?: string;
    };

export interface ContractExecutor {
  local(request: LocalRequest): Promise<LocalAnswer>;
  makeBlock(request: BlockRequest): Promise<BlockAnswer>;
  /** Stops the executor; calls under way answer `failed`. */
  close(): Promise<void>;
}

/** A `failed` answer as the error it carries (its code kept, so a failing disk is told apart). */
export function failureError(answer: { readonly message: string; readonly code?: string }): Error {
  const error = new Error(answer.message);
  return answer.code === undefined ? error : Object.assign(error, { code: answer.code });
}

/** An error met while executing as the answer that carries it across threads. */
export function failedAnswer(e: unknown): {
  readonly kind: "failed";
  readonly message: string;
  readonly code?: string;
} {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? { kind: "failed", message, code } : { kind: "failed", message };
}
