/**
 * The state of one execution (Pact's `EvalState` plus the evaluator's machinery): the environment,
 * the call stack, capabilities, events, the names loaded at the top level, and the one place that
 * applies function values. Compiled code (src/pact/eval/codegen.ts) calls into it.
 */

import {
  type DefCapDef,
  DefConstDef,
  type DefPactDef,
  type DefunDef,
  FnTag,
  type LambdaInfo,
  type LoadedModule,
} from "../compile/ir.ts";
import { renderModuleName } from "../compile/names.ts";
import {
  chargeApplication,
  chargeCall,
  chargedNativeCall,
  chargeTypecheck,
  type GasProfiler,
  type PactGasMeter,
} from "../gas/index.ts";
import { PactError, type PactErrorKind, type StackFrame } from "../runtime/errors.ts";
import { expectedPactValueError } from "../runtime/native-errors.ts";
import { type Callable, isCallable, type NativeDef, type RuntimeValue } from "../runtime/types.ts";
import type { CapToken, Guard, ModRef, PactValue } from "../values/types.ts";
import {
  CallSite,
  type LambdaClosure,
  ModRefFunction,
  type NativeFunction,
  PartialClosure,
  type TaggedCallable,
} from "./callables.ts";
import { CapState } from "./caps.ts";
import { bodyCode, codegenLambda } from "./codegen.ts";
import { DEFPACT_ENGINE } from "./defpact-engine.ts";
import type { DefPactExec, DefPactStep } from "./defpact-exec.ts";
import { chargeRead } from "./deploy-gas.ts";
import type { ExecutionEnv } from "./env.ts";
import { LoadedNames } from "./loaded.ts";
import { matchesType, type TypeCheck, typeCheck, typecheckError } from "./typecheck.ts";
import {
  type CoverageSink,
  codeOf,
  type DefPactEngine,
  type Frame,
  type KeysetAuthority,
  type PactEvent,
  Purity,
} from "./types.ts";

/**
 * How deeply function applications may nest. Pact forbids recursion, so real code stays shallow
 * (coin transfers nest under 20 calls); only lambdas applied to themselves can go deeper. The
 * limit turns such runaway code into a clean error long before the JavaScript stack runs out.
 */
export const MAX_CALL_DEPTH = 400;

const TOO_MANY_ARGS = "Attempted to apply a closure to too many arguments";

const NO_MODULES: readonly string[] = [];

export class Runtime {
  readonly loaded: LoadedNames;
  caps = new CapState();
  events: PactEvent[] = [];
  purity: Purity = Purity.Impure;
  /** Depth of nested defcap body evaluations (forms like `with-capability` are illegal there). */
  inCap = 0;
  defpacts: DefPactEngine | null = DEFPACT_ENGINE;
  /** The defpact being executed (Pact's `esDefPactExec`): set by a step, read by `yield`, guards. */
  pactExec: DefPactExec | null = null;
  /** The defpact step being evaluated (Pact's `DefPactStep` in the environment), or null. */
  pactStep: DefPactStep | null = null;
  coverage: CoverageSink | null = null;
  /** Attributes the gas charged to the frames it is charged in, when profiling (null: off). */
  profiler: GasProfiler | null = null;
  keysets: KeysetAuthority | null = null;
  /**
   * Modules whose functions run read-only when entered (Pact's `ceReentrant`): the callers of the
   * module-reference calls (`ref::f`) under way. Empty almost always.
   */
  reentrant: readonly string[] = NO_MODULES;

  // The Pact call stack (defuns, defcaps, defpacts), kept in parallel arrays to avoid allocation.
  private stackFns: (DefunDef | DefCapDef | DefPactDef)[] = [];
  private stackArgs: (readonly RuntimeValue[])[] = [];
  private stackSites: CallSite[] = [];
  private stackTop = 0;
  /** Nesting of all function applications (lambdas included). */
  private depth = 0;

  constructor(public env: ExecutionEnv) {
    this.loaded = new LoadedNames(
      () => this.env.modules,
      (module, merge) => chargeRead(this.env, module, merge),
    );
  }

  // -------------------------------------------------------------------------------------------
  // Errors

  /** An error raised by the evaluator at `site`, with the current call stack. */
  error(kind: PactErrorKind, message: string, site: CallSite): PactError {
    return new PactError(kind, message, site.span, this.stack(), site.file);
  }

