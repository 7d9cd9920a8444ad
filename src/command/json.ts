/**
 * JSON with exact numbers. `JSON.parse` turns every number into a double, which loses digits
 * (`0.1000000000000000055` and `0.1` become the same value, big integers are rounded). Pact reads
 * every JSON number as an exact decimal, so the `cmd` of a command is parsed here instead: numbers
 * keep the text they were written with, objects keep their key order (as a Map, so no key can reach
 * an object prototype), and a repeated key is an error rather than a silent "last one wins".
 */

/** A JSON number exactly as written, e.g. `1e-8`, `1.0e-8`, `1000`. */
export class JsonNumber {
  constructor(readonly text: string) {}
}

export type Json = null | boolean | string | JsonNumber | JsonArray | JsonObject;
export type JsonArray = readonly Json[];
export type JsonObject = ReadonlyMap<string, Json>;

/** Deepest nesting of arrays and objects accepted; deeper input is refused, not a stack overflow. */
export const MAX_JSON_NESTING = 512;

export class JsonSyntaxError extends Error {
  override name = "JsonSyntaxError";
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position}`);
  }
}

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return value instanceof Map;
}

export function isJsonArray(value: Json | undefined): value is JsonArray {
  return Array.isArray(value);
}

/** Parses one JSON text (surrounding whitespace allowed). Throws `JsonSyntaxError`. */
export function parseJson(text: string): Json {
  const parser = new Parser(text);
  parser.skipWhitespace();
  const value = parser.value(0);
  parser.skipWhitespace();
  if (parser.pos !== text.length) parser.fail("unexpected text after the JSON value");
  return value;
}

/** Compact JSON text; numbers are written exactly as they were read, objects in their key order. */
export function stringifyJson(value: Json): string {
  if (value === null) return "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return JSON.stringify(value);
  if (value instanceof JsonNumber) return value.text;
  if (isJsonArray(value)) return `[${value.map(stringifyJson).join(",")}]`;
  const fields: string[] = [];
  for (const [key, field] of value) fields.push(`${JSON.stringify(key)}:${stringifyJson(field)}`);
  return `{${fields.join(",")}}`;
}

/** A short description of a value's JSON type, for error messages. */
export function jsonTypeName(value: Json | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "boolean") return "a boolean";
  if (typeof value === "string") return "a string";
  if (value instanceof JsonNumber) return "a number";
  return isJsonArray(value) ? "an array" : "an object";
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

class Parser {
  pos = 0;
  constructor(private readonly text: string) {}

  fail(message: string): never {
    throw new JsonSyntaxError(message, this.pos);
  }

  skipWhitespace(): void {
    const { text } = this;
    let c = text.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++this.pos);
  }

  value(depth: number): Json {
    const c = this.text.charCodeAt(this.pos);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object(depth + 1);
    if (c === 0x5b) return this.array(depth + 1);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (this.text.startsWith("true", this.pos)) return this.literal(4, true);
    if (this.text.startsWith("false", this.pos)) return this.literal(5, false);
    if (this.text.startsWith("null", this.pos)) return this.literal(4, null);
    if (Number.isNaN(c)) this.fail("unexpected end of JSON");
    this.fail(`unexpected character ${JSON.stringify(this.text[this.pos])}`);
  }

  private literal<T extends Json>(length: number, value: T): T {
    this.pos += length;
    return value;
  }

  private number(): JsonNumber {
    NUMBER.lastIndex = this.pos;
    const match = NUMBER.exec(this.text);
    if (match === null) this.fail("malformed number");
    this.pos += match[0].length;
    return new JsonNumber(match[0]);
  }

  private string(): string {
    const { text } = this;
    const start = ++this.pos;
    for (let i = start; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return text.slice(start, i);
      }
      if (c === 0x5c) return this.escapedString(start, i);
      if (c < 0x20) {
        this.pos = i;
        this.fail("unescaped control character in string");
      }
    }
    this.pos = text.length;
    this.fail("unterminated string");
  }

  /** The slow path, for a string that contains escapes; `i` is the first backslash. */
  private escapedString(start: number, i: number): string {
    const { text } = this;
    let out = text.slice(start, i);
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.pos = i + 1;
        return out;
      }
      if (c < 0x20) {
        this.pos = i;
        this.fail("unescaped control character in string");
      }
      if (c !== 0x5c) {
        out += text[i];
        i++;
        continue;
      }
      const escapeChar = text[i + 1] ?? "";
      if (escapeChar === "u") {
        const hex = text.slice(i + 2, i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos = i;
          this.fail("malformed \\u escape");
        }
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 6;
      } else {
        const decoded = ESCAPES[escapeChar];
        if (decoded === undefined) {
          this.pos = i;
          this.fail(`invalid escape \\${escapeChar}`);
        }
        out += decoded;
        i += 2;
      }
    }
    this.pos = text.length;
    this.fail("unterminated string");
  }

  private array(depth: number): JsonArray {
    if (depth > MAX_JSON_NESTING) this.fail(`nesting deeper than ${MAX_JSON_NESTING}`);
    this.pos++;
    const items: Json[] = [];
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x5d) {
      this.pos++;
      return items;
    }
    for (;;) {
      this.skipWhitespace();
      items.push(this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x5d) return items;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or ']' in array");
      }
    }
  }

  private object(depth: number): JsonObject {
    if (depth > MAX_JSON_NESTING) this.fail(`nesting deeper than ${MAX_JSON_NESTING}`);
    this.pos++;
    const fields = new Map<string, Json>();
    this.skipWhitespace();
    if (this.text.charCodeAt(this.pos) === 0x7d) {
      this.pos++;
      return fields;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x22) this.fail("expected a string key in object");
      const keyAt = this.pos;
      const key = this.string();
      if (fields.has(key)) {
        this.pos = keyAt;
        this.fail(`duplicate object key ${JSON.stringify(key)}`);
      }
      this.skipWhitespace();
      if (this.text.charCodeAt(this.pos) !== 0x3a) this.fail("expected ':' after object key");
      this.pos++;
      this.skipWhitespace();
      fields.set(key, this.value(depth));
      this.skipWhitespace();
      const c = this.text.charCodeAt(this.pos++);
      if (c === 0x7d) return fields;
      if (c !== 0x2c) {
        this.pos--;
        this.fail("expected ',' or '}' in object");
      }
    }
  }
}
