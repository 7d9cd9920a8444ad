/**
 * The execution layer: one verified command run against the contract state, and its result as
 * Pact's JSON. Used by the development server and the node.
 */
export { capToken } from "./cap-token.ts";
export { bounded, MAX_ERROR_MESSAGE_CHARS, onChainError, TOPLEVEL_ORIGIN } from "./errors.ts";
export { EXEC_SOURCE_NAME } from "./exec-code.ts";
export {
  BoundedGasMeter,
  boundsWithTimeLimit,
  COMMAND_BOUNDS,
  type CommandBounds,
  commandTimeoutMessage,
  DEFAULT_COMMAND_TIME_LIMIT_MS,
  DEFAULT_LOCAL_TIME_LIMIT_MS,
  FREE_GAS,
  FREE_GAS_WITH_COMMAND_LIMIT,
  type GasLimitSetting,
  type GasSettings,
  gasMeterFor,
  gasUsed,
  MAX_COMMAND_TIME_LIMIT_MS,
  MAX_COMMAND_VALUE_BYTES,
  MAX_COMMAND_WORK_MILLIGAS,
  timedOut,
} from "./gas-settings.ts";
export { ON_CHAIN_NATIVES } from "./natives.ts";
export { encodeCommandResult, encodeCommandResultAround, encodeEvents } from "./result-json.ts";
export { executeCommand, failureOutcome } from "./run.ts";
export type * from "./types.ts";
export {
  runVerifierPlugins,
  VerifierError,
  VerifierGas,
  type VerifierPlugin,
  type VerifierPlugins,
} from "./verifiers.ts";
