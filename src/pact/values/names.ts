/**
 * Pact's name syntax as its runtime parsers accept it (used when reading names from JSON):
 * identifiers, module names `ns.m`, qualified names `ns.m.f`, fully qualified names with a
 * module hash `ns.m.f.{hash}`, and JSON table names `ns.m:t`.
 */
import { decodeBase64Url, encodeBase64Url } from "../../crypto/base64url.ts";
import type { ModuleName } from "./types.ts";

/** An identifier: a letter or one of `%#+-_&$@<>=^?*!|/~`, then letters, digits or those. */
const IDENT = "[\\p{L}%#+\\-_&$@<>=^?*!|/~][\\p{L}0-9%#+\\-_&$@<>=^?*!|/~]*";
const IDENT_ONLY = new RegExp(`^${IDENT}$`, "u");
const MODULE_NAME = new RegExp(`^(${IDENT})(?:\\.(${IDENT}))?$`, "u");
const QUALIFIED_NAME = new RegExp(`^(${IDENT})\\.(${IDENT})(?:\\.(${IDENT}))?$`, "u");
const FULLY_QUALIFIED_NAME = new RegExp(
  `^(${IDENT})\\.(${IDENT})\\.(?:(${IDENT})\\.)?\\{([\\p{L}\\p{N}_-]+)\\}$`,
  "u",
);

/** The hash of the REPL's pseudo-module (compile/names.ts), which is no base64url hash. */
export const REPL_MODULE_HASH = "#repl";

/** The bytes of a module hash (BLAKE2b-256). */
export const MODULE_HASH_BYTES = 32;

/** `m` or `ns.m`. */
export function parseModuleName(text: string): ModuleName | null {
  const m = MODULE_NAME.exec(text);
  if (m === null) return null;
  return m[2] === undefined
    ? { namespace: null, name: m[1] as string }
    : { namespace: m[1] as string, name: m[2] };
}

export function renderModuleName(m: ModuleName): string {
  return m.namespace === null ? m.name : `${m.namespace}.${m.name}`;
}

/** A member of a module: `m.f` or `ns.m.f`. */
export interface QualifiedName {
  readonly module: ModuleName;
  readonly name: string;
}

export function parseQualifiedName(text: string): QualifiedName | null {
  const m = QUALIFIED_NAME.exec(text);
  if (m === null) return null;
  if (m[3] === undefined)
    return { module: { namespace: null, name: m[1] as string }, name: m[2] as string };
  return { module: { namespace: m[1] as string, name: m[2] as string }, name: m[3] };
}

export function renderQualifiedName(q: QualifiedName): string {
  return `${renderModuleName(q.module)}.${q.name}`;
}

/** A keyset predicate name: a bare identifier or a qualified name. */
export function isPredicateName(text: string): boolean {
  return IDENT_ONLY.test(text) || QUALIFIED_NAME.test(text);
}

/** `m.f.{hash}` or `ns.m.f.{hash}`, with the hash canonical base64url of any length. */
export function parseFullyQualifiedName(
  text: string,
): (QualifiedName & { readonly hash: string }) | null {
  const m = FULLY_QUALIFIED_NAME.exec(text);
  if (m === null) return null;
  const hash = canonicalHash(m[4] as string, null);
  if (hash === null) return null;
  if (m[3] === undefined) {
    return { module: { namespace: null, name: m[1] as string }, name: m[2] as string, hash };
  }
  return { module: { namespace: m[1] as string, name: m[2] as string }, name: m[3], hash };
}

/** `m:t` or `ns.m:t`, the table name form used in JSON. */
export function parseJsonTableName(
  text: string,
): { readonly module: ModuleName; readonly name: string } | null {
  const colon = text.lastIndexOf(":");
  if (colon < 0) return null;
  const module = parseModuleName(text.slice(0, colon));
  const name = text.slice(colon + 1);
  if (module === null || !IDENT_ONLY.test(name)) return null;
  return { module, name };
}

/**
 * The canonical base64url text of a hash given as base64url, or null when it does not decode
 * (or, with `length`, decodes to another number of bytes).
 */
export function canonicalHash(
  text: string,
  length: number | null = MODULE_HASH_BYTES,
): string | null {
  try {
    const bytes = decodeBase64Url(text);
    if (length !== null && bytes.length !== length) return null;
    return encodeBase64Url(bytes);
  } catch {
    return null;
  }
}
