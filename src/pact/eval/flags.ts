/** The execution flags Braid knows: Pact's `ExecutionFlag` names, set by `env-exec-config` in the REPL and by a server's `flags` config. */
export const EXECUTION_FLAGS: readonly string[] = [
  "DisableModuleInstall",
  "DisableHistoryInTransactionalMode",
  "AllowReadInLocal",
  "DisablePactEvents",
  "EnforceKeyFormats",
  "RequireKeysetNs",
  "DisableRuntimeRTC",
  "EnableLegacyEventHashes",
  "DisablePact51",
  "DisablePact52",
  "DisablePact53",
  "DisablePact54",
  "DisableReentrancyCheck",
];
