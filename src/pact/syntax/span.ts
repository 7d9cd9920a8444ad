/**
 * Source positions. Every token and every parse-tree node carries a `Span`.
 *
 * Lines and columns follow Pact 5 (`SpanInfo`): both 0-based, columns count Unicode code points,
 * and the end is exclusive (the position just after the last character). `start`/`end` are the
 * matching UTF-16 offsets into the source string, so `source.slice(span.start, span.end)` is the
 * exact text of the node (the text Pact's `sliceFromSource` cuts out, e.g. a module's code).
 */
export interface Span {
  /** 0-based line of the first character. */
  readonly line: number;
  /** 0-based column (code points) of the first character. */
  readonly col: number;
  /** 0-based line of the end position. */
  readonly endLine: number;
  /** 0-based column (code points) just past the last character. */
  readonly endCol: number;
  /** UTF-16 offset of the first character. */
  readonly start: number;
  /** UTF-16 offset just past the last character. */
  readonly end: number;
}

/** The span from the start of `first` to the end of `last` (Pact's `combineSpan`). */
export function joinSpans(first: Span, last: Span): Span {
  return {
    line: first.line,
    col: first.col,
    endLine: last.endLine,
    endCol: last.endCol,
    start: first.start,
    end: last.end,
  };
}
