/**
 * Running Pact: the few operations every caller of the interpreter needs, so that none of them
 * wires the compiler and the evaluator by hand. Make a runtime for a command or a REPL session,
 * run source (or parsed forms) in it, continue a defpact, or compile modules without running
 * anything. Other layers reach these through src/pact/index.ts; inside the interpreter, the REPL
 * and test support import this file directly.
 */
import type { CompileUnit, CoverageRecorder } from "./compile/context.ts";
import type { LoadedModule } from "./compile/ir.ts";
import { compileInterface, compileModule } from "./compile/module.ts";
import type { PactDb } from "./db/index.ts";
import { CallSite } from "./eval/callables.ts";
import { acquire } from "./eval/capabilities.ts";
import { defaultEnv, type ExecutionEnv } from "./eval/env.ts";
import { Runtime } from "./eval/runtime.ts";
import { runTopLevel, type TopLevelResult } from "./eval/toplevel.ts";
import type { CoverageSink } from "./eval/types.ts";
import { type GasProfiler, PactGasMeter } from "./gas/index.ts";
import { ON_CHAIN_NATIVES } from "./natives/on-chain.ts";
import { STATE_AUTHORITY } from "./natives/state.ts";
import type { NativeDef, RuntimeValue } from "./runtime/types.ts";
import type { ReplTopLevel, TopLevel } from "./syntax/ast.ts";
import { parseProgram, parseReplProgram } from "./syntax/parser.ts";
import type { CapToken } from "./values/types.ts";

/** Natives by name: what code is compiled against. */
export type Natives = ReadonlyMap<string, NativeDef>;

export interface RuntimeOptions {
  /** Receives line and function hits of code compiled with coverage on (the REPL's `-c`). */
  readonly coverage?: CoverageSink | null;
  /**
   * Attributes every charge of the environment's meter (a `PactGasMeter`) to the frame it is
   * made in (src/pact/gas/profile.ts): a gas profile of what the runtime runs.
   */
  readonly profiler?: GasProfiler | null;
}

/**
 * A runtime for one command or one REPL session: `env` is its environment (data, signers, chain
 * data, gas, database); keysets, guards, module governance and namespaces are enforced as on
 * chain.
 */
export function createRuntime(env: ExecutionEnv, options: RuntimeOptions = {}): Runtime {
  const rt = new Runtime(env);
  rt.keysets = STATE_AUTHORITY;
  rt.coverage = options.coverage ?? null;
  const profiler = options.profiler ?? null;
  if (profiler !== null) {
    if (!(env.gas instanceof PactGasMeter)) throw new Error("only a PactGasMeter can be profiled");
    rt.profiler = profiler;
    env.gas.recorder = profiler;
  }
  return rt;
}

/**
 * A runtime over `db` (a fresh in-memory database by default) with the REPL's starting
 * environment: no data, no signers, free gas. Stored modules reload against `natives`.
 */
export function createDefaultRuntime(
  natives: Natives = ON_CHAIN_NATIVES,
  db?: PactDb,
  options: RuntimeOptions = {},
): Runtime {
  return createRuntime(defaultEnv(natives, db), options);
}

/** Where source comes from and what it is compiled against. */
export interface SourceOptions {
  /** The file name spans refer to. */
  readonly file: string;
  /** The natives code resolves against (the on-chain set by default). */
  readonly natives?: Natives;
  /** Records coverable lines when set (the REPL's `-c`). */
  readonly coverage?: CoverageRecorder | null;
}

function compileUnit(rt: Runtime, source: string, options: SourceOptions): CompileUnit {
  return {
    file: options.file,
    source,
    natives: options.natives ?? ON_CHAIN_NATIVES,
    names: rt.loaded,
    coverage: options.coverage ?? null,
  };
}

/** Compiles and runs one top-level form of `source` (already parsed) in `rt`. */
export function runForm(
  rt: Runtime,
  form: ReplTopLevel,
  source: string,
  options: SourceOptions,
): TopLevelResult {
  return runTopLevel(rt, form, compileUnit(rt, source, options));
}

/**
 * Parses `source` and runs its top-level forms in order, each compiled against what the ones
 * before it defined; returns each form's result. With `repl`, the source is read as a `.repl`
 * file (top-level `defun` and `defconst` allowed); otherwise as a transaction's code.
 */
