/**
 * Line and function coverage of the files a REPL session runs (`braid -c`), written as an lcov
 * tracefile. The compiler declares every line and function it compiles (so lines never run show
 * 0 hits); compiled code counts hits as it runs. Lines in the report are 1-based, as lcov
 * consumers (genhtml) expect.
 */
import { resolve } from "node:path";
import type { CoverageRecorder } from "../compile/context.ts";
import type { CoverageSink } from "../eval/types.ts";

interface FileCoverage {
  /** 0-based line → hits. */
  readonly lines: Map<number, number>;
  /** Function name → its 0-based first line and hits. */
  readonly functions: Map<string, { line: number; hits: number }>;
}

export class Coverage implements CoverageRecorder, CoverageSink {
  private readonly files = new Map<string, FileCoverage>();

  /** Starts a report for `file` (every file the session runs gets one). */
  addFile(file: string): void {
    if (!this.files.has(file)) this.files.set(file, { lines: new Map(), functions: new Map() });
  }

  declareLine(file: string, line: number): void {
    const f = this.files.get(file);
    if (f !== undefined && !f.lines.has(line)) f.lines.set(line, 0);
  }

  declareFunction(file: string, name: string, line: number): void {
    const f = this.files.get(file);
    if (f !== undefined && !f.functions.has(name)) f.functions.set(name, { line, hits: 0 });
  }

  hit(file: string, line: number): void {
    const f = this.files.get(file);
    if (f !== undefined) f.lines.set(line, (f.lines.get(line) ?? 0) + 1);
  }

  enter(file: string, name: string): void {
    const fn = this.files.get(file)?.functions.get(name);
    if (fn !== undefined) fn.hits++;
  }

  /** The lcov tracefile: one record per file (`TN`, `SF`, `FN*`, `DA`, `LF`, `LH`, …). */
  toLcov(): string {
    const out: string[] = [];
    for (const [file, f] of this.files) {
      out.push("TN:", `SF:${resolve(file)}`);
      const functions = [...f.functions].sort(
        (a, b) => a[1].line - b[1].line || (a[0] < b[0] ? -1 : 1),
      );
      for (const [name, fn] of functions) out.push(`FN:${fn.line + 1},${name}`);
      for (const [name, fn] of functions) out.push(`FNDA:${fn.hits},${name}`);
      out.push(`FNF:${functions.length}`);
      out.push(`FNH:${functions.filter(([, fn]) => fn.hits > 0).length}`);
      const lines = [...f.lines].sort((a, b) => a[0] - b[0]);
      for (const [line, hits] of lines) out.push(`DA:${line + 1},${hits}`);
      out.push(`LF:${lines.length}`);
      out.push(`LH:${lines.filter(([, hits]) => hits > 0).length}`);
      out.push("end_of_record");
    }
    return out.length === 0 ? "" : `${out.join("\n")}\n`;
  }
}
