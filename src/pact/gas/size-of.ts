/**
 * Pact's size estimate of values (`SizeOf`, version `SizeOfV0`), in bytes. Database reads and
 * writes, `sort`, `show`, `hash` and `make-list` are priced by it. It approximates a CBOR
 * encoding of Pact's Haskell types: every constructor with fields adds a 1-byte tag, a type with
 * several constructors 2 bytes, arrays and maps 5, text its UTF-8 bytes plus 4, an integer its
 * bits / 8 but at least 8, a time 8.
 */
import type { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type {
  Guard,
  KeySet,
  ModuleName,
  PactType,
  PactValue,
  Schema,
  TaggedValue,
} from "../values/types.ts";
import { bitCount } from "./costs.ts";

/** A record's tag (a constructor with fields). */
export const TAG = 1;
/** A variant's tag (a type with several constructors). */
export const VARIANT = 2;
/** An array's header (lists, sets, maps). */
export const ARRAY = 5;
/** Added to every text's byte length. */
const TEXT = 4;
/** A time is a 64-bit word. */
const TIME = 8;

/** The byte length of `s` in UTF-8. */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff)
      i++; // a surrogate pair: 4 bytes for 2 units
    else n += 2;
  }
  return n;
}

export function textSize(s: string): number {
  return utf8Length(s) + TEXT;
}

/** An unbounded integer: its bits / 8, at least 8 bytes. */
export function integerSize(i: bigint): number {
  return Math.floor(Math.max(64, bitCount(i)) / 8);
}

function decimalSize(d: Decimal): number {
  // DecimalRaw: a record of the places (1 byte) and the mantissa.
  return TAG + 1 + integerSize(d.mantissa);
}

function maybeTextSize(s: string | null): number {
  return VARIANT + (s === null ? 0 : textSize(s));
}

export function moduleNameSize(m: ModuleName): number {
  return TAG + textSize(m.name) + maybeTextSize(m.namespace);
}

/** A qualified name written `m.f` or `ns.m.f`. */
function qualifiedNameSize(text: string): number {
  const parts = text.split(".");
  const name = parts[parts.length - 1] ?? "";
  const module = parts[parts.length - 2] ?? "";
  const namespace = parts.length > 2 ? (parts[0] ?? "") : null;
  return TAG + textSize(name) + TAG + textSize(module) + maybeTextSize(namespace);
}

/** A module hash (32 raw bytes, given as unpadded base64url). */
function hashSize(base64: string): number {
  return Math.floor((base64.length * 3) / 4) + TEXT;
}

function listSize(values: readonly PactValue[]): number {
  let n = ARRAY;
  for (const v of values) n += sizeOf(v);
  return n;
}

function keysetSize(ks: KeySet): number {
  let keys = ARRAY;
  for (const k of ks.keys) keys += textSize(k);
  let pred = VARIANT;
  if (ks.pred !== "keys-all" && ks.pred !== "keys-any" && ks.pred !== "keys-2") {
    // A user predicate: a qualified name, or a bare name.
    pred += VARIANT + (ks.pred.includes(".") ? qualifiedNameSize(ks.pred) : textSize(ks.pred));
  }
  return TAG + keys + pred;
}

function guardSize(g: Guard): number {
  switch (g.kind) {
    case "keyset":
      return VARIANT + keysetSize(g);
    case "keyset-ref":
      return VARIANT + TAG + textSize(g.name) + maybeTextSize(g.namespace);
    case "user-guard":
      return VARIANT + TAG + qualifiedNameSize(g.fun) + listSize(g.args);
    case "capability-guard":
      return VARIANT + TAG + qualifiedNameSize(g.name) + listSize(g.args) + maybeTextSize(g.pactId);
    case "module-guard":
      return VARIANT + TAG + moduleNameSize(g.module) + textSize(g.name);
    case "pact-guard":
      return VARIANT + TAG + textSize(g.pactId) + textSize(g.name);
  }
}

export function typeSize(t: PactType): number {
  if (typeof t === "string") {
    switch (t) {
      case "list":
      case "object":
      case "*":
      case "cap-token":
        return VARIANT;
      default:
        return VARIANT + TAG; // TyPrim and its primitive
    }
  }
  switch (t.kind) {
    case "list":
      return VARIANT + typeSize(t.element);
    case "object":
    case "table":
      return VARIANT + schemaSize(t.schema);
    case "modref": {
      let n = VARIANT + ARRAY;
      for (const m of t.interfaces) n += moduleNameSize(m);
      return n;
    }
  }
}

export function schemaSize(s: Schema): number {
  let fields = ARRAY;
  for (const [name, type] of s.fields) fields += TAG + textSize(name) + typeSize(type);
  return TAG + qualifiedNameSize(s.name) + fields;
}

/** Pact's size estimate of a value, in bytes. */
export function sizeOf(v: PactValue): number {
  // Every PactValue is a variant; literals (strings, numbers, bools, unit) are another variant.
  switch (typeof v) {
    case "string":
      return VARIANT + VARIANT + textSize(v);
    case "bigint":
      return VARIANT + VARIANT + integerSize(v);
    case "boolean":
      return VARIANT + VARIANT + 1;
  }
  if (Array.isArray(v)) return VARIANT + listSize(v as readonly PactValue[]);
  if (v instanceof Map) return VARIANT + objectSize(v);
  if (v instanceof PactTime) return VARIANT + TIME;
  if ("mantissa" in v) return VARIANT + VARIANT + decimalSize(v as Decimal);
  const t = v as TaggedValue;
  switch (t.kind) {
    case "unit":
      return VARIANT + VARIANT;
    case "modref": {
      let n = VARIANT + TAG + moduleNameSize(t.module) + ARRAY;
      for (const m of t.interfaces) n += moduleNameSize(m);
      return n;
    }
    case "cap-token": {
      // CapToken (FullyQualifiedName module name hash) args
      const name = qualifiedNameSize(t.name) - TAG; // the module and the name, in a new record
      return VARIANT + TAG + TAG + name + hashSize(t.moduleHash) + listSize(t.args);
    }
    case "table": {
      const tableName = TAG + textSize(t.name) + moduleNameSize(t.module);
      return VARIANT + TAG + tableName + hashSize(t.moduleHash) + schemaSize(t.schema);
    }
    default:
      return VARIANT + guardSize(t);
  }
}

/** An object (a map of fields to values), as stored in a table row. */
export function objectSize(o: ReadonlyMap<string, PactValue>): number {
  let n = ARRAY;
  for (const [k, v] of o) n += TAG + textSize(k) + sizeOf(v);
  return n;
}

/** A namespace as stored: its name and its user and admin guards. */
export function namespaceSize(name: string, user: Guard, admin: Guard): number {
  return TAG + textSize(name) + guardSize(user) + guardSize(admin);
}

/** A keyset as `define-keyset` stores it. */
export function keysetStoredSize(ks: KeySet): number {
  return keysetSize(ks);
}