export function runSource(
  rt: Runtime,
  source: string,
  options: SourceOptions & { readonly repl?: boolean },
): TopLevelResult[] {
  const program: readonly ReplTopLevel[] =
    options.repl === true
      ? parseReplProgram(source, options.file)
      : parsedTransactionCode(source, options.file);
  const unit = compileUnit(rt, source, options);
  const results: TopLevelResult[] = [];
  for (const form of program) results.push(runTopLevel(rt, form, unit));
  return results;
}

/** Transaction code up to this many characters is kept parsed (a node's calls repeat). */
export const PARSE_CACHE_MAX_SOURCE_CHARS = 2_048;
/** How many parsed transaction codes are kept; beyond that the oldest goes. */
export const PARSE_CACHE_ENTRIES = 256;
const parsed = new Map<string, readonly ReplTopLevel[]>();

/**
 * A transaction's code, parsed. Short code is parsed once and kept: parse trees are never
 * changed after parsing, and the same code runs again and again (the node's coinbase and gas
 * calls in every block, a wallet's transfer with other data).
 */
function parsedTransactionCode(source: string, file: string): readonly ReplTopLevel[] {
  if (source.length > PARSE_CACHE_MAX_SOURCE_CHARS) return parseProgram(source, file);
  const key = `${file}\u0000${source}`;
  let program = parsed.get(key);
  if (program === undefined) {
    program = parseProgram(source, file);
    if (parsed.size >= PARSE_CACHE_ENTRIES) parsed.delete(parsed.keys().next().value as string);
    parsed.set(key, program);
  }
  return program;
}

/**
 * Compiles every module and interface of `program`, in order, against the state of `rt`'s
 * database (with the namespace set by a preceding `(namespace "…")` and imports from `use`),
 * running nothing and writing nothing: it all happens in a transaction that is rolled back.
 * Returns the compiled modules and interfaces; throws the first error.
 */
export function compileOnly(
  rt: Runtime,
  program: readonly TopLevel[],
  source: string,
  options: SourceOptions,
): LoadedModule[] {
  const unit = compileUnit(rt, source, options);
  const db = rt.env.db;
  const compiled: LoadedModule[] = [];
  db.beginTx("local");
  try {
    for (const form of program) {
      if (form.kind === "module" || form.kind === "interface") {
        const module =
          form.kind === "module" ? compileModule(form, unit) : compileInterface(form, unit);
        rt.loaded.install(module);
        compiled.push(module);
      } else if (form.kind === "use") {
        runTopLevel(rt, form, unit);
      } else {
        const ns = namespaceSet(form);
        if (ns !== null) rt.loaded.namespace = ns;
      }
    }
  } finally {
    db.rollbackTx();
  }
  return compiled;
}

/** The namespace named by a top-level `(namespace "ns")`, if `form` is one. */
function namespaceSet(form: TopLevel): string | null {
  if (form.kind !== "app" || form.fn.kind !== "var" || form.args.length !== 1) return null;
  const fn = form.fn.name;
  const arg = form.args[0];
  if (fn.kind !== "bare" || fn.name !== "namespace" || arg?.kind !== "constant") return null;
  return typeof arg.value === "string" ? arg.value : null;
}

/**
 * The exact source text of each top-level form of transaction code, in order (what Chainweb
 * shows a gas payer as `exec-code`). Throws a `PactSyntaxError` for code that does not parse.
 */
export function topLevelSources(source: string, file: string): string[] {
  return parsedTransactionCode(source, file).map((form) =>
    source.slice(form.span.start, form.span.end),
  );
}

/** Where errors of a capability acquired by the caller of the interpreter point. */
const CALLER_SITE = new CallSite({ line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 }, "");

/**
 * Runs `body` with `token` acquired as `with-capability` acquires it — its defcap's body run,
 * what it composes granted, a managed one taken from the signers, its event emitted — but without
 * being inside the capability's module (Chainweb's `evalGasPayerCap`, which acquires a signer's
 * `GAS_PAYER` around the gas purchase).
 */
export function withCapabilityAcquired<T extends RuntimeValue>(
  rt: Runtime,
  token: CapToken,
  body: () => T,
): T | RuntimeValue {
  CALLER_SITE.rt = rt;
  return acquire(rt, token, CALLER_SITE, body, "normal");
}
