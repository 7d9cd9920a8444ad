/**
 * Reading the YAML files people write (requests, key files, signing data) into exact JSON values,
 * plus the small field readers their parsers share. Numbers keep their written digits (YAML's own
 * reading would round `0.1000000000000000055` and big integers); every error is a
 * `CommandInputError` whose one-line message starts with the file name.
 */
import { type Document, isAlias, isMap, isScalar, isSeq, type Node, parseDocument } from "yaml";
import { JsonNumber, type JsonObject, type JsonValue } from "../pact/values/json-text.ts";
import { CommandInputError } from "./errors.ts";
import { isJsonArray, isJsonObject, jsonTypeName } from "./json-shape.ts";

/** Most YAML nodes read from one file (aliases count each time they are used). */
export const MAX_YAML_NODES = 100_000;
/** Deepest nesting read from one file; also stops an alias that contains itself. */
export const MAX_YAML_DEPTH = 256;
/**
 * The `maxAliasCount` configuration files are read with (the yaml library's default, named): an
 * anchor's uses times the aliases inside it. Beyond it a file is an alias bomb and is refused.
 */
export const MAX_YAML_ALIAS_COUNT = 100;

/**
 * A configuration file's YAML (the node's, the development server's) as plain values, its
 * aliases bounded by {@link MAX_YAML_ALIAS_COUNT}; a problem is thrown as `refusal`'s error, in
 * words naming `path`.
 */
export function readConfigYaml(
  text: string,
  path: string,
  refusal: (message: string) => Error,
): unknown {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    throw refusal(`${path}: invalid YAML: ${doc.errors[0]?.message ?? ""}`);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch {
    throw refusal(`${path}: YAML aliases expand beyond the limit of ${MAX_YAML_ALIAS_COUNT}`);
  }
}

/** Parses one YAML document; an empty file gives `null`. */
export function parseYaml(text: string, source: string): JsonValue {
  const doc = parseDocument(text, { uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    throw new CommandInputError(`${source}: invalid YAML: ${firstLine(error.message)}`);
  }
  const budget = { nodes: 0, depth: 0 };
  return doc.contents === null ? null : toJson(doc.contents, doc, source, "", budget);
}

function toJson(
  node: Node,
  doc: Document,
  source: string,
  path: string,
  budget: { nodes: number; depth: number },
): JsonValue {
  if (++budget.nodes > MAX_YAML_NODES) {
    throw new CommandInputError(`${source}: more than ${MAX_YAML_NODES} YAML nodes`);
  }
  if (budget.depth >= MAX_YAML_DEPTH) {
    throw new CommandInputError(`${source}: YAML nested deeper than ${MAX_YAML_DEPTH} levels`);
  }
  budget.depth++;
  try {
    return nodeToJson(node, doc, source, path, budget);
  } finally {
    budget.depth--;
  }
}

function nodeToJson(
  node: Node,
  doc: Document,
  source: string,
  path: string,
  budget: { nodes: number; depth: number },
): JsonValue {
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (target === undefined)
      throw new CommandInputError(`${source}: ${where(path)}unresolved alias`);
    return toJson(target, doc, source, path, budget);
  }
  if (isMap(node)) {
    const out = new Map<string, JsonValue>();
    for (const pair of node.items) {
      const key = pair.key;
      if (!isScalar(key) || key.value === null || typeof key.value === "object") {
        throw new CommandInputError(`${source}: ${where(path)}map keys must be plain text`);
      }
      const name = typeof key.value === "string" ? key.value : (key.source ?? String(key.value));
      const value = pair.value;
      const childPath = path === "" ? name : `${path}.${name}`;
      out.set(name, value === null ? null : toJson(value as Node, doc, source, childPath, budget));
    }
    return out;
  }
  if (isSeq(node)) {
    return node.items.map((item, i) =>
      item === null ? null : toJson(item as Node, doc, source, `${path}[${i}]`, budget),
    );
  }
  if (isScalar(node)) {
    const { value } = node;
    if (value === null || typeof value === "boolean" || typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "bigint") {
      return yamlNumber(node.source ?? String(value), source, path);
    }
  }
  throw new CommandInputError(`${source}: ${where(path)}unsupported YAML value`);
}

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;
const LOOSE_DECIMAL = /^(-?)([0-9]*)(?:\.([0-9]*))?([eE][+-]?[0-9]+)?$/;

/**
 * A number read from YAML: its exact JSON form, plus the text as written, for fields that are
 * really text but can look like a number (a hex key made only of digits, `0101…`).
 */
