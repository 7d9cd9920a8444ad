/**
 * Pact values ⇄ JSON, exactly as Pact 5's StableEncoding writes and reads them. The encoder
 * writes JSON text itself, so number formats, key orders and escapes are byte-exact; the same
 * text is what `hash` hashes and what command results carry.
 *
 * Reading follows Pact's chain of alternatives: literal (number → decimal, `{"int":…}`,
 * `{"decimal":…}`), list, guard (keyset, keyset reference, user, capability, module, pact
 * guard), module reference, time, capability token, table, and finally a plain object.
 */
import { Decimal, decimalToJson } from "./decimal.ts";
import { JsonDepthError, JsonNumber, jsonString, parseJson } from "./json-text.ts";
import { isKeySetPredicate, makeKeySet } from "./keyset.ts";
import { legacyKeyOrder } from "./legacy-order.ts";
import {
  canonicalHash,
  parseFullyQualifiedName,
  parseJsonTableName,
  parseModuleName,
  parseQualifiedName,
  renderModuleName,
  renderQualifiedName,
} from "./names.ts";
import { jsonNumberToDecimal, jsonNumberToInteger, readHaskellInteger } from "./scientific.ts";
import { compareCodePoints } from "./text.ts";
import { PactTime } from "./time.ts";
import { formatTime, HIGH_PRECISION_FORMAT, ISO8601_FORMAT, parseTime } from "./time-format.ts";
import {
  type CapToken,
  type Guard,
  type KeySet,
  type ModRef,
  type ModuleName,
  type PactList,
  type PactObject,
  type PactType,
  type PactValue,
  type Schema,
  type TableRef,
  type TaggedValue,
  UNIT,
} from "./types.ts";

/** Re-exported for modules that import it from here; its home is ./keyset.ts. */
export { makeKeySet };

/** The field of the stored form's wrapper around an object that looks like another value. */
const STORED_OBJECT_FIELD = "#object";

/** Integers beyond ±(2^53 − 1) are written as strings: `{"int":"…"}`. */
export const MAX_SAFE_JSON_INTEGER = 9007199254740991n;

// ---------------------------------------------------------------------------------------------
// Encoding

/** Narrows to a list (Array.isArray does not narrow readonly arrays). */
export function isPactList(v: PactValue): v is PactList {
  return Array.isArray(v);
}

/**
 * The JSON text of a value (Pact's StableEncoding). Written without recursion, so that a value
 * nested however deeply (a command can build one thousands of levels deep) is written rather
 * than exhausting the stack: the lists, objects and argument lists being written are kept on a
 * stack of their own. With `maxDepth`, a value whose lists, objects and argument lists nest
 * deeper than that throws {@link JsonDepthError}.
 */
export function encodePactValue(v: PactValue, maxDepth = Number.POSITIVE_INFINITY): string {
  return encodeValue(v, maxDepth, false);
}

/**
 * The JSON text a contract state stores for a value, which {@link decodeStoredPactValue} reads
 * back as exactly the value written, as Pact's stored CBOR is: a row must read back the same
 * whether it comes from a cache or from storage, or the nodes executing a block disagree.
 * {@link encodePactValue}'s text, except that
 * - a decimal whose places end in zeros (`1.10`, `0.0`, `100000000.0`) is written
 *   `{"decimal":"1.10"}`, keeping its places (a JSON number loses them), which decide what later
 *   arithmetic gives (1.10 + 1.0 is 2.10, 1.1 + 1.0 is 2.1);
 * - an object inside the value that holds a field another value's JSON is recognised by (`int`,
 *   `keys`, `time`, …: {@link TAG_FIELDS}) is written `{"#object":{…}}`, so that it is not read
 *   back as that other value.
 */
export function encodeStoredPactValue(v: PactValue, maxDepth = Number.POSITIVE_INFINITY): string {
  return encodeValue(v, maxDepth, true);
}

