/**
 * The Pact 5 lexer (`Pact.Core.Syntax.Lexer`), hand-written over char codes.
 *
 * Pact's lexer is an `alex` automaton over Latin-1 bytes, fed one byte per character: the low
 * byte of the code point. We classify characters the same way, so a non-Latin-1 character
 * outside a string behaves like the ASCII character sharing its low byte (U+0161 'š' counts as a
 * letter, U+0120 'Ġ' as a space). Real Pact source is ASCII outside strings, but matching this
 * keeps every input accepted or rejected exactly as Pact does. String bodies are read as real
 * characters and may hold any Unicode.
 */
import { PactSyntaxError } from "./errors.ts";
import { HASH_SEED, hashStep, Interner } from "./interner.ts";
import { MAX_SOURCE_LENGTH } from "./limits.ts";
import type { Span } from "./span.ts";
import { Tk, TokenBuffer } from "./token-buffer.ts";
import { TOKEN_KINDS, type Token } from "./tokens.ts";

/** The file name used in error messages when the caller gives none (as the Pact REPL does). */
export const DEFAULT_FILE_NAME = "(interactive)";

const OTHER = 0;
const SPACE = 1;
const LETTER = 2;
const DIGIT = 3;
const SYMBOL = 4;

/** Character class of each Latin-1 byte. */
const CLASS = new Uint8Array(256);
for (const b of [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]) CLASS[b] = SPACE;
for (let b = 0x61; b <= 0x7a; b++) CLASS[b] = LETTER;
for (let b = 0x41; b <= 0x5a; b++) CLASS[b] = LETTER;
for (let b = 0x30; b <= 0x39; b++) CLASS[b] = DIGIT;
for (const ch of "%#+-_&$@<>=^?*!|/~") CLASS[ch.charCodeAt(0)] = SYMBOL;

/** Keyword text → token kind code (for words with non-ASCII characters; see `Interner`). */
const KEYWORD_KINDS: ReadonlyMap<string, number> = new Map(
  TOKEN_KINDS.map((kind, code): [string, number] => [kind, code]).filter(
    ([, code]) => code >= Tk.Let,
  ),
);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Turns `source` into tokens; throws `PactSyntaxError` (phase "lex") on bad input. */
export function lex(source: string, file: string = DEFAULT_FILE_NAME): Token[] {
  return lexToBuffer(source, file).toTokens();
}

/** `lex` into the column-wise buffer the parser reads. */
export function lexToBuffer(source: string, file: string = DEFAULT_FILE_NAME): TokenBuffer {
  return new Lexer(source, file).run();
}

class Lexer {
  private pos = 0;
  private line = 0;
  private col = 0;
  private readonly buf: TokenBuffer;
  /** Set by `scanWord` when the word held a non-ASCII character. */
  private wide = false;
  /** Set by `scanWord`: the hash of the word's text. */
  private hash = 0;
  private readonly words = new Interner();

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {
    // Real code has about one token per 5 characters; start with room for one per 4.
    this.buf = new TokenBuffer(Math.max(64, Math.ceil(src.length / 4)));
  }

  run(): TokenBuffer {
    const src = this.src;
    if (src.length > MAX_SOURCE_LENGTH) {
      throw new PactSyntaxError(
        "lex",
        this.file,
        { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 },
        `source is ${src.length} characters long; the limit is ${MAX_SOURCE_LENGTH}`,
      );
    }
    const len = src.length;
    while (this.pos < len) {
      const c = src.charCodeAt(this.pos);
      const b = c < 0x80 ? c : this.byteAt(this.pos);
      switch (b) {
        case 0x0a:
          this.pos += c < 0x80 ? 1 : this.widthAt(this.pos);
          if (c === NEWLINE) {
            this.line++;
            this.col = 0;
          } else {
            this.col++;
          }
          continue;
        case 0x20:
        case 0x09:
        case 0x0b:
        case 0x0c:
        case 0x0d:
          this.pos += c < 0x80 ? 1 : this.widthAt(this.pos);
          this.col++;
          continue;
        case 0x3b: // ;
          this.skipComment();
          continue;
        case 0x28:
          this.punct(Tk.LParen, 1);
          continue;
        case 0x29:
          this.punct(Tk.RParen, 1);
          continue;
        case 0x5b:
          this.punct(Tk.LBracket, 1);
          continue;
        case 0x5d:
          this.punct(Tk.RBracket, 1);
          continue;
        case 0x7b:
          this.punct(Tk.LBrace, 1);
          continue;
        case 0x7d:
          this.punct(Tk.RBrace, 1);
          continue;
        case 0x2c:
          this.punct(Tk.Comma, 1);
          continue;
        case 0x2e:
          this.punct(Tk.Dot, 1);
          continue;
        case 0x3a: {
          const after = this.pos + (c < 0x80 ? 1 : this.widthAt(this.pos));
          const next = after < len ? this.byteAt(after) : -1;
          if (next === 0x3a) this.punct(Tk.DynAcc, 2);
          else if (next === 0x3d) this.punct(Tk.BindAssign, 2);
          else this.punct(Tk.Colon, 1);
          continue;
        }
        case QUOTE:
          this.lexString();
          continue;
        case 0x27: // '
          this.lexSymbol();
          continue;
      }
      const cls = CLASS[b]!;
      if (cls === DIGIT) this.lexNumber(this.pos);
      else if (cls === LETTER || cls === SYMBOL) this.lexWord();
      else
        this.fail(this.charSpan(this.pos), `unexpected character ${describeChar(this.pos, src)}`);
    }
    const { line, col, pos } = this;
    this.buf.endSpan = { line, col, endLine: line, endCol: col, start: pos, end: pos };
    return this.buf;
  }

