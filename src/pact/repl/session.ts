/**
 * A REPL session (Pact's `ReplState`): one runtime, the test results recorded by `expect*`, the
 * open transaction, the source of every file run (for error excerpts), and where output goes.
 * `.repl` files run with the REPL natives; `.pact` files with the core natives only.
 */
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { PactDb } from "../db/index.ts";
import { CapState } from "../eval/caps.ts";
import type { Runtime } from "../eval/runtime.ts";
import type { TopLevelResult } from "../eval/toplevel.ts";
import { createDefaultRuntime, runForm } from "../evaluate.ts";
import { REPL_MODULE_REPRESENTATION } from "../gas/index.ts";
import { ON_CHAIN_NATIVE_LIST, ON_CHAIN_NATIVES } from "../natives/on-chain.ts";
import type { NativeDef } from "../runtime/types.ts";
import type { ReplTopLevel } from "../syntax/ast.ts";
import { DEFAULT_FILE_NAME } from "../syntax/index.ts";
import { parseProgram, parseReplProgram } from "../syntax/parser.ts";
import type { Span } from "../syntax/span.ts";
import { checkReplNativesInModule, checkShadowing } from "./checks.ts";
import { Coverage } from "./coverage.ts";
import { type ReplHost, replNatives } from "./natives.ts";

/** The file name the interactive REPL reports. */
export const INTERACTIVE_FILE = DEFAULT_FILE_NAME;

export interface ReplIO {
  /** Writes one line of output (without its newline). */
  line(text: string): void;
  /** Reads a source file (a path as given, relative to the working directory). */
  readFile(path: string): string;
}

export interface ReplOptions {
  /** `-t`: show every top-level result and `print` output with its location. */
  readonly trace?: boolean;
  /** `-c`: count line hits for an lcov report. */
  readonly coverage?: boolean;
  /** The interactive REPL shows every result, without locations. */
  readonly interactive?: boolean;
  /** Opens the database of a fresh session state (default: a new in-memory database). */
  readonly openDb?: () => PactDb;
}

/** One `expect*` outcome; `failure` is null when it passed. */
export interface TestResult {
  readonly name: string;
  readonly file: string;
  readonly span: Span;
  readonly failure: string | null;
}

/** `sl:sc-el:ec`, Pact's rendering of a span. */
export function spanText(span: Span): string {
  return `${span.line}:${span.col}-${span.endLine}:${span.endCol}`;
}

export class ReplSession implements ReplHost {
  rt: Runtime;
  readonly results: TestResult[] = [];
  tx: { readonly id: number; readonly name: string | null } | null = null;
  /** Every file run so far and its source, for error excerpts. */
  readonly sources = new Map<string, string>();
  currentFile: string = INTERACTIVE_FILE;
  /** Whether modules may use REPL natives (`env-enable-repl-natives`). */
  replNativesEnabled = false;
  readonly coverage: Coverage | null;
  private readonly fullNatives: ReadonlyMap<string, NativeDef>;
  private readonly coreNatives: ReadonlyMap<string, NativeDef>;
  private currentNatives: ReadonlyMap<string, NativeDef>;

  constructor(
    readonly io: ReplIO,
    readonly options: ReplOptions = {},
  ) {
    this.coverage = options.coverage === true ? new Coverage() : null;
    this.coreNatives = ON_CHAIN_NATIVES;
    this.fullNatives = new Map(
      [...ON_CHAIN_NATIVE_LIST, ...replNatives(this)].map((n) => [n.name, n]),
    );
    this.currentNatives = this.fullNatives;
    this.rt = this.freshRuntime();
  }

  private freshRuntime(): Runtime {
    const rt = createDefaultRuntime(this.fullNatives, this.options.openDb?.(), {
      coverage: this.coverage,
    });
    // Modules are stored as Pact's REPL stores them, which deployment gas depends on.
    rt.env.moduleRepresentation = REPL_MODULE_REPRESENTATION;
    return rt;
  }

  /** The natives code compiled now resolves against. */
  get natives(): ReadonlyMap<string, NativeDef> {
    return this.currentNatives;
  }

