/** Syntax errors and the source-excerpt renderer used to show them (and any other located error). */
import type { Span } from "./span.ts";

/** Which stage rejected the input: the lexer (characters) or the parser (tokens). */
export type SyntaxErrorPhase = "lex" | "parse";

/**
 * A lexer or parser error. `message` is `file:LINE:COL: reason` with a 1-based line and column;
 * `span` keeps Pact's 0-based positions. Pact reports both phases with the error type
 * `SyntaxError` (`PELexerError` / `PEParseError`).
 */
export class PactSyntaxError extends Error {
  override readonly name = "PactSyntaxError";
  readonly phase: SyntaxErrorPhase;
  readonly file: string;
  readonly span: Span;
  /** The message without the location prefix. */
  readonly reason: string;
  /**
   * True when the input ended inside an open bracket or string: more input could complete it
   * (an interactive REPL then reads another line instead of reporting the error).
   */
  readonly incomplete: boolean;

  constructor(
    phase: SyntaxErrorPhase,
    file: string,
    span: Span,
    reason: string,
    incomplete = false,
  ) {
    super(`${file}:${span.line + 1}:${span.col + 1}: ${reason}`);
    this.phase = phase;
    this.file = file;
    this.span = span;
    this.reason = reason;
    this.incomplete = incomplete;
  }
}

export interface SourceErrorReport {
  readonly file: string;
  /** The whole text of `file`. */
  readonly source: string;
  readonly span: Span;
  readonly message: string;
  /** Stack-frame lines printed after the marker, e.g. `  at m.f:3:4` (none for syntax errors). */
  readonly frames?: readonly string[];
}

/**
 * Renders a located error the way the Pact 5 command line does (`replError`):
 *
 * ```
 * file:LINE:COL: message
 *  LINE | source line
 *       |     ^^^
 * ```
 *
 * followed by the frame lines (or one empty line when there are none); every line ends in "\n".
 * As in Pact, LINE is 1-based but COL in the header is the 0-based column. The excerpt shows
 * `max(1, endLine - line)` lines from the start line, the marker starts at the start column and
 * is `max(1, endCol - col)` carets wide.
 */
export function renderSourceError(report: SourceErrorReport): string {
  const { span } = report;
  const pad = String(span.endLine + 1).length + 1;
  const excerpt = sourceLines(report.source, span.line, Math.max(1, span.endLine - span.line));
  const out = [`${report.file}:${span.line + 1}:${span.col}: ${report.message}`];
  excerpt.forEach((text, i) => {
    const number = String(span.line + 1 + i);
    out.push(`${" ".repeat(Math.max(0, pad - number.length))}${number} | ${text}`);
  });
  const carets = "^".repeat(Math.max(1, span.endCol - span.col));
  out.push(`${" ".repeat(pad + 1)}| ${" ".repeat(span.col)}${carets}`);
  out.push(report.frames && report.frames.length > 0 ? report.frames.join("\n") : "");
  return `${out.join("\n")}\n`;
}

/** `renderSourceError` for a syntax error raised while reading `source`. */
export function renderSyntaxError(error: PactSyntaxError, source: string): string {
  return renderSourceError({ file: error.file, source, span: error.span, message: error.reason });
}

/** Up to `count` lines of `source` starting at 0-based line `first` (split on "\n" only). */
function sourceLines(source: string, first: number, count: number): string[] {
  let at = 0;
  for (let line = 0; line < first; line++) {
    const nl = source.indexOf("\n", at);
    if (nl < 0) return [];
    at = nl + 1;
  }
  const lines: string[] = [];
  while (lines.length < count && at < source.length) {
    const nl = source.indexOf("\n", at);
    const stop = nl < 0 ? source.length : nl;
    lines.push(source.slice(at, stop));
    at = stop + 1;
  }
  return lines;
}