  /** The Latin-1 byte Pact's lexer sees for the character at `at`: the low byte of its code point. */
  private byteAt(at: number): number {
    return this.codePointAt(at) & 0xff;
  }

  private codePointAt(at: number): number {
    const c = this.src.charCodeAt(at);
    if (c < 0xd800 || c > 0xdbff || at + 1 >= this.src.length) return c;
    const d = this.src.charCodeAt(at + 1);
    return d >= 0xdc00 && d <= 0xdfff ? ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000 : c;
  }

  /** UTF-16 length of the character at `at` (2 for a surrogate pair). */
  private widthAt(at: number): number {
    const c = this.src.charCodeAt(at);
    if (c < 0xd800 || c > 0xdbff || at + 1 >= this.src.length) return 1;
    const d = this.src.charCodeAt(at + 1);
    return d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
  }

  /** Class of the character at `at`, or OTHER past the end. */
  private classAt(at: number): number {
    if (at >= this.src.length) return OTHER;
    const c = this.src.charCodeAt(at);
    return CLASS[c < 0x80 ? c : this.byteAt(at)]!;
  }

  /** A punctuation token of `chars` characters at the current position. */
  private punct(kind: number, chars: number): void {
    const start = this.pos;
    const col = this.col;
    let end = start;
    for (let i = 0; i < chars; i++) end += this.src.charCodeAt(end) < 0x80 ? 1 : this.widthAt(end);
    this.pos = end;
    this.col = col + chars;
    this.buf.push(kind, TOKEN_KINDS[kind]!, start, end, this.line, col, this.line, col + chars);
  }

  /** Pushes a single-line token from `start` (at column `col`) to the current position. */
  private push(kind: number, value: string, start: number, col: number): void {
    this.buf.push(kind, value, start, this.pos, this.line, col, this.line, this.col);
  }

  /** `;` up to and including the next newline byte. */
  private skipComment(): void {
    const src = this.src;
    const len = src.length;
    let pos = this.pos + this.widthAt(this.pos);
    let col = this.col + 1;
    while (pos < len) {
      const c = src.charCodeAt(pos);
      if (c < 0x80) {
        pos++;
        if (c === NEWLINE) {
          this.line++;
          this.pos = pos;
          this.col = 0;
          return;
        }
        col++;
      } else {
        const ends = this.byteAt(pos) === 0x0a;
        pos += this.widthAt(pos);
        col++;
        if (ends) break;
      }
    }
    this.pos = pos;
    this.col = col;
  }

  /**
   * Scans `[letter symbol][letter digit symbol]*` from `from` and returns its end, advancing the
   * column. Leaves the word's hash in `hash`, and sets `wide` if a non-ASCII character took part.
   */
  private scanWord(from: number): number {
    const src = this.src;
    const len = src.length;
    let pos = from;
    let hash = HASH_SEED;
    let col = this.col;
    this.wide = false;
    while (pos < len) {
      const c = src.charCodeAt(pos);
      if (c < 0x80) {
        if (CLASS[c]! <= SPACE) break;
        hash = hashStep(hash, c);
        pos++;
      } else {
        if (CLASS[this.byteAt(pos)]! <= SPACE) break;
        this.wide = true;
        pos += this.widthAt(pos);
      }
      col++;
    }
    this.col = col;
    this.hash = hash;
    return pos;
  }