  /** Gives an error raised by a native the location and stack of the call, if it has none. */
  locate(e: unknown, site: CallSite): unknown {
    if (e instanceof PactError) {
      if (e.span === undefined) {
        e.span = site.span;
        e.file = site.file;
        e.callStack = this.stack();
      }
      return e;
    }
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      return this.error("execution", `Maximum call depth exceeded`, site);
    }
    return e;
  }

  /** The current call stack, innermost first. */
  stack(): StackFrame[] {
    const frames: StackFrame[] = [];
    for (let i = this.stackTop - 1; i >= 0; i--) {
      const site = this.stackSites[i]!;
      frames.push({
        name: this.stackFns[i]!.fullyQualifiedName,
        span: site.span,
        file: site.file,
        args: this.stackArgs[i] as PactValue[],
      });
    }
    return frames;
  }

  /** The module of the innermost function on the stack (the "calling module"), if any. */
  callingModule(): string | null {
    return this.stackTop === 0 ? null : this.stackFns[this.stackTop - 1]!.module.rendered;
  }

  /** The innermost function on the stack (null at the top level). */
  innermost(): DefunDef | DefCapDef | DefPactDef | null {
    return this.stackTop === 0 ? null : this.stackFns[this.stackTop - 1]!;
  }

  /** Whether a function of module `rendered` is anywhere on the stack. */
  calledByModule(rendered: string): boolean {
    for (let i = 0; i < this.stackTop; i++)
      if (this.stackFns[i]!.module.rendered === rendered) return true;
    return false;
  }

  // -------------------------------------------------------------------------------------------
  // Applying functions

  /**
   * Applies a function value, as natives do (`map`, `fold`, …) and as a call in code does after
   * checking that the function is not a partial application.
   */
  apply(fn: Callable, args: readonly RuntimeValue[], site: CallSite): RuntimeValue {
    const f = fn as TaggedCallable;
    const n = args.length;
    switch (f.tag) {
      case FnTag.Defun: {
        const def = f as unknown as DefunDef;
        if (n === def.arity) return this.callDefun(def, args, site);
        return this.partial(f, def.arity, args, def.params, site);
      }
      case FnTag.Lambda: {
        const lam = f as unknown as LambdaClosure;
        if (n === lam.arity) return this.callLambda(lam, args, site);
        return this.partial(f, lam.arity, args, lam.lambda.params, site);
      }
      case FnTag.Native: {
        const nf = f as unknown as NativeFunction;
        return this.applyNative(nf.native, nf, args, site);
      }
      case FnTag.Partial:
        return this.applyPartial(f as unknown as PartialClosure, args, site);
      case FnTag.ModRefFunction: {
        const ref = f as unknown as ModRefFunction;
        if (n < ref.arity) return this.partial(f, ref.arity, args, ref.target.params, site);
        return this.withReentrant(ref.reentrant, () => this.apply(ref.target, args, site));
      }
      case FnTag.DefCap: {
        const cap = f as unknown as DefCapDef;
        if (n !== cap.arity) throw this.error("execution", TOO_MANY_ARGS, site);
        return this.capToken(cap, args, site);
      }
      case FnTag.DefPact: {
        const pact = f as unknown as DefPactDef;
        if (n !== pact.arity) throw this.error("execution", TOO_MANY_ARGS, site);
        const gas = this.env.gas;
        if (gas.charging === true) chargeCall(gas as PactGasMeter, pact.params, args);
        const values = this.checkArgs(pact.params, args, site);
        if (this.defpacts === null) {
          throw this.error("execution", "defpacts are not available in this environment", site);
        }
        return this.defpacts.init(this, pact, values, site);
      }
      default:
        throw this.error("execution", "Cannot apply value to non-closure", site);
    }
  }

  /** Fewer arguments than the function needs: none gives the function back, some a partial. */
  private partial(
    f: TaggedCallable,
    arity: number,
    args: readonly RuntimeValue[],
    params: LambdaInfo["params"],
    site: CallSite,
  ): RuntimeValue {
    if (args.length > arity) throw this.error("execution", TOO_MANY_ARGS, site);
    if (args.length === 0) return f;
    const gas = this.env.gas;
    if (gas.charging === true) chargeCall(gas as PactGasMeter, params, args);
    this.checkArgs(params, args, site);
    return new PartialClosure(f, args, arity);
  }

  private applyPartial(
    p: PartialClosure,
    more: readonly RuntimeValue[],
    site: CallSite,
  ): RuntimeValue {
    const target = p.target;
    if (target.tag === FnTag.Native) {
      const nf = target as unknown as NativeFunction;
      return this.applyNative(nf.native, nf, [...p.args, ...more], site);
    }
    if (target.tag === FnTag.ModRefFunction) {
      // Only defuns take partial applications; complete it with the modules protected.
      const ref = target as unknown as ModRefFunction;
      const inner = new PartialClosure(ref.target, p.args, ref.arity);
      return this.withReentrant(ref.reentrant, () => this.applyPartial(inner, more, site));
    }
    if (more.length > p.arity) throw this.error("execution", TOO_MANY_ARGS, site);
    const params =
      target.tag === FnTag.Defun
        ? (target as unknown as DefunDef).params
        : (target as unknown as LambdaClosure).lambda.params;
    const rest = params.slice(p.args.length);
    const gas = this.env.gas;
    if (gas.charging === true) chargeCall(gas as PactGasMeter, rest, more);
    this.checkArgs(rest, more, site);
    const all = [...p.args, ...more];
    if (more.length < p.arity)
      return new PartialClosure(target, all, all.length + p.arity - more.length);
    // The arguments given now are charged above, as Pact charges completing a partial.
    if (target.tag === FnTag.Defun)
      return this.enterDefun(target as unknown as DefunDef, all, site);
    return this.enterLambda(target as unknown as LambdaClosure, all, site);
  }

  /** A native applied to `args` (all of them, partial ones included). */
  applyNative(
    native: NativeDef,
    fn: NativeFunction,
    args: readonly RuntimeValue[],
    site: CallSite,
  ): RuntimeValue {
    const n = args.length;
    if (n > native.maxArgs) throw this.error("execution", TOO_MANY_ARGS, site);
    if (n < native.minArgs) {
      if (n === 0) return fn;
      return new PartialClosure(fn, args, native.minArgs);
    }
    return this.invokeNative(native, args, fn.site);
  }

  /**
   * Runs a native's implementation. A pricing meter charges its flat cost and the costs of its
   * arguments (src/pact/gas/natives.ts); other meters get the flat cost only.
   */
  invokeNative(native: NativeDef, args: readonly RuntimeValue[], site: CallSite): RuntimeValue {
    site.rt = this;
    const profiler = this.profiler;
    if (profiler !== null) profiler.enter("native", native.name);
    try {
      const gas = this.env.gas;
      if (gas.charging === true) return chargedNativeCall(gas as PactGasMeter, native, site, args);
      if (native.gas !== 0) gas.charge(native.gas);
      return native.impl(site, args);
    } catch (e) {
      throw this.locate(e, site);
    } finally {
      if (profiler !== null) profiler.exit();
    }
  }

  /** Checks arguments given to a user function: values only, of the declared types. */
  checkArgs(
    params: LambdaInfo["params"],
    args: readonly RuntimeValue[],
    site: CallSite,
  ): PactValue[] {
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (isCallable(a)) throw this.locate(expectedPactValueError(), site);
      const t = params[i]?.type;
      if (t != null && !matchesType(a, t)) throw this.locate(typecheckError(a, t), site);
    }
    return args as PactValue[];
  }

  /** Applies a defun to all its arguments (Pact charges applications with arguments). */
  callDefun(def: DefunDef, args: readonly RuntimeValue[], site: CallSite): RuntimeValue {
    const gas = this.env.gas;
    if (gas.charging === true && args.length !== 0) {
      chargeCall(gas as PactGasMeter, def.params, args);
    }
    return this.enterDefun(def, args, site);
  }

  /** Runs a defun's body on its arguments (already charged). */
  private enterDefun(def: DefunDef, args: readonly RuntimeValue[], site: CallSite): RuntimeValue {
    const checks = def.argChecks ?? prepareChecks(def);
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const check = checks[i];
      if (check != null ? !check(a) : isCallable(a)) this.checkArgs(def.params, args, site);
    }
    const frame: Frame = new Array(def.frameSize);
    frame[0] = null;
    for (let i = 0; i < args.length; i++) frame[i + 1] = args[i];
    const code = codeOf(def.code) ?? bodyCode(def);
    // The same bookkeeping as `withFrame`, inlined: this is the hot path of every call.
    if (def.active) throw this.recursionError(def, site);
    if (this.depth >= MAX_CALL_DEPTH) throw this.depthError(site);
    const top = this.stackTop;
    this.stackFns[top] = def;
    this.stackArgs[top] = args;
    this.stackSites[top] = site;
    this.stackTop = top + 1;
    this.depth++;
    def.active = true;
    const purity = this.purity;
    if (this.reentrant.length !== 0) this.guardReentry(def);
    const profiler = this.profiler;
    if (profiler !== null) profiler.enter("function", def.qualifiedName);
    let result: RuntimeValue;
    try {
      result = code(this, frame);
    } finally {
      def.active = false;
      this.depth--;
      this.stackTop = top;
      this.purity = purity;
      if (profiler !== null) profiler.exit();
    }
    const gas = this.env.gas;
    if (gas.charging === true) chargeTypecheck(gas as PactGasMeter, result, def.returnType);
    const returnCheck = def.returnCheck;
    if (returnCheck == null ? isCallable(result) : !returnCheck(result)) {
      if (isCallable(result)) throw this.locate(expectedPactValueError(), site);
      // Pact's flag `DisableRuntimeRTC` turns the return type check off.
      if (!this.env.flags.has("DisableRuntimeRTC")) {
        throw this.locate(typecheckError(result, def.returnType!), site);
      }
    }
    return result;
  }

  /**
   * Runs `body` as a call of `fn`: pushes a stack frame, rejects recursion and runaway nesting,
   * and always pops again.
   */
  withFrame<T>(
    fn: DefunDef | DefCapDef | DefPactDef,
    args: readonly RuntimeValue[],
    site: CallSite,
    body: () => T,
  ): T {
    if (fn.active) throw this.recursionError(fn, site);
    if (this.depth >= MAX_CALL_DEPTH) throw this.depthError(site);
    const top = this.stackTop;
    this.stackFns[top] = fn;
    this.stackArgs[top] = args;
    this.stackSites[top] = site;
    this.stackTop = top + 1;
    this.depth++;
    fn.active = true;
    const purity = this.purity;
    // Pact's CEK evaluator checks re-entry for defcaps without `@managed` or `@event` only.
    if (this.reentrant.length !== 0 && (fn.tag !== FnTag.DefCap || fn.meta === null)) {
      this.guardReentry(fn);
    }
    // A defcap's body is profiled in the frame of its acquisition (capabilities.ts).
    const profiler = fn.tag === FnTag.DefCap ? null : this.profiler;
    if (profiler !== null) profiler.enter(frameKind(fn), fn.qualifiedName);
    try {
      return body();
    } finally {
      fn.active = false;
      this.depth--;
      this.stackTop = top;
      this.purity = purity;
      if (profiler !== null) profiler.exit();
    }
  }

  /**
   * Entering a function of a module that a module-reference call is protecting: its body runs
   * read-only (unless Pact's flag `DisableReentrancyCheck` is set). The caller restores purity.
   */
  private guardReentry(fn: DefunDef | DefCapDef | DefPactDef): void {
    if (this.purity >= Purity.ReadOnly || !this.reentrant.includes(fn.module.rendered)) return;
    if (this.env.flags.has("DisableReentrancyCheck")) return;
    this.purity = Purity.ReadOnly;
  }

  /** Runs `body` with `modules` as the protected modules, restoring the previous ones. */
  private withReentrant<T>(modules: readonly string[], body: () => T): T {
    const previous = this.reentrant;
    this.reentrant = modules;
    try {
      return body();
    } finally {
      this.reentrant = previous;
    }
  }

  callLambda(lam: LambdaClosure, args: readonly RuntimeValue[], site: CallSite): RuntimeValue {
    const gas = this.env.gas;
    if (gas.charging === true && args.length !== 0) {
      chargeApplication(gas as PactGasMeter, args.length);
    }
    return this.enterLambda(lam, args, site);
  }

  /** Runs a lambda's body on its arguments (already charged). */
  private enterLambda(
    lam: LambdaClosure,
    args: readonly RuntimeValue[],
    site: CallSite,
  ): RuntimeValue {
    if (this.depth >= MAX_CALL_DEPTH) throw this.depthError(site);
    const info = lam.lambda;
    const frame: Frame = new Array(info.frameSize);
    frame[0] = lam.parent;
    for (let i = 0; i < args.length; i++) frame[i + 1] = args[i];
    const code = codeOf(info.code) ?? codegenLambda(info, site.file);
    this.depth++;
    let result: RuntimeValue;
    try {
      result = code(this, frame);
    } finally {
      this.depth--;
    }
    if (info.params.length === 0 && isCallable(result)) {
      throw this.locate(expectedPactValueError(), site);
    }
    return result;
  }

  private recursionError(fn: DefunDef | DefCapDef | DefPactDef, site: CallSite): PactError {
    return this.error(
      "execution",
      `Recursion detected by the runtime. Recursing in function: ${fn.qualifiedName}`,
      site,
    );
  }

  private depthError(site: CallSite): PactError {
    return this.error("execution", `Maximum call depth (${MAX_CALL_DEPTH}) exceeded`, site);
  }

  /** `(M.CAP args)`: a capability token. */
  capToken(cap: DefCapDef, args: readonly RuntimeValue[], site: CallSite): CapToken {
    const gas = this.env.gas;
    if (gas.charging === true) chargeCall(gas as PactGasMeter, cap.params, args);
    const values = this.checkArgs(cap.params, args, site);
    return {
      kind: "cap-token",
      name: cap.qualifiedName,
      moduleHash: cap.module.hash,
      args: values,
    };
  }

  /** Requires the keyset `name` to be satisfied by the transaction's signatures. */
  enforceKeysetName(name: string, site: CallSite): void {
    if (this.keysets === null) {
      throw this.error("execution", `Cannot find keyset in database: '${name}`, site);
    }
    this.keysets.enforceKeysetName(this, name, site);
  }

  /** Requires the guard to pass. */
  enforceGuard(guard: Guard, site: CallSite): void {
    this.authority(site).enforceGuard(this, guard, site);
  }

  /** Requires the governance keyset of `module` (when installing or upgrading it). */
  enforceModuleKeyset(module: string, keyset: string, site: CallSite): void {
    if (this.keysets === null) {
      throw this.error("execution", `Cannot find keyset in database: '${keyset}`, site);
    }
    this.keysets.enforceModuleKeyset(this, module, keyset, site);
  }

  /** Requires that new code may be installed in the current namespace (root: always, alone). */
  enforceNamespaceInstall(site: CallSite): void {
    if (this.keysets === null && this.loaded.namespace === null) return;
    this.authority(site).enforceNamespaceInstall(this, site);
  }

  private authority(site: CallSite): KeysetAuthority {
    if (this.keysets === null) {
      throw this.error("execution", "Guards are not available in this environment", site);
    }
    return this.keysets;
  }

  // -------------------------------------------------------------------------------------------
  // Names at run time

  /** A module by name (from this transaction's cache or storage); an error when unknown. */
  getModule(module: import("../values/types.ts").ModuleName, site: CallSite): LoadedModule {
    const found = this.loaded.module(module);
    if (found === undefined) {
      throw this.error("execution", `Cannot find module: ${renderModuleName(module)}`, site);
    }
    return found;
  }

  /** `ref::member`: the member of the module a module reference points to. */
  dynamicMember(ref: RuntimeValue, refName: string, member: string, site: CallSite): RuntimeValue {
    if (typeof ref !== "object" || ref === null || (ref as { kind?: unknown }).kind !== "modref") {
      throw this.error(
        "execution",
        `Attempted to use ${refName} as dynamic name, but it is not a modref`,
        site,
      );
    }
    const module = this.getModule((ref as ModRef).module, site);
    const def = module.defs.get(member);
    if (def === undefined || module.kind !== "module" || def.defKind === "defschema") {
      throw this.error(
        "execution",
        `Module member does not exist ${renderModuleName(module.info.name)}.${member}.{${module.info.hash}}`,
        site,
      );
    }
    if (def instanceof DefConstDef) return def.value!;
    if (def.defKind === "deftable") return def.table;
    if (def.defKind === "defcap") return def as DefCapDef;
    // Named inside a function: the calling module may not be re-entered with write access
    // (Pact adds it to `ceReentrant` of the closure it makes here).
    const caller = this.callingModule();
    if (caller === null || this.reentrant.includes(caller)) return def as DefunDef | DefPactDef;
    return new ModRefFunction(def as DefunDef | DefPactDef, [...this.reentrant, caller]);
  }
}

/** The kind of a function's frame in a gas profile. */
function frameKind(fn: DefunDef | DefCapDef | DefPactDef): "function" | "defpact" {
  return fn.tag === FnTag.DefPact ? "defpact" : "function";
}

/** Compiles a function's parameter and return checks once. */
function prepareChecks(def: DefunDef): readonly (TypeCheck | null)[] {
  const checks = def.params.map((p) => (p.type === null ? null : typeCheck(p.type)));
  def.argChecks = checks;
  def.returnCheck = def.returnType === null ? null : typeCheck(def.returnType);
  return checks;
}

export { CallSite };
