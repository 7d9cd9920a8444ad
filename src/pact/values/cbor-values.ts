/**
 * Pact values, types and names in Pact 5's CBOR encoding (`Pact.Core.Serialise.CBOR_V1`), as they
 * appear inside a hashed module (the values of its constants, the types of its parameters and
 * schemas, module and qualified names) and in what Pact stores (rows, keysets, namespaces:
 * db/stored-bytes.ts). Constructors are arrays headed by their tag; see cbor.ts for the
 * conventions.
 */
import { decodeBase64Url } from "../../crypto/index.ts";
import type { CborWriter } from "./cbor.ts";
import { Decimal } from "./decimal.ts";
import { compareModuleNames } from "./json.ts";
import { parseQualifiedName, REPL_MODULE_HASH } from "./names.ts";
import { compareCodePoints as compareText } from "./text.ts";
import { PactTime } from "./time.ts";
import type {
  Guard,
  KeySet,
  ModuleName,
  PactType,
  PactValue,
  Schema,
  TaggedValue,
} from "./types.ts";

const utf8 = new TextEncoder();

/** The bytes of a module hash written as base64url; the REPL's marker hash `#repl` is its text. */
export function hashBytes(hash: string): Uint8Array {
  return hash === REPL_MODULE_HASH ? utf8.encode(hash) : decodeBase64Url(hash);
}

export function moduleName(w: CborWriter, m: ModuleName): void {
  w.listLen(2).text(m.name);
  w.maybe(m.namespace, (x, ns) => x.text(ns));
}

/** A `Set ModuleName`: a definite-length array in ascending order, without duplicates. */
export function moduleNameSet(w: CborWriter, names: readonly ModuleName[]): void {
  const sorted = [...names].sort(compareModuleNames);
  const unique = sorted.filter((m, i) => i === 0 || compareModuleNames(sorted[i - 1]!, m) !== 0);
  w.listLen(unique.length);
  for (const m of unique) moduleName(w, m);
}

export function qualifiedName(w: CborWriter, name: string, module: ModuleName): void {
  w.listLen(2).text(name);
  moduleName(w, module);
}

export function fullyQualifiedName(
  w: CborWriter,
  module: ModuleName,
  name: string,
  hash: Uint8Array,
): void {
  w.listLen(3);
  moduleName(w, module);
  w.text(name).byteString(hash);
}

/** A qualified name written `m.f` or `ns.m.f` (as guards and schemas carry them). */
function qualifiedText(w: CborWriter, text: string): void {
  const q = parseQualifiedName(text);
  if (q === null) throw new Error(`module hash: not a qualified name: ${text}`);
  qualifiedName(w, q.name, q.module);
}

const PRIM_TYPES = ["integer", "decimal", "bool", "string", "guard", "time", "unit"];

export function type(w: CborWriter, t: PactType): void {
  if (typeof t === "string") {
    const prim = PRIM_TYPES.indexOf(t);
    if (prim >= 0) {
      w.listLen(2).word(0).word(prim);
      return;
    }
    switch (t) {
      case "list":
        w.listLen(1).word(2);
        return;
      case "object":
        w.listLen(1).word(5);
        return;
      case "cap-token":
        w.listLen(1).word(7);
        return;
      case "*":
        w.listLen(1).word(8);
        return;
    }
    throw new Error(`module hash: unknown type ${t}`);
  }
  switch (t.kind) {
    case "list":
      w.listLen(2).word(1);
      type(w, t.element);
      return;
    case "modref":
      w.listLen(2).word(3);
      moduleNameSet(w, t.interfaces);
      return;
    case "object":
      w.listLen(2).word(4);
      schema(w, t.schema);
      return;
    case "table":
      w.listLen(2).word(6);
      schema(w, t.schema);
      return;
  }
}

/** A `Maybe Type`. */
export function maybeType(w: CborWriter, t: PactType | null): void {
  w.maybe(t, type);
}

/** A schema: its qualified name and its fields (a map in field order). */
export function schema(w: CborWriter, s: Schema): void {
  w.listLen(2);
  qualifiedText(w, s.name);
  schemaFields(w, s.fields);
}

/** `Map Field Type`. */
export function schemaFields(w: CborWriter, fields: ReadonlyMap<string, PactType>): void {
  const keys = [...fields.keys()].sort(compareText);
  w.mapLen(keys.length);
  for (const k of keys) {
    w.text(k);
    type(w, fields.get(k)!);
  }
}

export function decimal(w: CborWriter, d: Decimal): void {
  w.listLen(2).word(d.places).integer(d.mantissa);
}

