/**
 * Pact's builtins as its module hash encodes them: the index of the builtin in Pact 5's
 * `CoreBuiltin` enumeration (REPL-only builtins follow the core ones, as in `ReplCoreBuiltin`),
 * written as a CBOR unsigned integer. The names are Pact's unique internal names, including the
 * overloads the desugarer picks by argument count (`enumerate` with three arguments is
 * `enumerate-step`).
 */

/** `CoreBuiltin` in declaration order: a name's position is its encoded index. */
// biome-ignore format: a table, kept compact
const CORE_BUILTINS: readonly string[] = [
  "+", "-", "*", "/", "negate", "abs", "^", "not", "=", "!=", ">", ">=", "<", "<=", "&", "|",
  "xor", "~", "shift", "round", "ceiling", "floor", "round-prec", "ceiling-prec", "floor-prec",
  "exp", "ln", "sqrt", "log", "length", "take", "drop", "concat", "reverse", "contains", "sort",
  "sort-object", "remove", "mod", "map", "filter", "zip", "int-to-str", "str-to-int",
  "str-to-int-base", "fold", "distinct", "format", "enumerate", "enumerate-step", "show",
  "read-msg", "read-msg-default", "read-integer", "read-decimal", "read-string", "read-keyset",
  "enforce-guard", "enforce-keyset", "keyset-ref-guard", "at", "make-list", "base64-encode",
  "base64-decode", "str-to-list", "yield", "yield-to-chain", "resume", "bind",
  "require-capability", "compose-capability", "install-capability", "emit-event",
  "create-capability-guard", "create-capability-pact-guard", "create-module-guard",
  "create-pact-guard", "create-table", "describe-keyset", "describe-module", "describe-table",
  "define-keyset", "define-read-keyset", "fold-db", "insert", "keys", "read", "select",
  "select-with-fields", "update", "with-default-read", "with-read", "write", "tx-hash", "and?",
  "or?", "where", "not?", "hash", "continue", "parse-time", "format-time", "time", "add-time",
  "diff-time", "hours", "minutes", "days", "compose", "create-principal", "is-principal",
  "typeof-principal", "validate-principal", "namespace", "define-namespace", "describe-namespace",
  "chain-data", "is-charset", "pact-id", "pairing-check", "scalar-mult", "point-add",
  "poseidon-hash-hack-a-chain", "typeof", "dec", "cond", "identity", "verify-spv",
  "enforce-verifier", "acquire-module-admin", "hyperlane-message-id",
  "hyperlane-decode-token-message", "hyperlane-encode-token-message", "read-with-fields",
  "list-modules", "static-redeploy", "hash-keccak256", "hash-poseidon",
];

/** `ReplOnlyBuiltin` in declaration order, numbered after the core builtins. */
// biome-ignore format: a table, kept compact
const REPL_BUILTINS: readonly string[] = [
  "expect", "expect-failure", "expect-failure-match", "expect-that", "print", "env-stackframe",
  "env-chain-data", "env-data", "env-events", "env-hash", "env-keys", "env-sigs", "begin-tx",
  "begin-named-tx", "commit-tx", "rollback-tx", "sig-keyset", "test-capability",
  "env-exec-config", "env-namespace-policy", "env-gas", "env-set-gas", "env-milligas",
  "env-set-milligas", "env-gaslimit", "env-gaslog", "env-gasmodel", "env-ask-gasmodel",
  "continue-pact", "continue-pact-with-rollback", "continue-pact-rollback-yield",
  "continue-pact-rollback-yield-object", "pact-state", "reset-pact-state", "pact-version",
  "enforce-pact-version", "enforce-pact-version-range", "env-enable-repl-natives",
  "env-module-admin", "env-verifiers", "env-set-debug-flag", "load", "load-with-env", "typecheck",
];

/**
 * The index written for a native Pact does not know (one only Braid has): outside both Pact
 * ranges, so such a module still gets a deterministic hash that no Pact module can have.
 */
export const UNKNOWN_BUILTIN_INDEX = 0xffff;

const INDEX = new Map<string, number>([
  ...CORE_BUILTINS.map((name, i): [string, number] => [name, i]),
  ...REPL_BUILTINS.map((name, i): [string, number] => [name, CORE_BUILTINS.length + i]),
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
