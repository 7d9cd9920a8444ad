/**
 * JSON text: aeson-compatible string escaping for our encoders, and a small JSON reader that
 * keeps numbers exact (JSON.parse turns them into doubles, but Pact reads every JSON number as
 * an exact decimal).
 */

/** A JSON number kept as its source text, e.g. `1.50` or `-2e-3`. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A parsed JSON value; objects are Maps so that any key (even `__proto__`) is kept as data. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;
export type JsonObject = Map<string, JsonValue>;

/**
 * The deepest nesting the reader accepts. aeson has no such limit; ours keeps a hostile payload
 * from exhausting the stack.
 */
export const MAX_JSON_DEPTH = 1000;

const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;
const HEX = "0123456789abcdef";

/**
 * A JSON string literal as aeson and pact-json write it: `"` and `\` escaped, `\n` `\r` `\t`
 * as such, other characters below U+0020 as lowercase `\u00XX`; `/` and non-ASCII characters
 * are written as they are.
 */
export function jsonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else out += `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
  }
  return `${out}${s.slice(start)}"`;
}

export class JsonSyntaxError extends SyntaxError {
  override name = "JsonSyntaxError";
}

/** A value to be stored nested deeper than its store can read back. */
export class JsonDepthError extends RangeError {
  override name = "JsonDepthError";
  constructor(readonly limit: number) {
    super(`Resource limit exceeded: a value nested deeper than ${limit} levels cannot be stored`);
  }
}

/** Parses JSON text (RFC 8259), keeping numbers exact. Duplicate keys: the last one wins. */
export function parseJson(text: string): JsonValue {
  const reader = new Reader(text);
  reader.skipSpace();
  const value = reader.value(0);
  reader.skipSpace();
  if (reader.pos !== text.length) reader.fail("unexpected text after the JSON value");
  return value;
}

class Reader {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(`invalid JSON at offset ${this.pos}: ${message}`);
  }

  skipSpace(): void {
    const t = this.text;
    let p = this.pos;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) p++;
      else break;
    }
    this.pos = p;
  }

  value(depth: number): JsonValue {
    if (depth > MAX_JSON_DEPTH) this.fail(`nesting deeper than ${MAX_JSON_DEPTH}`);
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case 0x7b: // {
        return this.object(depth);
      case 0x5b: // [
        return this.array(depth);
      case 0x22: // "
        return this.string();
      case 0x74: // t
        return this.literal("true", true);
      case 0x66: // f
        return this.literal("false", false);
      case 0x6e: // n
        return this.literal("null", null);
      default:
        if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
        return this.fail(Number.isNaN(c) ? "unexpected end of input" : "unexpected character");
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) this.fail(`expected ${word}`);
    this.pos += word.length;
    return value;
  }

  private object(depth: number): JsonObject {
    const result: JsonObject = new Map();
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return result;
    }
    for (;;) {
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail("expected a string key");
      const key = this.string();
      this.skipSpace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':'");
      this.pos++;
      this.skipSpace();
      result.set(key, this.value(depth + 1));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return result;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or '}'");
      }
      this.skipSpace();
    }
  }

  private array(depth: number): JsonValue[] {
    const result: JsonValue[] = [];
    this.pos++;
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return result;
    }
    for (;;) {
      result.push(this.value(depth + 1));
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return result;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or ']'");
      }
      this.skipSpace();
    }
  }

  private string(): string {
    const t = this.text;
    let p = this.pos + 1;
    // fast path: no escapes or control characters before the closing quote
    const close = t.indexOf('"', p);
    if (close >= 0) {
      const body = t.slice(p, close);
      if (!NEEDS_ESCAPE.test(body)) {
        this.pos = close + 1;
        return body;
      }
    }
    let out = "";
    let start = p;
    for (;;) {
      const c = t.charCodeAt(p);
      if (c === 0x22) {
        this.pos = p + 1;
        return out + t.slice(start, p);
      }
      if (c === 0x5c) {
        out += t.slice(start, p);
        const e = t.charCodeAt(p + 1);
        p += 2;
        switch (e) {
          case 0x22:
            out += '"';
            break;
          case 0x5c:
            out += "\\";
            break;
          case 0x2f:
            out += "/";
            break;
          case 0x62:
            out += "\b";
            break;
          case 0x66:
            out += "\f";
            break;
          case 0x6e:
            out += "\n";
            break;
          case 0x72:
            out += "\r";
            break;
          case 0x74:
            out += "\t";
            break;
          case 0x75: {
            const hex = t.slice(p, p + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
              this.pos = p;
              this.fail("bad \\u escape");
            }
            out += String.fromCharCode(Number.parseInt(hex, 16));
            p += 4;
            break;
          }
          default:
            this.pos = p - 1;
            this.fail("bad escape");
        }
        start = p;
        continue;
      }
      if (c < 0x20 || Number.isNaN(c)) {
        this.pos = p;
        this.fail(Number.isNaN(c) ? "unterminated string" : "control character in string");
      }
      p++;
    }
  }

  private number(): JsonNumber {
    const t = this.text;
    const start = this.pos;
    let p = start;
    if (t.charCodeAt(p) === 0x2d) p++;
    const digit = (i: number) => {
      const c = t.charCodeAt(i);
      return c >= 0x30 && c <= 0x39;
    };
    if (t.charCodeAt(p) === 0x30) p++;
    else if (digit(p)) while (digit(p)) p++;
    else {
      this.pos = p;
      this.fail("expected a digit");
    }
    if (t.charCodeAt(p) === 0x2e) {
      p++;
      if (!digit(p)) {
        this.pos = p;
        this.fail("expected a digit after '.'");
      }
      while (digit(p)) p++;
    }
    const e = t.charCodeAt(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      const s = t.charCodeAt(p);
      if (s === 0x2b || s === 0x2d) p++;
      if (!digit(p)) {
        this.pos = p;
        this.fail("expected a digit in the exponent");
      }
      while (digit(p)) p++;
    }
    this.pos = p;
    return new JsonNumber(t.slice(start, p));
  }
}

/**
 * A parsed JSON value as compact text (no spaces, keys in their order, numbers as written): the
 * text aeson writes for it, so a document read with {@link parseJson} is written back byte for
 * byte when it was written compactly.
 */
export function encodeJsonText(v: JsonValue): string {
  if (v === null) return "null";
  if (typeof v === "boolean") return v ? "true" : "false";
  if (typeof v === "string") return jsonString(v);
  if (v instanceof JsonNumber) return v.text;
  if (Array.isArray(v)) return `[${v.map(encodeJsonText).join(",")}]`;
  const members: string[] = [];
  for (const [key, value] of v) members.push(`${jsonString(key)}:${encodeJsonText(value)}`);
  return `{${members.join(",")}}`;
}
