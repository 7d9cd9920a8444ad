/**
 * Keyset names as Pact parses them (`parseAnyKeysetName`): shared by the keyset natives and the
 * module hash, which records a keyset governance name in its parsed form.
 */

/** A keyset name: `name` (any non-empty text, the legacy form) or `ns.name`. */
export interface KeysetName {
  readonly namespace: string | null;
  readonly name: string;
}

// Pact's identifier: a letter or symbol, then letters, digits or symbols, `true` and `false`
// reserved; its token parser skips white space after each token.
const IDENT = "[\\p{L}%#+\\-_&$@<>=^?*!|/~][\\p{L}0-9%#+\\-_&$@<>=^?*!|/~]*";
const SPACE = "[\\t\\n\\v\\f\\r \\u00a0\\p{Zs}]*";
const QUALIFIED_KEYSET = new RegExp(`^(${IDENT})${SPACE}\\.${SPACE}(${IDENT})`, "u");
const RESERVED = new Set(["true", "false"]);

/**
 * Pact's `parseAnyKeysetName`: a prefix `ns.name` (whatever follows is ignored, as in Pact), or
 * else the whole text as a name without namespace; null for the empty text.
 */
export function parseKeysetName(text: string): KeysetName | null {
  const m = QUALIFIED_KEYSET.exec(text);
  if (m !== null && !RESERVED.has(m[1]!) && !RESERVED.has(m[2]!)) {
    return { namespace: m[1]!, name: m[2]! };
  }
  return text.length === 0 ? null : { namespace: null, name: text };
}

/** The key a keyset is stored under: `ns.name` or `name`. */
export function renderKeysetName(k: KeysetName): string {
  return k.namespace === null ? k.name : `${k.namespace}.${k.name}`;
}
