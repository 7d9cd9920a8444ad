/**
 * Errors raised while compiling or running Pact code. `kind` decides the on-chain error `type`
 * (see `onChainErrorType`); `message` is the text the REPL shows and `expect-failure` matches on.
 */
import type { Span } from "../syntax/span.ts";
import type { PactValue } from "../values/types.ts";

/**
 * - `syntax`: lexer and parser errors.
 * - `desugar`: name resolution and module definition errors (unbound names, recursion, …).
 * - `execution`: runtime errors that are bugs in the caller's code (type errors, arithmetic, …).
 * - `user`: errors a transaction is expected to raise (`enforce`, failed keysets, missing rows,
 *   capabilities not granted, `error`), which Pact calls user-recoverable.
 * - `gas`: the gas limit was exceeded.
 */
export type PactErrorKind = "syntax" | "desugar" | "execution" | "user" | "gas";

export interface StackFrame {
  /** Fully qualified function name, e.g. `coin.transfer`. */
  readonly name: string;
  /** Where the function was called from. */
  readonly span: Span | undefined;
  /** The file of `span`, when known (the REPL can load several files). */
  readonly file?: string;
  /** The arguments the function was called with (shown in rendered errors). */
  readonly args?: readonly PactValue[];
}

export class PactError extends Error {
  override readonly name = "PactError";
  /**
   * The text a command's result carries on chain, where Pact 5 words it otherwise than
   * `message` (its `…ToBoundedText` functions); undefined when the two are the same.
   */
  onChainMessage: string | undefined = undefined;
  constructor(
    readonly kind: PactErrorKind,
    message: string,
    /** Where the error arose, when known; the evaluator fills it in from the call site. */
    public span: Span | undefined = undefined,
    public callStack: readonly StackFrame[] = [],
    /** The file of `span`, when known; the evaluator fills it in together with `span`. */
    public file: string | undefined = undefined,
  ) {
    super(message);
  }
}

/** The `type` field of a failure result on chain (Pact 5's `PactOnChainError`). */
export function onChainErrorType(kind: PactErrorKind): "SyntaxError" | "EvalError" | "TxFailure" {
  switch (kind) {
    case "syntax":
      return "SyntaxError";
    case "user":
      return "TxFailure";
    default:
      return "EvalError";
  }
}

/** Shorthand for the most common runtime failure. */
export function executionError(message: string, span?: Span): PactError {
  return new PactError("execution", message, span);
}

export function userError(message: string, span?: Span): PactError {
  return new PactError("user", message, span);
}

/**
 * Pact's `abbrevText`, as on-chain texts cut names and keys: text longer than `limit` code points
 * becomes its first `limit` and `...`.
 */
export function abbrevOnChain(limit: number, text: string): string {
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit).join("")}...`;
}

/** A `PactError` whose on-chain text differs from the REPL's. */
export function pactErrorWithOnChainText(
  kind: PactErrorKind,
  message: string,
  onChainMessage: string,
): PactError {
  const e = new PactError(kind, message);
  e.onChainMessage = onChainMessage;
  return e;
}
