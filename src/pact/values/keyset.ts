/** Keysets: the built-in predicates and construction with Pact's key order. */
import { isPredicateName } from "./names.ts";
import { compareCodePoints } from "./text.ts";
import type { KeySet } from "./types.ts";

/** The predicates every keyset may name without defining them. */
export const BUILTIN_KEYSET_PREDICATES: readonly string[] = ["keys-all", "keys-any", "keys-2"];

/** A keyset with its keys sorted by code point and without duplicates (a Haskell `Set`). */
export function makeKeySet(keys: Iterable<string>, pred: string): KeySet {
  const sorted = [...new Set(keys)].sort(compareCodePoints);
  return { kind: "keyset", keys: sorted, pred };
}

/** Whether a predicate name is valid: a built-in one, a bare name or a qualified name. */
export function isKeySetPredicate(pred: string): boolean {
  return BUILTIN_KEYSET_PREDICATES.includes(pred) || isPredicateName(pred);
}
