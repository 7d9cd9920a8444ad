/**
 * The natives `-b/--builtins` lists, in the order Pact 5 prints them (its `CoreBuiltin` enum, then
 * its REPL natives), without the internal overload names.
 */
import {
  PACT_CORE_BUILTINS,
  PACT_INTERNAL_BUILTINS,
  PACT_REPL_BUILTINS,
} from "../runtime/pact-builtins.ts";

/** Pact 5's core natives in `-b` order. */
export const CORE_NATIVE_ORDER: readonly string[] = PACT_CORE_BUILTINS.filter(
  (name) => !PACT_INTERNAL_BUILTINS.has(name),
);

/** Pact 5's REPL natives in `-b` order. */
export const REPL_NATIVE_ORDER: readonly string[] = PACT_REPL_BUILTINS.filter(
  (name) => !PACT_INTERNAL_BUILTINS.has(name),
);

/**
 * The names to list: every native of `provided` (plus the `cond` form, which Pact counts as a
 * native) in Pact's order, then any others in the order given.
 */
export function builtinNames(provided: Iterable<string>): string[] {
  const available = new Set(provided);
  available.add("cond");
  const ordered = [...CORE_NATIVE_ORDER, ...REPL_NATIVE_ORDER].filter((n) => available.has(n));
  const known = new Set(ordered);
  return [...ordered, ...[...available].filter((n) => !known.has(n))];
}