/**
 * The fields by which {@link decodePactValue} tells a literal, guard, module reference, time,
 * capability token or table from a plain object (an object with none of them is read as one),
 * and the stored form's own object wrapper.
 */
export const TAG_FIELDS: ReadonlySet<string> = new Set([
  "int",
  "decimal",
  "keys",
  "keysetref",
  "fun",
  "cgName",
  "moduleName",
  "pactId",
  "refName",
  "time",
  "timep",
  "#ctName",
  ":tableName",
  STORED_OBJECT_FIELD,
]);

function encodeValue(v: PactValue, maxDepth: number, stored: boolean): string {
  let out = "";
  const open: Container[] = [];
  /** The JSON nesting depth of the next value: the levels of the containers open around it. */
  let depth = 0;
  let value: PactValue | undefined = v;
  for (;;) {
    if (value !== undefined) {
      const start = writing(value, stored && open.length > 0 ? "nested" : stored ? "top" : null);
      if (typeof start === "string") out += start;
      else {
        out += start.head;
        open.push(start);
        depth += start.levels;
      }
    }
    const innermost = open.at(-1);
    if (innermost === undefined) return out;
    const next = innermost.next++;
    if (next < innermost.values.length) {
      if (depth > maxDepth) throw new JsonDepthError(maxDepth);
      if (next > 0) out += ",";
      if (innermost.labels !== null) out += innermost.labels[next];
      value = innermost.values[next] as PactValue;
    } else {
      out += innermost.tail;
      open.pop();
      depth -= innermost.levels;
      value = undefined;
    }
  }
}

/**
 * A value that holds other values, being written: `head`, the `values` separated by commas (each
 * after its label, an object's `"key":`), then `tail`.
 */
interface Container {
  readonly head: string;
  readonly values: readonly PactValue[];
  readonly labels: readonly string[] | null;
  readonly tail: string;
  /** The JSON levels it opens around its values: 1, or 2 for a list inside an object. */
  readonly levels: number;
  /** The index of the next value to write. */
  next: number;
}

function container(
  head: string,
  values: readonly PactValue[],
  tail: string,
  levels = 1,
  labels: readonly string[] | null = null,
): Container {
  return { head, values, labels, tail, levels, next: 0 };
}

/**
 * How a value is written: its JSON text, or for a value holding others, its container. `stored`
 * is where a value of the stored form is (null: not the stored form).
 */
function writing(v: PactValue, stored: "top" | "nested" | null): string | Container {
  switch (typeof v) {
    case "string":
      return jsonString(v);
    case "boolean":
      return v ? "true" : "false";
    case "bigint":
      return v <= MAX_SAFE_JSON_INTEGER && v >= -MAX_SAFE_JSON_INTEGER
        ? `{"int":${v}}`
        : `{"int":"${v}"}`;
  }
  if (v instanceof Decimal) {
    return stored !== null && endsInZero(v) ? `{"decimal":"${v.toString()}"}` : decimalToJson(v);
  }
  if (v instanceof PactTime) return encodeTime(v);
  if (isPactList(v)) return container("[", v, "]");
  if (v instanceof Map) {
    const keys = legacyKeyOrder(v.keys());
    const values = keys.map((key) => v.get(key) as PactValue);
    const labels = keys.map((key) => `${jsonString(key)}:`);
    if (stored === "nested" && keys.some((key) => TAG_FIELDS.has(key))) {
      return container(`{"${STORED_OBJECT_FIELD}":{`, values, "}}", 2, labels);
    }
    return container("{", values, "}", 1, labels);
  }
  const t = v as TaggedValue;
  switch (t.kind) {
    case "unit":
      return "null";
    case "modref":
      return `{"refSpec":${encodeModuleNameSet(t.interfaces)},"refName":${encodeModuleName(t.module)}}`;
    case "table":
      return `{":tableName":${jsonString(`${renderModuleName(t.module)}:${t.name}`)},":moduleHash":${jsonString(t.moduleHash)},":schema":${encodeSchema(t.schema)}}`;
    case "cap-token":
      return container(
        `{"#ctName":${jsonString(`${t.name}.{${t.moduleHash}}`)},"#ctArgs":[`,
        t.args,
        "]}",
        2,
      );
    case "keyset":
      return encodeKeySet(t);
    case "keyset-ref":
      return t.namespace === null
        ? `{"keysetref":${jsonString(t.name)}}`
        : `{"keysetref":{"ns":${jsonString(t.namespace)},"ksn":${jsonString(t.name)}}}`;
    case "user-guard":
      return container(`{"args":[`, t.args, `],"fun":${jsonString(t.fun)}}`, 2);
    case "capability-guard":
      return container(
        `{"cgPactId":${t.pactId === null ? "null" : jsonString(t.pactId)},"cgArgs":[`,
        t.args,
        `],"cgName":${jsonString(t.name)}}`,
        2,
      );
    case "module-guard":
      return `{"moduleName":${encodeModuleName(t.module)},"name":${jsonString(t.name)}}`;
    case "pact-guard":
      return `{"pactId":${jsonString(t.pactId)},"name":${jsonString(t.name)}}`;
  }
}

