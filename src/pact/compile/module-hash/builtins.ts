/**
 * Pact's builtins as its module hash encodes them: the index of the builtin in Pact 5's
 * `CoreBuiltin` enumeration (REPL-only builtins follow the core ones, as in `ReplCoreBuiltin`),
 * written as a CBOR unsigned integer. The names are Pact's unique internal names, including the
 * overloads the desugarer picks by argument count (`enumerate` with three arguments is
 * `enumerate-step`).
 */
import { PACT_CORE_BUILTINS, PACT_REPL_BUILTINS } from "../../runtime/pact-builtins.ts";

/**
 * The index written for a native Pact does not know (one only Braid has): outside both Pact
 * ranges, so such a module still gets a deterministic hash that no Pact module can have.
 */
export const UNKNOWN_BUILTIN_INDEX = 0xffff;

const INDEX = new Map<string, number>([
  ...PACT_CORE_BUILTINS.map((name, i): [string, number] => [name, i]),
  ...PACT_REPL_BUILTINS.map((name, i): [string, number] => [name, PACT_CORE_BUILTINS.length + i]),
]);

/** The encoded index of the builtin with Pact's internal name `name`. */
export function builtinIndex(name: string): number {
  return INDEX.get(name) ?? UNKNOWN_BUILTIN_INDEX;
}

/**
 * Overloads Pact's desugarer resolves from the number of arguments of a direct call
 * (`desugarAppArity`): `(- x)` calls `negate`, `(read t k fields)` calls `read-with-fields`, ….
 * Keyed by `name/argument count`.
 */
const ARITY_OVERLOADS: ReadonlyMap<string, string> = new Map([
  ["-/1", "negate"],
  ["enumerate/3", "enumerate-step"],
  ["select/3", "select-with-fields"],
  ["sort/2", "sort-object"],
  ["round/2", "round-prec"],
  ["ceiling/2", "ceiling-prec"],
  ["floor/2", "floor-prec"],
  ["str-to-int/2", "str-to-int-base"],
  ["read-msg/0", "read-msg-default"],
  ["define-keyset/1", "define-read-keyset"],
  ["yield/2", "yield-to-chain"],
  ["read/3", "read-with-fields"],
  // REPL builtins
  ["load/2", "load-with-env"],
  ["pact-state/1", "reset-pact-state"],
  ["continue-pact/2", "continue-pact-with-rollback"],
  ["continue-pact/3", "continue-pact-rollback-yield"],
  ["continue-pact/4", "continue-pact-rollback-yield-object"],
  ["env-gas/1", "env-set-gas"],
  ["env-gasmodel/0", "env-ask-gasmodel"],
  ["begin-tx/1", "begin-named-tx"],
  ["enforce-pact-version/2", "enforce-pact-version-range"],
]);

/** The builtin a direct call of native `name` with `argCount` arguments resolves to. */
export function overloadFor(name: string, argCount: number): string {
  return ARITY_OVERLOADS.get(`${name}/${argCount}`) ?? name;
}

/** Builtins whose direct call passes all its arguments as one list (`(hash-poseidon 1 2)`). */
export const LIST_ARGUMENT_BUILTINS: ReadonlySet<string> = new Set([
  "poseidon-hash-hack-a-chain",
  "hash-poseidon",
]);
