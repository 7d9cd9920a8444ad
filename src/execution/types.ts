/**
 * What running one command takes and gives. The node and the development server both call
 * `executeCommand` (run.ts); they differ only in the block context, the database and the gas
 * settings they pass, and in the `metaData` they attach when encoding the result.
 */
import type { ExecutionMode, PactDb, TxLogEntry } from "../pact/db/index.ts";
import type {
  ContinuationVerifier,
  GasMeter,
  GasProfiler,
  NamespacePolicy,
  NativeDef,
  PactEvent,
  SpvVerifier,
} from "../pact/index.ts";
import type { CapToken, PactTime, PactValue } from "../pact/values/index.ts";
import type { CommandBounds, GasSettings } from "./gas-settings.ts";
import type { VerifierPlugins } from "./verifiers.ts";

/** The block a command runs in, as `chain-data` reports it. */
export interface BlockContext {
  readonly height: bigint;
  readonly time: PactTime;
  /** Unpadded base64url hash of the parent block (empty when there is none). */
  readonly prevBlockHash: string;
}

export interface ExecutionOptions {
  /** The contract state. The command runs in a transaction of its own on it. */
  readonly db: PactDb;
  /** `transactional` commits the writes; `local` rolls them back (and reports no tx id). */
  readonly mode: ExecutionMode;
  readonly block: BlockContext;
  readonly gas: GasSettings;
  /**
   * The work and value-size bounds of the command, whatever its gas; {@link COMMAND_BOUNDS}
   * unless given (the development server and the node's `local` use those).
   */
  readonly bounds?: CommandBounds;
  /** Execution flags (Pact's `ExecutionFlag` names, e.g. `DisablePactEvents`). */
  readonly flags: ReadonlySet<string>;
  /** Who may define namespaces and install root modules; `simple` (anyone) unless given. */
  readonly namespacePolicy?: NamespacePolicy;
  /**
   * Verifies the SPV proof of a cross-chain continuation; without one, a `cont` command with a
   * proof fails ("Cross-chain continuations not supported").
   */
  readonly continuationVerifier?: ContinuationVerifier | null;
  /** Verifies `verify-spv` proofs; without one, `verify-spv` fails ("SPV verification not supported"). */
  readonly spvVerifier?: SpvVerifier | null;
  /**
   * The verifier plugins the network enables: the command's verifiers are checked with them
   * before its code runs (and charged to its gas). Absent or null, verifiers are trusted as
   * sent (the development server, like Pact's own).
   */
  readonly verifierPlugins?: VerifierPlugins | null;
  /** The natives code is compiled against; {@link ON_CHAIN_NATIVES} unless given. */
  readonly natives?: ReadonlyMap<string, NativeDef>;
  /**
   * Capabilities granted before the code runs (Chainweb's "magic" capabilities, such as
   * `coin.GAS` for buying gas): code can require them but no user can acquire them.
   */
  readonly grantedCaps?: readonly CapToken[];
  /**
   * A capability acquired around the code as `with-capability` would acquire it, though the code
   * is not inside its module (Chainweb acquires a signer's `GAS_PAYER` around the gas purchase).
   */
  readonly acquiredCap?: CapToken;
  /**
   * The meter to charge instead of a new one from `gas` (the node charges a command's size, its
   * gas purchase and its code to one meter). `gas` still decides nothing else then.
   */
  readonly meter?: GasMeter;
  /**
   * Attributes every charge of the meter (a `PactGasMeter`) to the frame it is made in: the gas
   * profile of the command (src/pact/gas/profile.ts). Off unless given.
   */
  readonly profiler?: GasProfiler;
}

/** The failure object of a result (Pact 5's `PactOnChainError`). */
export interface OnChainError {
  readonly type: "SyntaxError" | "EvalError" | "TxFailure";
  /** At most {@link MAX_ERROR_MESSAGE_CHARS} characters. */
  readonly message: string;
  /** `<origin>:<line>`: `<toplevel>` or the fully qualified function, and a 0-based line. */
  readonly info: string;
}

export type CommandOutput =
  | { readonly status: "success"; readonly data: PactValue }
  | { readonly status: "failure"; readonly error: OnChainError };

/** A command's result before encoding (Pact's `CommandResult`, without `metaData`). */
export interface CommandOutcome {
  /** The request key: the command's hash as received. */
  readonly reqKey: string;
  /** Gas consumed (0 under free gas). */
  readonly gas: number;
  readonly result: CommandOutput;
  /** Unpadded base64url hash of the transaction's writes (of none for a failure). */
  readonly logs: string;
  readonly events: readonly PactEvent[];
  /** The defpact state after the command as JSON text, or null. */
  readonly continuation: string | null;
  /** The transaction id; null for a failure and in `local` mode. */
  readonly txId: number | null;
  /** The writes, in order (empty for a failure): what `logs` hashes. */
  readonly txLogs: readonly TxLogEntry[];
}