  /** An identifier, a keyword, or (for `-` followed by digits only) a negative integer. */
  private lexWord(): void {
    const start = this.pos;
    const col = this.col;
    const afterSign = start + this.widthAt(start);
    if (this.byteAt(start) === 0x2d && this.classAt(afterSign) === DIGIT) {
      // alex takes the longest match and, on a tie, the integer rule (listed first).
      let digitsEnd = afterSign;
      while (this.classAt(digitsEnd) === DIGIT) digitsEnd += this.widthAt(digitsEnd);
      const wordEnd = this.scanWord(start);
      this.col = col;
      if (wordEnd === digitsEnd) {
        this.lexNumber(start);
        return;
      }
    }
    const end = this.scanWord(start);
    this.pos = end;
    if (this.wide) {
      // Keywords are matched on the Latin-1 image Pact's lexer sees.
      const text = this.src.slice(start, end);
      this.push(KEYWORD_KINDS.get(latin1Image(text)) ?? Tk.Ident, text, start, col);
      return;
    }
    const text = this.words.intern(this.src, start, end, this.hash);
    this.push(this.words.kind, text, start, col);
  }

  /** `-?[0-9]+` starting at `start` (which is the current position). */
  private lexNumber(start: number): void {
    const src = this.src;
    const col = this.col;
    let pos = start;
    if (src.charCodeAt(pos) === 0x2d) pos++;
    else if (src.charCodeAt(pos) >= 0x80) {
      this.fail(this.charSpan(pos), `unexpected character ${describeChar(pos, src)} in a number`);
    }
    while (pos < src.length) {
      const c = src.charCodeAt(pos);
      if (c >= 0x30 && c <= 0x39) {
        pos++;
        continue;
      }
      if (c >= 0x80 && this.byteAt(pos) >= 0x30 && this.byteAt(pos) <= 0x39) {
        // Pact's lexer takes this as a digit, and its parser then fails on it (digitToInt).
        this.col += pos - start;
        this.fail(this.charSpan(pos), `unexpected character ${describeChar(pos, src)} in a number`);
      }
      break;
    }
    this.col += pos - start;
    this.pos = pos;
    this.push(Tk.Number, src.slice(start, pos), start, col);
  }

  /** `'` followed by `[letter][letter digit - _]*`. */
  private lexSymbol(): void {
    const src = this.src;
    const start = this.pos;
    const col = this.col;
    let pos = start + this.widthAt(start);
    this.col++;
    if (this.classAt(pos) !== LETTER) {
      const found = pos < src.length ? describeChar(pos, src) : "the end of the input";
      this.fail(
        this.charSpan(pos),
        `expected a letter after ' to start a symbol (like 'name), found ${found}`,
      );
    }
    while (pos < src.length) {
      const cls = this.classAt(pos);
      if (cls === LETTER || cls === DIGIT) {
        pos += this.widthAt(pos);
      } else {
        const b = this.byteAt(pos);
        if (b !== 0x2d && b !== 0x5f) break;
        pos += this.widthAt(pos);
      }
      this.col++;
    }
    this.pos = pos;
    this.push(Tk.Symbol, src.slice(start + this.widthAt(start), pos), start, col);
  }

  /** A `"…"` string literal; the current position is at the opening quote. */
  private lexString(): void {
    const src = this.src;
    const len = src.length;
    const start = this.pos;
    const startLine = this.line;
    const startCol = this.col;
    let pos = start + this.widthAt(start);
    this.col++;
    let value = "";
    let segment = pos;
    for (;;) {
      if (pos >= len) this.unterminated(start, startLine, startCol);
      const c = src.charCodeAt(pos);
      if (c === QUOTE) {
        value += src.slice(segment, pos);
        pos++;
        this.col++;
        break;
      }
      if (c === BACKSLASH) {
        value += src.slice(segment, pos);
        this.pos = pos;
        value += this.escape(start, startLine, startCol);
        pos = this.pos;
        segment = pos;
        continue;
      }
      if (c === NEWLINE || c === RETURN) {
        const what = c === NEWLINE ? "line break" : "carriage return";
        const hint =
          c === NEWLINE
            ? " (write \\n for a newline, or end the line with \\ and resume the string after a \\)"
            : "";
        this.fail(
          this.charSpan(pos),
          `${what} inside the string starting at ${startLine + 1}:${startCol + 1}${hint}`,
        );
      }
      pos += c >= 0xd800 && c <= 0xdbff ? this.widthAt(pos) : 1;
      this.col++;
    }
    this.pos = pos;
    this.buf.push(Tk.String, value, start, pos, startLine, startCol, this.line, this.col);
  }

