/**
 * How the node runs Pact: the execution flags and namespace policy of each kind of run, as
 * chainweb-node sets them on its development network, where every fork is active from genesis
 * (its `applyCmd`, `applyLocal`, `buyGas`, `redeemGas`, `applyCoinbase` and `runGenesisPayload`).
 * No fork guard adds a flag there: the `DisablePact5x` flags and `DisableReentrancyCheck` are
 * never set. The one place in the node that decides them (docs/node.md, "Execution rules").
 */
import type { NamespacePolicy } from "../pact/index.ts";

export interface ExecutionRules {
  /** Pact's execution flags, by the names `EXECUTION_FLAGS` lists. */
  readonly flags: ReadonlySet<string>;
  readonly namespacePolicy: NamespacePolicy;
}

/**
 * Chainweb's `managedNamespacePolicy`: a new namespace needs `ns.validate`'s approval, and nothing
 * new may be installed in the root namespace.
 */
export const MANAGED_NAMESPACE_POLICY: NamespacePolicy = {
  kind: "managed",
  allowRoot: false,
  manager: "ns.validate",
};

/**
 * A user's command in a block, and `local?preflight=true` (which runs exactly as in a block): no
 * runtime check of return types, `describe-module` and `list-modules` refused, keys of the formats
 * Pact signs with only, new keysets only inside a namespace.
 */
export const TRANSACTION_RULES: ExecutionRules = {
  flags: new Set([
    "DisableRuntimeRTC",
    "DisableHistoryInTransactionalMode",
    "EnforceKeyFormats",
    "RequireKeysetNs",
  ]),
  namespacePolicy: MANAGED_NAMESPACE_POLICY,
};

/** Plain `local`: as in a block, but module tables may be read directly and history is allowed. */
export const LOCAL_RULES: ExecutionRules = {
  flags: new Set(["DisableRuntimeRTC", "EnforceKeyFormats", "AllowReadInLocal", "RequireKeysetNs"]),
  namespacePolicy: MANAGED_NAMESPACE_POLICY,
};

/**
 * The node's own transactions: genesis, the coinbase, buying gas (in a block and in the mempool's
 * check) and redeeming it. Root keysets and root modules are allowed here.
 */
export const SYSTEM_RULES: ExecutionRules = {
  flags: new Set(["DisableRuntimeRTC"]),
  namespacePolicy: { kind: "simple" },
};