/** Whether the decimal's last place is a zero, which a JSON number would drop. */
function endsInZero(d: Decimal): boolean {
  return d.places > 0 && d.mantissa % 10n === 0n;
}

/**
 * The bytes Pact's `hash` native hashes for a value: a string's own UTF-8 bytes, any other
 * value's JSON encoding.
 */
export function pactValueHashInput(v: PactValue): Uint8Array {
  return textEncoder.encode(typeof v === "string" ? v : encodePactValue(v));
}

const textEncoder = new TextEncoder();

/**
 * A JSON object from already-encoded member values, with the keys in Pact's legacy HashMap
 * order (for maps of PactValues and of other encodable things alike).
 */
export function encodeLegacyObject(members: ReadonlyMap<string, string>): string {
  if (members.size === 0) return "{}";
  let out = "{";
  for (const key of legacyKeyOrder(members.keys())) {
    if (out.length > 1) out += ",";
    out += `${jsonString(key)}:${members.get(key)}`;
  }
  return `${out}}`;
}

/**
 * `{"time":…}` when the microseconds are a multiple of 1000 — dropping any milliseconds, a
 * legacy bug Pact keeps — otherwise `{"timep":…}` with six fraction digits.
 */
function encodeTime(t: PactTime): string {
  if (t.micros % 1000n === 0n) return `{"time":"${formatTime(ISO8601_FORMAT, t)}"}`;
  return `{"timep":"${formatTime(HIGH_PRECISION_FORMAT, t)}"}`;
}

/** `{"namespace":…,"name":…}` */
export function encodeModuleName(m: ModuleName): string {
  return `{"namespace":${m.namespace === null ? "null" : jsonString(m.namespace)},"name":${jsonString(m.name)}}`;
}

/** Module names in Haskell `Set ModuleName` order: by name, then namespace (none first). */
export function compareModuleNames(a: ModuleName, b: ModuleName): number {
  const byName = compareCodePoints(a.name, b.name);
  if (byName !== 0) return byName;
  if (a.namespace === b.namespace) return 0;
  if (a.namespace === null) return -1;
  if (b.namespace === null) return 1;
  return compareCodePoints(a.namespace, b.namespace);
}

function encodeModuleNameSet(names: readonly ModuleName[]): string {
  const sorted = [...names].sort(compareModuleNames);
  const unique = sorted.filter(
    (m, i) => i === 0 || compareModuleNames(sorted[i - 1] as ModuleName, m) !== 0,
  );
  return `[${unique.map(encodeModuleName).join(",")}]`;
}

function encodeKeySet(ks: KeySet): string {
  return `{"pred":${jsonString(ks.pred)},"keys":[${ks.keys.map(jsonString).join(",")}]}`;
}

