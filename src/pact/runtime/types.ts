/**
 * The contract between the evaluator and the natives. The evaluator (src/pact/eval) owns
 * closures, environments and special forms; each native family (src/pact/natives) is a list of
 * `NativeDef`s that receive evaluated arguments and a `NativeContext`.
 */
import type { Span } from "../syntax/span.ts";
import type { PactValue } from "../values/types.ts";

/**
 * Anything that can be applied: a user function, a lambda, a native, or a partial application.
 * The evaluator defines the concrete kinds; natives only call them through `NativeContext.apply`.
 */
export interface Callable {
  readonly kind: "callable";
  /** The name shown in errors and traces (`lambda` for anonymous functions). */
  readonly name: string;
  /** How many more arguments it takes before it runs. */
  readonly arity: number;
}

/** A value during evaluation: a Pact value or a function value. Only Pact values are stored or returned on chain. */
export type RuntimeValue = PactValue | Callable;

export function isCallable(v: RuntimeValue): v is Callable {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "callable";
}

export interface NativeContext {
  /** The span of the call site, for error messages. */
  readonly span: Span;
  /** Charges gas in milligas; throws a `gas` PactError when the limit is passed. */
  charge(milligas: number): void;
  /** Throws when the command has run past its time limit (the meter's `checkTime`). */
  checkTime(): void;
  /** Applies a function value to arguments (used by `map`, `fold`, `filter`, `sort`, `compose`, …). */
  apply(fn: Callable, args: readonly RuntimeValue[]): RuntimeValue;
  /**
   * The execution environment (transaction data, signers, chain data, database, capabilities).
   * Its shape grows with the language issues; natives that need it import the type from
   * src/pact/eval.
   */
  readonly env: unknown;
}

export interface NativeDef {
  /** The surface name, e.g. `str-to-int`. Overloads share one `NativeDef` and dispatch on arity and types. */
  readonly name: string;
  /** Allowed argument counts (inclusive). A call outside them is an arity error raised by the evaluator. */
  readonly minArgs: number;
  readonly maxArgs: number;
  /** Flat gas cost of one call in milligas, charged by the evaluator before `impl` runs. */
  readonly gas: number;
  readonly impl: (ctx: NativeContext, args: readonly RuntimeValue[]) => RuntimeValue;
}