export class YamlNumber extends JsonNumber {
  constructor(
    text: string,
    readonly written: string,
  ) {
    super(text);
  }
}

/** The exact JSON number for a YAML number as written (`+1.5`, `.5`, `0x1F`, `007` included). */
function yamlNumber(written: string, source: string, path: string): JsonNumber {
  const text = written.startsWith("+") ? written.slice(1) : written;
  if (JSON_NUMBER.test(text)) return new YamlNumber(text, written);
  if (/^0x[0-9a-fA-F]+$|^0o[0-7]+$/.test(text)) {
    return new YamlNumber(BigInt(text).toString(), written);
  }
  const loose = LOOSE_DECIMAL.exec(text);
  if (loose !== null && (loose[2] || loose[3])) {
    const [, sign, whole, fraction, exponent = ""] = loose;
    const integer = (whole ?? "").replace(/^0+(?=[0-9])/, "") || "0";
    return new YamlNumber(`${sign}${integer}${fraction ? `.${fraction}` : ""}${exponent}`, written);
  }
  throw new CommandInputError(`${source}: ${where(path)}${written} is not a finite number`);
}

function where(path: string): string {
  return path === "" ? "" : `${path}: `;
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).trim().replace(/:$/, "");
}

// --- field readers for the parsers of requests, key files and signing data ---

/** Reads fields of one YAML mapping, naming the file and the field in every error. */
export class YamlFields {
  constructor(
    readonly map: JsonObject,
    readonly source: string,
    /** Where this mapping sits, e.g. `publicMeta` or `keyPairs[0]`; "" at the top. */
    readonly path: string,
  ) {}

  static of(value: JsonValue, source: string, path: string, what: string): YamlFields {
    if (!isJsonObject(value)) {
      const at = path === "" ? "" : `${path} `;
      throw new CommandInputError(
        `${source}: ${at}must be a mapping of ${what}, got ${jsonTypeName(value)}`,
      );
    }
    return new YamlFields(value, source, path);
  }

  fail(message: string): never {
    throw new CommandInputError(`${this.source}: ${message}`);
  }

  name(key: string): string {
    return this.path === "" ? key : `${this.path}.${key}`;
  }

  /** Refuses keys not in `valid`, listing the valid ones. */
  onlyKeys(valid: readonly string[], what: string): void {
    for (const key of this.map.keys()) {
      if (!valid.includes(key)) {
        this.fail(
          `unknown key ${JSON.stringify(this.name(key))} in ${what}; valid keys are: ${valid.join(", ")}`,
        );
      }
    }
  }

  has(key: string): boolean {
    const value = this.map.get(key);
    return value !== undefined && value !== null;
  }

  /** The raw value, `undefined` when absent or null. */
  get(key: string): JsonValue | undefined {
    return this.map.get(key) ?? undefined;
  }

  optionalString(key: string): string | undefined {
    const value = this.get(key);
    if (value === undefined || typeof value === "string") return value;
    return this.wrongType(key, "a string (quote it if it looks like a number)", value);
  }

  string(key: string): string {
    return this.optionalString(key) ?? this.missing(key);
  }

  /** Text that YAML may have read as a number when all its characters are digits (hex keys). */
  optionalText(key: string): string | undefined {
    const value = this.get(key);
    if (value instanceof JsonNumber)
      return value instanceof YamlNumber ? value.written : value.text;
    return this.optionalString(key);
  }

  optionalBoolean(key: string): boolean | undefined {
    const value = this.get(key);
    if (value === undefined || typeof value === "boolean") return value;
    return this.wrongType(key, "true or false", value);
  }

  optionalInteger(key: string): JsonNumber | undefined {
    const value = this.get(key);
    if (value === undefined) return undefined;
    if (value instanceof JsonNumber && /^-?[0-9]+$/.test(value.text)) return value;
    return this.wrongType(key, "an integer", value);
  }

  optionalList(key: string): JsonValue[] | undefined {
    const value = this.get(key);
    if (value === undefined || isJsonArray(value)) return value;
    return this.wrongType(key, "a list", value);
  }

  missing(key: string): never {
    return this.fail(`missing ${JSON.stringify(this.name(key))}`);
  }

  wrongType(key: string, what: string, value: JsonValue): never {
    const shown =
      typeof value === "string" || value instanceof JsonNumber
        ? ` ${abbreviate(typeof value === "string" ? JSON.stringify(value) : value.text)}`
        : "";
    return this.fail(`${this.name(key)} must be ${what}, got ${jsonTypeName(value)}${shown}`);
  }
}

function abbreviate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
