/**
 * The interpreter's public entry point. Other layers (execution, the API, the CLI, the node) run
 * Pact only through this file, plus the public `index.ts` of `pact/values` (the value
 * representation and its JSON codec) and `pact/db` (the contract state).
 *
 * - Running code: {@link createRuntime} for a command, {@link createDefaultRuntime} for a REPL-like
 *   environment; {@link runSource} / {@link runForm} to run code, {@link continueDefPact} for a
 *   `cont` payload, {@link compileOnly} to compile modules without running them.
 * - What callers pass in: the execution environment, gas meters, natives, module storage.
 * - What comes out: values, events, the defpact state, and errors.
 * - Files and the REPL (the CLI's `braid` modes).
 */

export type { LoadedModule } from "./compile/ir.ts";
export {
  type ContinuationPayload,
  type ContinuationVerifier,
  continueDefPact,
  NO_SPV_SUPPORT,
} from "./eval/defpact-engine.ts";
export {
  type DefPactExec,
  decodeDefPactExecValue,
  encodeDefPactExec,
} from "./eval/defpact-exec.ts";
// The environment a runtime runs in
export type {
  ChainData,
  ExecutionEnv,
  ExecutionMode,
  NamespacePolicy,
  SpvVerifier,
} from "./eval/env.ts";
export { EXECUTION_FLAGS } from "./eval/flags.ts";
export { DbModuleStore } from "./eval/module-store.ts";
export type { Runtime } from "./eval/runtime.ts";
export type { TopLevelResult } from "./eval/toplevel.ts";
export type { PactEvent } from "./eval/types.ts";
// Running Pact
export {
  compileOnly,
  createDefaultRuntime,
  createRuntime,
  type Natives,
  type RuntimeOptions,
  runForm,
  runSource,
  type SourceOptions,
  topLevelSources,
  withCapabilityAcquired,
} from "./evaluate.ts";
export {
  FreeGasMeter,
  type GasFrameKind,
  type GasMeter,
  type GasProfileFrame,
  GasProfiler,
  LimitedGasMeter,
  MILLIGAS_PER_GAS,
  PactGasMeter,
  TABLE_GAS_CONFIG,
  TABLE_GAS_MODEL,
} from "./gas/index.ts";
export {
  type HyperlaneMessage,
  packHyperlaneMessage,
  unpackHyperlaneMessage,
} from "./natives/hyperlane.ts";
export { ON_CHAIN_NATIVES } from "./natives/on-chain.ts";
// Files and the REPL
export { builtinNames, CORE_NATIVE_ORDER } from "./repl/builtins.ts";
export { runInteractive } from "./repl/interactive.ts";
export { findScript, runFile } from "./repl/run-file.ts";
export { ReplSession } from "./repl/session.ts";
// Errors
export { onChainErrorType, PactError, type PactErrorKind } from "./runtime/errors.ts";
export type { NativeDef } from "./runtime/types.ts";
// Source
export type { TopLevel } from "./syntax/ast.ts";
export { PactSyntaxError } from "./syntax/errors.ts";
export { parseProgram } from "./syntax/parser.ts";
