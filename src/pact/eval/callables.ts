/**
 * Function values made at run time: lambda closures, natives used as values, and partial
 * applications. (`defun`, `defcap` and `defpact` definitions are function values themselves; see
 * src/pact/compile/ir.ts.) Every function value carries a `tag` for one-switch dispatch.
 */

import { type DefPactDef, type DefunDef, FnTag, type LambdaInfo } from "../compile/ir.ts";
import type { Callable, NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import type { Runtime } from "./runtime.ts";
import type { Frame } from "./types.ts";

/**
 * One call site in compiled code. It is also the `NativeContext` natives called there receive:
 * the evaluator sets `rt` before each call (compiled code may run in several runtimes, one at a
 * time), so no context object is allocated per call.
 */
export class CallSite implements NativeContext {
  rt!: Runtime;
  constructor(
    readonly span: Span,
    readonly file: string,
  ) {}
  charge(milligas: number): void {
    this.rt.env.gas.charge(milligas);
  }
  checkTime(): void {
    this.rt.env.gas.checkTime?.();
  }
  apply(fn: Callable, args: readonly RuntimeValue[]): RuntimeValue {
    return this.rt.apply(fn, args, this);
  }
  get env() {
    return this.rt.env;
  }
}

export class LambdaClosure implements Callable {
  readonly kind = "callable";
  readonly tag = FnTag.Lambda;
  readonly name = "lambda";
  readonly arity: number;
  constructor(
    readonly lambda: LambdaInfo,
    /** The frame the lambda was created in (its slot-0 parent). */
    readonly parent: Frame,
  ) {
    this.arity = lambda.params.length;
  }
}

/** A native used as a value, e.g. `+` in `(fold (+) 0 xs)`. */
export class NativeFunction implements Callable {
  readonly kind = "callable";
  readonly tag = FnTag.Native;
  readonly name: string;
  readonly arity: number;
  constructor(
    readonly native: NativeDef,
    /** Where the native was named; errors from its calls point there. */
    readonly site: CallSite,
  ) {
    this.name = native.name;
    this.arity = native.minArgs;
  }
}

/**
 * A defun or defpact named through a module reference (`ref::f`) inside a function. It carries the
 * modules that must not be re-entered with write access while it runs (Pact's `ceReentrant`): the
 * calling module and those already being protected where it was named. Any function of one of
 * those modules called from it runs read-only, so a callee cannot change the caller's state
 * behind its back.
 */
export class ModRefFunction implements Callable {
  readonly kind = "callable";
  readonly tag = FnTag.ModRefFunction;
  readonly name: string;
  readonly arity: number;
  constructor(
    readonly target: DefunDef | DefPactDef,
    /** Rendered names of the protected modules. */
    readonly reentrant: readonly string[],
  ) {
    this.name = target.name;
    this.arity = target.arity;
  }
}

/** The functions a partial application can hold. */
export type PartialTarget = Callable & { readonly tag: FnTag };

/** A function applied to fewer arguments than it needs: `(+ 1)`, `(f a)`. */
export class PartialClosure implements Callable {
  readonly kind = "callable";
  readonly tag = FnTag.Partial;
  readonly name: string;
  readonly arity: number;
  constructor(
    readonly target: PartialTarget,
    readonly args: readonly RuntimeValue[],
    /** The target's full arity (a native's minimum). */
    fullArity: number,
  ) {
    this.name = target.name;
    this.arity = fullArity - args.length;
  }
}

/** Any function value the evaluator made. */
export type TaggedCallable = Callable & { readonly tag: FnTag };

/** The runtime a native is running in (for natives that need the evaluator's state). */
export function runtimeOf(ctx: NativeContext): Runtime {
  return (ctx as CallSite).rt;
}

/** The file of the call a native is running for. */
export function fileOf(ctx: NativeContext): string {
  return (ctx as CallSite).file;
}
