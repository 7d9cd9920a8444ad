/**
 * What the compiler needs from its surroundings: the natives, the names in scope, the modules it
 * may refer to, and where the source comes from.
 */
import { PactError } from "../runtime/errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import type { ModuleName } from "../values/types.ts";
import type { Definition, LoadedModule } from "./ir.ts";

/** Names visible without qualification, and the modules that qualified names refer to. */
export interface NameResolver {
  /** A bare name in scope: a member of the module being compiled, an import, a top-level name. */
  bare(name: string): Definition | undefined;
  /** A module or interface by name (loaded from storage when needed); undefined when unknown. */
  module(name: ModuleName): LoadedModule | undefined;
  /** The namespace set by `(namespace …)`, used to resolve unqualified module names. */
  readonly namespace: string | null;
  /** The module or interface being compiled, if any. */
  readonly current: CurrentModule | null;
}

/** The module or interface being compiled, visible to its own members before it is stored. */
export interface CurrentModule {
  readonly name: ModuleName;
  readonly kind: "module" | "interface";
  readonly implements: readonly ModuleName[];
  /** Members compiled so far. */
  member(name: string): Definition | undefined;
}

/** Records which source lines can be covered (see src/pact/repl/coverage.ts). */
export interface CoverageRecorder {
  declareLine(file: string, line: number): void;
  declareFunction(file: string, name: string, line: number): void;
}

/** One compilation: a top-level form of a file or transaction. */
export interface CompileUnit {
  readonly file: string;
  readonly source: string;
  readonly natives: ReadonlyMap<string, NativeDef>;
  readonly names: NameResolver;
  /** When set, the compiler emits coverage counters for every line it compiles. */
  readonly coverage: CoverageRecorder | null;
}

/**
 * A native whose listed arguments the compiler passes unevaluated, as nullary functions (the REPL's
 * `expect` and `expect-failure` evaluate their expressions themselves to catch failures).
 */
export interface SuspendingNativeDef extends NativeDef {
  /** For a call with `argCount` arguments, which ones to pass unevaluated. */
  suspends(argCount: number): readonly boolean[] | null;
}

export function isSuspending(def: NativeDef): def is SuspendingNativeDef {
  return typeof (def as Partial<SuspendingNativeDef>).suspends === "function";
}

/** A name-resolution or desugaring error (Pact's `PEDesugarError`). */
export function desugarError(message: string, span: Span, file: string): PactError {
  return new PactError("desugar", message, span, [], file);
}