/**
 * The module being hashed: values that point into it (its tables, its capabilities) carry the
 * placeholder hash it is hashed with, as they did when Pact evaluated its constants.
 */
export interface HashedModule {
  readonly name: ModuleName;
  readonly placeholder: Uint8Array;
}

/** `PactValue`: `[tag, payload]`. */
export function pactValue(w: CborWriter, v: PactValue, self: HashedModule | null = null): void {
  w.listLen(2);
  if (typeof v === "string") {
    w.word(0).listLen(2).word(0).text(v);
  } else if (typeof v === "bigint") {
    w.word(0).listLen(2).word(1).integer(v);
  } else if (typeof v === "boolean") {
    w.word(0).listLen(2).word(4).bool(v);
  } else if (v instanceof Decimal) {
    w.word(0).listLen(2).word(2);
    decimal(w, v);
  } else if (v instanceof PactTime) {
    w.word(6).integer(v.mjdMicros);
  } else if (Array.isArray(v)) {
    w.word(1).listLen(v.length);
    for (const x of v) pactValue(w, x, self);
  } else if (v instanceof Map) {
    w.word(3);
    const keys = [...v.keys()].sort(compareText);
    w.mapLen(keys.length);
    for (const k of keys) {
      w.text(k);
      pactValue(w, v.get(k)!, self);
    }
  } else {
    taggedValue(w, v as TaggedValue, self);
  }
}

function hashIn(self: HashedModule | null, module: ModuleName, hash: string): Uint8Array {
  return self !== null && compareModuleNames(self.name, module) === 0
    ? self.placeholder
    : hashBytes(hash);
}

function taggedValue(w: CborWriter, v: TaggedValue, self: HashedModule | null): void {
  switch (v.kind) {
    case "unit":
      w.word(0).listLen(1).word(3);
      return;
    case "modref":
      w.word(4).listLen(2);
      moduleName(w, v.module);
      moduleNameSet(w, v.interfaces);
      return;
    case "cap-token": {
      const q = parseQualifiedName(v.name);
      if (q === null) throw new Error(`module hash: not a capability name: ${v.name}`);
      w.word(5).listLen(2);
      fullyQualifiedName(w, q.module, q.name, hashIn(self, q.module, v.moduleHash));
      w.list(v.args, (x, a) => pactValue(x, a, self));
      return;
    }
    case "table":
      w.word(7).listLen(3).listLen(2).text(v.name);
      moduleName(w, v.module);
      w.byteString(hashIn(self, v.module, v.moduleHash));
      schema(w, v.schema);
      return;
    default:
      w.word(2);
      guard(w, v, self);
  }
}

const PREDICATES = ["keys-all", "keys-2", "keys-any"];

/** A `KeySet`: its keys (a set, in ascending order) and its predicate. */
export function keySet(w: CborWriter, ks: KeySet): void {
  w.listLen(2);
  const keys = [...new Set(ks.keys)].sort(compareText);
  w.listLen(keys.length);
  for (const k of keys) w.text(k);
  const builtin = PREDICATES.indexOf(ks.pred);
  if (builtin >= 0) {
    w.listLen(1).word(builtin);
  } else {
    // A custom predicate is a parsed type name: qualified, or bare.
    w.listLen(2).word(3).listLen(2);
    const q = parseQualifiedName(ks.pred);
    if (q === null) w.word(1).text(ks.pred);
    else {
      w.word(0);
      qualifiedName(w, q.name, q.module);
    }
  }
}

/** A `Guard`: `[tag, guard]`. */
export function guard(w: CborWriter, g: Guard, self: HashedModule | null = null): void {
  w.listLen(2);
  switch (g.kind) {
    case "keyset":
      w.word(0);
      keySet(w, g);
      return;
    case "keyset-ref":
      w.word(1).listLen(2).text(g.name);
      w.maybe(g.namespace, (x, ns) => x.text(ns));
      return;
    case "user-guard":
      w.word(2).listLen(2);
      qualifiedText(w, g.fun);
      w.list(g.args, (x, a) => pactValue(x, a, self));
      return;
    case "capability-guard":
      w.word(3).listLen(3);
      qualifiedText(w, g.name);
      w.list(g.args, (x, a) => pactValue(x, a, self));
      w.maybe(g.pactId, (x, id) => x.text(id));
      return;
    case "module-guard":
      w.word(4).listLen(2);
      moduleName(w, g.module);
      w.text(g.name);
      return;
    case "pact-guard":
      w.word(5).listLen(2).text(g.pactId).text(g.name);
      return;
  }
}
