/**
 * Tokens stored column-wise in typed arrays. The lexer appends here and the parser reads here,
 * so no object is allocated per token; only the parse tree's nodes and spans are allocated.
 * (A megabyte of source is ~200,000 tokens; keeping each as an object made V8's garbage
 * collector, not the scanning, the dominant cost.)
 */
import type { Span } from "./span.ts";
import { TOKEN_KINDS, type Token } from "./tokens.ts";

/** Numeric token kinds: each is the kind's index in `TOKEN_KINDS`. */
export const Tk = {
  LParen: 0,
  RParen: 1,
  LBracket: 2,
  RBracket: 3,
  LBrace: 4,
  RBrace: 5,
  Comma: 6,
  Colon: 7,
  DynAcc: 8,
  BindAssign: 9,
  Dot: 10,
  Ident: 11,
  Number: 12,
  String: 13,
  Symbol: 14,
  Let: 15,
  LetStar: 16,
  Lambda: 17,
  Module: 18,
  Interface: 19,
  Use: 20,
  Defun: 21,
  DefCap: 22,
  DefConst: 23,
  DefSchema: 24,
  DefTable: 25,
  DefPact: 26,
  Bless: 27,
  Implements: 28,
  Step: 29,
  StepWithRollback: 30,
  True: 31,
  False: 32,
  DocAnn: 33,
  ModelAnn: 34,
  EventAnn: 35,
  ManagedAnn: 36,
  /** Past the last token; never stored. */
  Eof: 255,
} as const;

export class TokenBuffer {
  count = 0;
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  lines: Int32Array;
  cols: Int32Array;
  endLines: Int32Array;
  endCols: Int32Array;
  /** Identifier/number text, decoded string, symbol name; the source text for the rest. */
  readonly values: string[] = [];
  /** The end of the input: where a parser that runs out of tokens reports. */
  endSpan: Span = { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 };

  /** `capacity`: how many tokens to make room for before growing. */
  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.lines = new Int32Array(capacity);
    this.cols = new Int32Array(capacity);
    this.endLines = new Int32Array(capacity);
    this.endCols = new Int32Array(capacity);
  }

  push(
    kind: number,
    value: string,
    start: number,
    end: number,
    line: number,
    col: number,
    endLine: number,
    endCol: number,
  ): void {
    const n = this.count;
    if (n === this.kinds.length) this.grow();
    this.kinds[n] = kind;
    this.starts[n] = start;
    this.ends[n] = end;
    this.lines[n] = line;
    this.cols[n] = col;
    this.endLines[n] = endLine;
    this.endCols[n] = endCol;
    this.values.push(value);
    this.count = n + 1;
  }

  /** The kind of token `i`, or `Tk.Eof` past the end. */
  kind(i: number): number {
    return i < this.count ? this.kinds[i]! : Tk.Eof;
  }

  /** The span of token `i` (the end of input past the last token). */
  span(i: number): Span {
    return i < this.count ? this.spanFrom(i, i) : this.endSpan;
  }

  /** From the start of token `first` to the end of token `last`. */
  spanFrom(first: number, last: number): Span {
    return {
      line: this.lines[first]!,
      col: this.cols[first]!,
      endLine: this.endLines[last]!,
      endCol: this.endCols[last]!,
      start: this.starts[first]!,
      end: this.ends[last]!,
    };
  }

  token(i: number): Token {
    return { kind: TOKEN_KINDS[this.kinds[i]!]!, value: this.values[i]!, span: this.span(i) };
  }

  toTokens(): Token[] {
    const out: Token[] = new Array(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.token(i);
    return out;
  }

  private grow(): void {
    const size = this.kinds.length * 2;
    this.kinds = copyInto(new Uint8Array(size), this.kinds);
    this.starts = copyInto(new Int32Array(size), this.starts);
    this.ends = copyInto(new Int32Array(size), this.ends);
    this.lines = copyInto(new Int32Array(size), this.lines);
    this.cols = copyInto(new Int32Array(size), this.cols);
    this.endLines = copyInto(new Int32Array(size), this.endLines);
    this.endCols = copyInto(new Int32Array(size), this.endCols);
  }
}

function copyInto<T extends Uint8Array | Int32Array>(target: T, source: T): T {
  target.set(source);
  return target;
}