  /** Every native a `.repl` file can use. */
  nativeNames(): string[] {
    return [...this.fullNatives.keys()];
  }

  /** The REPL natives' names (for `-b` and module checks). */
  isReplNative(name: string): boolean {
    return this.fullNatives.has(name) && !this.coreNatives.has(name);
  }

  // -------------------------------------------------------------------------------------------
  // Output

  /** Shows a top-level result or a REPL message (only with `-t`, or interactively). */
  trace(file: string, span: Span, text: string): void {
    if (this.options.interactive === true) this.io.line(text);
    else if (this.options.trace === true) this.io.line(`${file}:${spanText(span)}:Trace: ${text}`);
  }

  /** `print` output: always shown. */
  print(file: string, span: Span, text: string): void {
    if (this.options.trace === true) this.io.line(`${file}:${spanText(span)}:Print: ${text}`);
    else this.io.line(text);
  }

  record(name: string, file: string, span: Span, failure: string | null): void {
    this.results.push({ name, file, span, failure });
  }

  // -------------------------------------------------------------------------------------------
  // Transactions

  /** Ends the REPL transaction's evaluation state (Pact's `emptyTxState`). */
  resetTxState(): void {
    this.rt.caps = new CapState();
    this.rt.events = [];
    this.rt.pactExec = null;
    this.rt.loaded.reset();
  }

  // -------------------------------------------------------------------------------------------
  // Running code

  /**
   * Loads a file (Pact's `loadFile`): relative paths are relative to the file being run. With
   * `reset`, starts from a fresh runtime and database.
   */
  loadFile(path: string, reset: boolean): TopLevelResult[] {
    const file = this.resolvePath(path);
    if (reset) this.rt = this.freshRuntime();
    const source = this.io.readFile(file);
    const previousFile = this.currentFile;
    const previousNatives = this.currentNatives;
    // A `.pact` file starts without the top-level names of the file that loads it.
    if (file.endsWith(".pact")) this.rt.loaded.toplevel.clear();
    try {
      return this.runSource(file, source);
    } finally {
      this.currentFile = previousFile;
      this.currentNatives = previousNatives;
    }
  }

  private resolvePath(path: string): string {
    const current = this.currentFile;
    if (current === INTERACTIVE_FILE || isAbsolute(path) || dirname(current) === ".") return path;
    return join(dirname(current), path);
  }

  /** Runs every top-level form of `source`; throws the first uncaught error. */
  runSource(file: string, source: string): TopLevelResult[] {
    this.sources.set(file, source);
    this.currentFile = file;
    const pactFile = file.endsWith(".pact");
    this.currentNatives = pactFile ? this.coreNatives : this.fullNatives;
    this.coverage?.addFile(file);
    const program: readonly ReplTopLevel[] = pactFile
      ? parseProgram(source, file)
      : parseReplProgram(source, file);
    checkShadowing(program, this.currentNatives, file, (span, text) =>
      this.print(file, span, text),
    );
    const results: TopLevelResult[] = [];
    for (const form of program) results.push(this.runForm(form, file, source));
    return results;
  }

  runForm(form: ReplTopLevel, file: string, source: string): TopLevelResult {
    if (form.kind === "module" && !this.replNativesEnabled) {
      checkReplNativesInModule(form, (n) => this.isReplNative(n), file);
    }
    const result = runForm(this.rt, form, source, {
      file,
      natives: this.currentNatives,
      coverage: this.coverage,
    });
    const unitValue =
      result.kind === "value" &&
      typeof result.value === "object" &&
      (result.value as { kind?: unknown }).kind === "unit";
    if (!unitValue) this.trace(file, form.span, result.text);
    return result;
  }

  /** The failed expectations, in the order they ran. */
  failures(): readonly TestResult[] {
    return this.results.filter((r) => r.failure !== null);
  }

  /** Where `-c` writes its report: `coverage/lcov.info` next to `file`. */
  static coveragePath(file: string): string {
    return join(dirname(resolve(file)), "coverage", "lcov.info");
  }
}