/** `{"sc_name":…,"sc_fields":{…}}` */
export function encodeSchema(s: Schema): string {
  const fields = new Map<string, string>();
  for (const [name, type] of s.fields) fields.set(name, encodeType(type));
  return `{"sc_name":${jsonString(s.name)},"sc_fields":${encodeLegacyObject(fields)}}`;
}

/** A schema field type: `"integer"`, `{"tylist":…}`, `{"tyobject":…}`, … */
export function encodeType(t: PactType): string {
  if (typeof t === "string") return `"${t}"`;
  switch (t.kind) {
    case "list":
      return `{"tylist":${encodeType(t.element)}}`;
    case "object":
      return `{"tyobject":${encodeSchema(t.schema)}}`;
    case "table":
      return `{"tytable":${encodeSchema(t.schema)}}`;
    case "modref":
      return `{"tymodref":${encodeModuleNameSet(t.interfaces)}}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding

/**
 * JSON input: the output of {@link parseJson} (exact numbers, Map objects) or of JSON.parse
 * (JS numbers, plain objects). JS numbers are read through their shortest decimal text, so
 * only {@link parseJson} input is exact for numbers with more than 15 significant digits.
 */
type Input = unknown;

/** A JSON object as either reader gives it. */
type ObjectView = ReadonlyMap<string, Input> | Readonly<Record<string, Input>>;

function asObject(j: Input): ObjectView | null {
  if (j instanceof Map) return j;
  if (typeof j === "object" && j !== null && !Array.isArray(j) && !(j instanceof JsonNumber)) {
    return j as Record<string, Input>;
  }
  return null;
}

function field(o: ObjectView, key: string): Input | undefined {
  if (o instanceof Map) return o.get(key);
  const r = o as Readonly<Record<string, Input>>;
  return Object.hasOwn(r, key) ? r[key] : undefined;
}

function fieldNames(o: ObjectView): Iterable<string> {
  return o instanceof Map ? o.keys() : Object.keys(o);
}

function isNumber(j: Input): j is JsonNumber | number {
  return typeof j === "number" || j instanceof JsonNumber;
}

/** Reads a value from JSON text, numbers exact. */
export function parsePactValue(text: string): PactValue {
  return decodePactValue(parseJson(text));
}

/** Reads a value from parsed JSON (see {@link parseJson}), like Pact's `FromJSON PactValue`. */
export function decodePactValue(j: Input): PactValue {
  return decodeValue(j, false);
}

/** Reads a value of the stored form ({@link encodeStoredPactValue}) from parsed JSON. */
export function decodeStoredPactValue(j: Input): PactValue {
  return decodeValue(j, true);
}

function decodeValue(j: Input, stored: boolean): PactValue {
  const literal = decodeLiteral(j);
  if (literal !== undefined) return literal;
  if (Array.isArray(j)) return decodeItems(j, stored);
  const o = asObject(j);
  if (o === null) throw new TypeError(`not a JSON value: ${String(j)}`);
  if (stored) {
    const wrapped = storedObject(o);
    if (wrapped !== null) return decodeObject(wrapped, stored);
  }
  return (
    decodeGuard(o, stored) ??
    decodeModRef(o) ??
    decodeTime(o) ??
    decodeCapToken(o, stored) ??
    decodeTable(o) ??
    decodeObject(o, stored)
  );
}

/** The object inside the stored form's wrapper `{"#object":{…}}`, or null for anything else. */
function storedObject(o: ObjectView): ObjectView | null {
  const inner = field(o, STORED_OBJECT_FIELD);
  if (inner === undefined) return null;
  const names = fieldNames(o)[Symbol.iterator]();
  names.next();
  return names.next().done === true ? asObject(inner) : null;
}

function decodeItems(items: readonly Input[], stored: boolean): PactValue[] {
  return items.map((item) => decodeValue(item, stored));
}

function decodeLiteral(j: Input): PactValue | undefined {
  if (typeof j === "string" || typeof j === "boolean") return j;
  if (j === null) return UNIT;
  if (isNumber(j)) return jsonNumberToDecimal(j);
  const o = asObject(j);
  if (o === null) return undefined;
  const int = field(o, "int");
  if (isNumber(int)) return jsonNumberToInteger(int);
  if (typeof int === "string") {
    const i = readHaskellInteger(int);
    if (i !== null) return i;
  }
  const dec = field(o, "decimal");
  if (typeof dec === "string") return Decimal.read(dec) ?? undefined;
  return undefined;
}

function decodeList(j: Input, stored: boolean): PactValue[] | undefined {
  return Array.isArray(j) ? decodeItems(j, stored) : undefined;
}

function text(j: Input): string | undefined {
  return typeof j === "string" ? j : undefined;
}

/** An optional text field (`.:?`): absent or null is null, a non-string fails. */
function optionalText(o: ObjectView, key: string): string | null | undefined {
  const v = field(o, key);
  if (v === undefined || v === null) return null;
  return typeof v === "string" ? v : undefined;
}

function decodeModuleName(j: Input): ModuleName | undefined {
  const o = asObject(j);
  if (o === null) return undefined;
  const namespace = optionalText(o, "namespace");
  const name = text(field(o, "name"));
  if (namespace === undefined || name === undefined || parseModuleName(name) === null)
    return undefined;
  return { namespace, name };
}

function decodeModuleNameSet(j: Input): ModuleName[] | undefined {
  if (!Array.isArray(j)) return undefined;
  const names: ModuleName[] = [];
  for (const item of j) {
    const m = decodeModuleName(item);
    if (m === undefined) return undefined;
    names.push(m);
  }
  names.sort(compareModuleNames);
  return names.filter((m, i) => i === 0 || compareModuleNames(names[i - 1] as ModuleName, m) !== 0);
}

function decodeKeySet(o: ObjectView): KeySet | undefined {
  const keys = field(o, "keys");
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) return undefined;
  const pred = optionalText(o, "pred");
  if (pred === undefined) return undefined;
  if (pred !== null && !isKeySetPredicate(pred)) return undefined;
  return makeKeySet(keys as string[], pred ?? "keys-all");
}

function decodeGuard(o: ObjectView, stored: boolean): Guard | undefined {
  const ks = decodeKeySet(o);
  if (ks !== undefined) return ks;

  const ref = field(o, "keysetref");
  if (typeof ref === "string") return { kind: "keyset-ref", namespace: null, name: ref };
  const refObject = ref === undefined ? null : asObject(ref);
  if (refObject !== null) {
    const ns = optionalText(refObject, "ns");
    const ksn = text(field(refObject, "ksn"));
    if (ns !== undefined && ksn !== undefined)
      return { kind: "keyset-ref", namespace: ns, name: ksn };
  }

  const fun = text(field(o, "fun"));
  if (fun !== undefined && parseQualifiedName(fun) !== null) {
    const args = decodeList(field(o, "args"), stored);
    if (args !== undefined) return { kind: "user-guard", fun, args };
  }

  const cgName = text(field(o, "cgName"));
  if (cgName !== undefined && parseQualifiedName(cgName) !== null) {
    const args = decodeList(field(o, "cgArgs"), stored);
    const pactId = optionalText(o, "cgPactId");
    if (args !== undefined && pactId !== undefined) {
      return { kind: "capability-guard", name: cgName, args, pactId };
    }
  }

  const module = decodeModuleName(field(o, "moduleName"));
  const moduleGuardName = text(field(o, "name"));
  if (module !== undefined && moduleGuardName !== undefined) {
    return { kind: "module-guard", module, name: moduleGuardName };
  }

  const pactId = text(field(o, "pactId"));
  if (pactId !== undefined && moduleGuardName !== undefined) {
    return { kind: "pact-guard", pactId, name: moduleGuardName };
  }
  return undefined;
}

function decodeModRef(o: ObjectView): ModRef | undefined {
  const module = decodeModuleName(field(o, "refName"));
  if (module === undefined) return undefined;
  const spec = field(o, "refSpec");
  const interfaces = spec === undefined || spec === null ? [] : decodeModuleNameSet(spec);
  if (interfaces === undefined) return undefined;
  return { kind: "modref", module, interfaces };
}

function decodeTime(o: ObjectView): PactTime | undefined {
  const t = text(field(o, "time"));
  const parsed = t === undefined ? null : parseTime(ISO8601_FORMAT, t);
  if (parsed !== null) return parsed;
  const tp = text(field(o, "timep"));
  return (tp === undefined ? null : parseTime(HIGH_PRECISION_FORMAT, tp)) ?? undefined;
}

function decodeCapToken(o: ObjectView, stored: boolean): CapToken | undefined {
  const name = text(field(o, "#ctName"));
  const fqn = name === undefined ? null : parseFullyQualifiedName(name);
  if (fqn === null) return undefined;
  const args = decodeList(field(o, "#ctArgs"), stored);
  if (args === undefined) return undefined;
  return { kind: "cap-token", name: renderQualifiedName(fqn), moduleHash: fqn.hash, args };
}

function decodeTable(o: ObjectView): TableRef | undefined {
  const nameText = text(field(o, ":tableName"));
  const table = nameText === undefined ? null : parseJsonTableName(nameText);
  if (table === null) return undefined;
  const hashText = text(field(o, ":moduleHash"));
  const moduleHash = hashText === undefined ? null : canonicalHash(hashText);
  if (moduleHash === null) return undefined;
  const schema = decodeSchema(field(o, ":schema"));
  if (schema === undefined) return undefined;
  return { kind: "table", module: table.module, name: table.name, moduleHash, schema };
}

function decodeSchema(j: Input): Schema | undefined {
  const o = asObject(j);
  if (o === null) return undefined;
  const name = text(field(o, "sc_name"));
  const fieldsObject = asObject(field(o, "sc_fields"));
  if (name === undefined || parseQualifiedName(name) === null || fieldsObject === null)
    return undefined;
  const fields = new Map<string, PactType>();
  for (const key of fieldNames(fieldsObject)) {
    const t = decodeType(field(fieldsObject, key));
    if (t === undefined) return undefined;
    fields.set(key, t);
  }
  return { name, fields };
}

const SIMPLE_TYPES = new Set([
  "integer",
  "decimal",
  "bool",
  "string",
  "guard",
  "time",
  "unit",
  "list",
  "object",
  "*",
  "cap-token",
]);

function decodeType(j: Input): PactType | undefined {
  if (typeof j === "string") return SIMPLE_TYPES.has(j) ? (j as PactType) : undefined;
  const o = asObject(j);
  if (o === null) return undefined;
  const list = field(o, "tylist");
  if (list !== undefined) {
    const element = decodeType(list);
    if (element !== undefined) return { kind: "list", element };
  }
  const object = field(o, "tyobject");
  if (object !== undefined) {
    const schema = decodeSchema(object);
    if (schema !== undefined) return { kind: "object", schema };
  }
  const modref = field(o, "tymodref");
  if (modref !== undefined) {
    const interfaces = decodeModuleNameSet(modref);
    if (interfaces !== undefined) return { kind: "modref", interfaces };
  }
  const table = field(o, "tytable");
  if (table !== undefined) {
    const schema = decodeSchema(table);
    if (schema !== undefined) return { kind: "table", schema };
  }
  return undefined;
}

function decodeObject(o: ObjectView, stored: boolean): PactObject {
  const result = new Map<string, PactValue>();
  for (const key of fieldNames(o)) result.set(key, decodeValue(field(o, key), stored));
  return result;
}
