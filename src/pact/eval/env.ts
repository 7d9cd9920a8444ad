/**
 * The execution environment of one transaction (Pact's `EvalEnv`): the transaction's data and
 * signatures, the chain it runs on, its hash, execution flags, the gas meter and the database.
 * The REPL changes it in place (`env-data`, `env-sigs`, …).
 */
import { blake2b256, encodeBase64Url } from "../../crypto/index.ts";
import type { ModuleStore } from "../compile/module-store.ts";
import { type ExecutionMode, openMemoryPactDb, type PactDb } from "../db/index.ts";
import type { ModuleRepresentation } from "../gas/index.ts";
import type { NativeDef } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type { CapToken, PactObject, PactValue } from "../values/types.ts";
import { FreeGasMeter, type GasMeter } from "./gas-meter.ts";
import { DbModuleStore } from "./module-store.ts";

/** What `chain-data` returns (Pact's `PublicData`). */
export interface ChainData {
  chainId: string;
  sender: string;
  gasLimit: bigint;
  gasPrice: Decimal;
  blockHeight: bigint;
  blockTime: PactTime;
  prevBlockHash: string;
}

export type { ExecutionMode };

/**
 * Who may define namespaces and install code in the root namespace (Pact's `NamespacePolicy`):
 * `simple` allows both to anyone; `managed` asks the defun `manager` (qualified name, taking the
 * namespace name and its admin guard) whether a new namespace may be defined, and allows root
 * installs only with `allowRoot`.
 */
export type NamespacePolicy =
  | { readonly kind: "simple" }
  | { readonly kind: "managed"; readonly allowRoot: boolean; readonly manager: string };

/**
 * Verifies the proof `verify-spv` is given (Pact's `_spvSupport`): the object the proof
 * establishes, or an `Error` whose message says why not. Chainweb supports the type `TXOUT`.
 */
export interface SpvVerifier {
  verifySpv(proofType: string, proof: PactObject): PactObject;
}

export interface ExecutionEnv {
  /** The transaction data `read-msg` and friends read: an object, or unit when there is none. */
  data: PactValue;
  /** Signer public keys and, for each, the capabilities its signature is scoped to (empty: any). */
  signers: Map<string, readonly CapToken[]>;
  /** Verifier names and the capabilities they grant. */
  verifiers: Map<string, readonly CapToken[]>;
  chainData: ChainData;
  /** The transaction hash (unpadded base64url). */
  txHash: string;
  /** Execution flags (`env-exec-config`), e.g. `DisablePact44`. */
  flags: Set<string>;
  mode: ExecutionMode;
  gas: GasMeter;
  /** The contract state. */
  db: PactDb;
  /** Modules and interfaces (kept in `db`). */
  modules: ModuleStore;
  /**
   * How stored modules represent source information and builtins, which deployment gas depends
   * on: the REPL's (as Pact's REPL) or, when absent, Chainweb's.
   */
  moduleRepresentation?: ModuleRepresentation;
  /** The namespace policy; absent means `simple`. */
  namespacePolicy?: NamespacePolicy;
  /** Verifies `verify-spv` proofs; absent, `verify-spv` fails ("SPV verification not supported"). */
  spv?: SpvVerifier;
}

/** Pact's default hash: Blake2b-256 of the empty string. */
export const DEFAULT_TX_HASH = encodeBase64Url(blake2b256(""));

export function defaultChainData(): ChainData {
  return {
    chainId: "",
    sender: "",
    gasLimit: 0n,
    gasPrice: Decimal.ZERO,
    blockHeight: 0n,
    blockTime: new PactTime(0n),
    prevBlockHash: "",
  };
}

/**
 * The REPL's starting environment: empty data, no signers, free gas, in-memory storage. `natives`
 * are those stored modules are compiled against when they are reloaded.
 */
export function defaultEnv(
  natives: ReadonlyMap<string, NativeDef>,
  db: PactDb = openMemoryPactDb(),
): ExecutionEnv {
  return {
    data: new Map(),
    signers: new Map(),
    verifiers: new Map(),
    chainData: defaultChainData(),
    txHash: DEFAULT_TX_HASH,
    flags: new Set(),
    mode: "transactional",
    gas: new FreeGasMeter(),
    db,
    modules: new DbModuleStore(db, natives),
  };
}
