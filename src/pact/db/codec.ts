/**
 * What each domain stores, as text, through the values' JSON codec (`values/json.ts`) in its
 * stored form (`encodeStoredPactValue`: every decimal's places kept, no object mistaken for
 * another value), so that a value reads back exactly as it was written, as Pact's stored CBOR does:
 * - rows: the row object's JSON; on reading, the top level is always taken as an object (so a
 *   row whose fields look like a keyset, e.g. `keys` and `pred`, stays a row) and each field is
 *   decoded as a value;
 * - keysets: the keyset's JSON;
 * - namespaces: `{"admin":<guard>,"user":<guard>,"name":"…"}` (Pact's stable encoding);
 * - modules: `{"hash":"…","code":"…"}`;
 * - defpact state: the caller's text, unchanged.
 * A stored text that does not decode raises `DbError` `decode-failure` naming the key.
 */
import { decodeStoredPactValue, encodeStoredPactValue } from "../values/json.ts";
import { type JsonValue, MAX_JSON_DEPTH, parseJson } from "../values/json-text.ts";
import { isGuard, type KeySet, type PactObject, type PactValue } from "../values/types.ts";
import { decodeFailureError } from "./errors.ts";
import type { NamespaceRecord, StoredModule } from "./types.ts";

/**
 * How deeply the lists, objects and guards' argument lists of a stored row may nest: below
 * parseJson's {@link MAX_JSON_DEPTH}, so that every row stored can be read back, with room for the
 * JSON a single value adds inside (an integer's `{"int":…}`, a table's schema).
 */
export const MAX_STORED_VALUE_DEPTH = MAX_JSON_DEPTH - 100;

/** A row's JSON; a row nested deeper than {@link MAX_STORED_VALUE_DEPTH} throws JsonDepthError. */
export function encodeRow(row: PactObject): string {
  return encodeStoredPactValue(row, MAX_STORED_VALUE_DEPTH);
}

export function decodeRow(text: string, key: string): PactObject {
  const fields = parseObject(text, key);
  const row = new Map<string, PactValue>();
  for (const [name, value] of fields) row.set(name, decodeField(value, key));
  return row;
}

/** `update`'s merge: the new fields over the old row. */
export function mergeRows(update: PactObject, old: PactObject): PactObject {
  let missing = false;
  for (const name of old.keys()) {
    if (!update.has(name)) {
      missing = true;
      break;
    }
  }
  if (!missing) return update;
  const merged = new Map(old);
  for (const [name, value] of update) merged.set(name, value);
  return merged;
}

export function encodeKeySet(keySet: KeySet): string {
  return encodeStoredPactValue(keySet);
}

export function decodeKeySet(text: string, key: string): KeySet {
  const value = parseValue(text, key);
  if (!isGuard(value) || value.kind !== "keyset") throw decodeFailureError(key);
  return value;
}

export function encodeNamespace(ns: NamespaceRecord): string {
  return encodeStoredPactValue(
    new Map<string, PactValue>([
      ["admin", ns.admin],
      ["user", ns.user],
      ["name", ns.name],
    ]),
  );
}

export function decodeNamespace(text: string, key: string): NamespaceRecord {
  const fields = parseObject(text, key);
  const name = fields.get("name");
  const user = decodeOptionalField(fields.get("user"), key);
  const admin = decodeOptionalField(fields.get("admin"), key);
  if (typeof name !== "string" || !isGuard(user) || !isGuard(admin)) throw decodeFailureError(key);
  return { name, user, admin };
}

export function encodeModule(module: StoredModule): string {
  return encodeStoredPactValue(
    new Map<string, PactValue>([
      ["hash", module.hash],
      ["code", module.code],
    ]),
  );
}

/**
 * How many decoded module records are kept, by their stored text. Every transaction that calls
 * a module reads its record again, and a record holds the module's whole code, so decoding it
 * each time was about a fifth of a token transfer's CPU time.
 */
export const MODULE_DECODE_CACHE_SIZE = 64;
const decodedModules = new Map<string, StoredModule>();

export function decodeModule(text: string, key: string): StoredModule {
  const cached = decodedModules.get(text);
  if (cached !== undefined) return cached;
  const fields = parseObject(text, key);
  const hash = fields.get("hash");
  const code = fields.get("code");
  if (typeof hash !== "string" || typeof code !== "string") throw decodeFailureError(key);
  const decoded: StoredModule = { hash, code };
  if (decodedModules.size >= MODULE_DECODE_CACHE_SIZE) {
    decodedModules.delete(decodedModules.keys().next().value as string);
  }
  decodedModules.set(text, decoded);
  return decoded;
}

function parseObject(text: string, key: string): Map<string, JsonValue> {
  let json: JsonValue;
  try {
    json = parseJson(text);
  } catch {
    throw decodeFailureError(key);
  }
  if (!(json instanceof Map)) throw decodeFailureError(key);
  return json;
}

function parseValue(text: string, key: string): PactValue {
  try {
    return decodeStoredPactValue(parseJson(text));
  } catch {
    throw decodeFailureError(key);
  }
}

function decodeField(json: JsonValue, key: string): PactValue {
  try {
    return decodeStoredPactValue(json);
  } catch {
    throw decodeFailureError(key);
  }
}

function decodeOptionalField(json: JsonValue | undefined, key: string): PactValue | undefined {
  return json === undefined ? undefined : decodeField(json, key);
}