  /**
   * Reads the escape at the current position (a backslash) and returns the text it stands for.
   * `\` followed by whitespace starts a continuation: whitespace (newlines included) is skipped
   * up to the next `\`, and contributes nothing.
   */
  private escape(start: number, startLine: number, startCol: number): string {
    const src = this.src;
    const at = this.pos;
    const pos = at + 1;
    if (pos >= src.length) this.unterminated(start, startLine, startCol);
    const c = src.charCodeAt(pos);
    let out: string;
    switch (c) {
      case 0x6e:
        out = "\n";
        break;
      case 0x74:
        out = "\t";
        break;
      case BACKSLASH:
        out = "\\";
        break;
      case QUOTE:
        out = '"';
        break;
      case 0x27:
        out = "'";
        break;
      default:
        if (isHaskellSpace(c)) return this.continuation(start, startLine, startCol);
        this.fail(
          {
            line: this.line,
            col: this.col,
            endLine: this.line,
            endCol: this.col + 2,
            start: at,
            end: pos + this.widthAt(pos),
          },
          c === 0x72
            ? "the escape \\r is not supported in Pact strings"
            : `invalid escape \\${String.fromCodePoint(this.codePointAt(pos))} in a string; ` +
                `the escapes are \\n \\t \\\\ \\" \\' and \\ followed by whitespace`,
        );
    }
    this.pos = pos + 1;
    this.col += 2;
    return out;
  }

  /** After `\` + whitespace: skips whitespace, then requires the closing `\`. */
  private continuation(start: number, startLine: number, startCol: number): string {
    const src = this.src;
    let pos = this.pos + 1;
    this.col++;
    for (;;) {
      if (pos >= src.length) this.unterminated(start, startLine, startCol);
      const c = src.charCodeAt(pos);
      if (c === BACKSLASH) {
        this.pos = pos + 1;
        this.col++;
        return "";
      }
      if (!isHaskellSpace(c)) {
        this.fail(
          this.charSpan(pos),
          `a string continuation (\\ followed by whitespace) must resume with \\, ` +
            `found ${describeChar(pos, src)}`,
        );
      }
      pos++;
      if (c === NEWLINE) {
        this.line++;
        this.col = 0;
      } else {
        this.col++;
      }
    }
  }

  private unterminated(start: number, line: number, col: number): never {
    throw new PactSyntaxError(
      "lex",
      this.file,
      { line, col, endLine: line, endCol: col + 1, start, end: start + 1 },
      `unterminated string: the string starting at ${line + 1}:${col + 1} has no closing "`,
      true,
    );
  }

  /** The span of the single character at `at`, which is at the current line and column. */
  private charSpan(at: number): Span {
    const width = at < this.src.length ? this.widthAt(at) : 0;
    const endCol = this.col + (width > 0 ? 1 : 0);
    return {
      line: this.line,
      col: this.col,
      endLine: this.line,
      endCol,
      start: at,
      end: at + width,
    };
  }

  private fail(span: Span, reason: string): never {
    throw new PactSyntaxError("lex", this.file, span, reason);
  }
}

/** Haskell's `Data.Char.isSpace`: ASCII and Latin-1 spaces plus the Unicode `Zs` category. */
function isHaskellSpace(c: number): boolean {
  if (c <= 0x377) return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;
  return (
    c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/** The text as Pact's lexer sees it: each character replaced by the low byte of its code point. */
function latin1Image(text: string): string {
  let out = "";
  for (const ch of text) out += String.fromCharCode(ch.codePointAt(0)! & 0xff);
  return out;
}

/** `'x'`, with the code point for anything that is not printable ASCII. */
function describeChar(at: number, src: string): string {
  const cp = src.codePointAt(at)!;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  if (cp > 0x20 && cp < 0x7f) return `'${String.fromCharCode(cp)}'`;
  if (cp < 0x20 || cp === 0x7f) return hex;
  return `'${String.fromCodePoint(cp)}' (${hex})`;
}
