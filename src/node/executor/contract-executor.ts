/**
 * The boundary between the node and contract execution: requests and answers as plain data (no
 * class instances), so that an executor may run on this thread (`InProcessExecutor`) or on
 * threads of its own (`ExecutionThreads`) behind the same interface, and every refusal comes
 * back as a tagged value that survives `postMessage`.
 *
 * Today the boundary carries `local` (and preflight); making and validating blocks still run on
 * the node's thread, on the chains' states (node-chain.ts).
 */
import type { BlockHeader } from "../../chain/header/types.ts";
import type { LocalRules } from "../local.ts";

/** A `local` call, its parent block resolved and its signatures checked already. */
export interface LocalRequest {
  readonly chainId: number;
  /** The command as a payload transaction's text: `{"hash","sigs","cmd"}`. */
  readonly transaction: string;
  readonly preflight: boolean;
  /** The block it runs on top of: the chain's head or, with `rewindDepth`, an ancestor. */
  readonly parent: BlockHeader;
  readonly rules: LocalRules;
  /** The node's clock when the call came, in seconds since the UNIX epoch. */
  readonly nowSeconds: number;
  readonly timeLimitMs: number;
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
  | { readonly kind: "failed"; readonly message: string; readonly code?: string };

export interface ContractExecutor {
  local(request: LocalRequest): Promise<LocalAnswer>;
  /** Stops the executor; calls under way answer `failed`. */
  close(): Promise<void>;
}

/** An error met while executing as the answer that carries it across threads. */
export function failedAnswer(e: unknown): LocalAnswer {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" ? { kind: "failed", message, code } : { kind: "failed", message };
}
