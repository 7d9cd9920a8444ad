/**
 * Pact 5's builtins by their unique internal names, in the order of its enumerations. The order
 * matters twice: a builtin's position is its number in module hashes, and `braid -b` lists the
 * natives in this order. Overloads that Pact picks by argument count have internal names of their
 * own (`enumerate` with three arguments is `enumerate-step`); `-b` leaves those out.
 */

/** `CoreBuiltin` in declaration order: a name's position is its index in module hashes. */
// biome-ignore format: a table, kept compact
export const PACT_CORE_BUILTINS: readonly string[] = [
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
export const PACT_REPL_BUILTINS: readonly string[] = [
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

/** Internal names of overloads and variants, which `-b` does not list. */
export const PACT_INTERNAL_BUILTINS: ReadonlySet<string> = new Set([
  "round-prec",
  "ceiling-prec",
  "floor-prec",
  "sort-object",
  "str-to-int-base",
  "enumerate-step",
  "read-msg-default",
  "yield-to-chain",
  "define-read-keyset",
  "select-with-fields",
  "read-with-fields",
  "expect-failure-match",
  "begin-named-tx",
  "env-set-gas",
  "env-ask-gasmodel",
  "continue-pact-with-rollback",
  "continue-pact-rollback-yield",
  "continue-pact-rollback-yield-object",
  "reset-pact-state",
  "enforce-pact-version-range",
  "load-with-env",
]);
