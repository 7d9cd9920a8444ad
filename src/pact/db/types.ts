/**
 * The storage an execution sees: contract state in five domains (user tables, modules, keysets,
 * namespaces, defpact state), with transactions and, for the node, versions per block.
 *
 * Three layers of interface, each a superset of the one before:
 * - {@link PactDbView}: reads of one state (the latest, or "as of" a block);
 * - {@link PactDb}: reads, writes and transactions — what the interpreter needs;
 * - {@link VersionedPactDb}: blocks, reads as of a block height, rewinds — what the node needs.
 *
 * Both backends (memory for the REPL, SQLite for the node) implement {@link VersionedPactDb}
 * with the same semantics; `index.ts` opens them.
 */
import type { Guard, KeySet, ModuleName, PactObject } from "../values/types.ts";

/**
 * How `writeRow` treats an existing row (Pact's `WriteType`):
 * - `insert`: the row must not exist;
 * - `update`: the row must exist; the given fields replace those fields, the others stay;
 * - `write`: upsert; an existing row is merged like `update` (as Chainweb's and Pact's SQLite
 *   backends do; only Pact's in-memory mock replaces the row outright).
 */
export type WriteMode = "insert" | "update" | "write";

/**
 * Pact's `ExecutionMode`: `transactional` commits on `commitTx`; `local` (the node's `local`
 * endpoint) runs like a transaction but `commitTx` discards every write.
 */
export type ExecutionMode = "transactional" | "local";

/** One write of a transaction (Pact's `TxLog`): the domain, the key, the value stored. */
export interface TxLogEntry {
  /** `SYS:KeySets`, `SYS:Modules`, `SYS:Namespaces`, `SYS:Pacts`, `SYS:usertables`, or a user table. */
  readonly domain: string;
  readonly key: string;
  /**
   * The value as Pact 5 stores it (stored-bytes.ts; for rows, the whole row after merging): what
   * the `logs` hash covers.
   */
  readonly value: Uint8Array;
}

/** What a transaction installing a module logs beside the module's own record. */
export interface ModuleInstall {
  /** The module's code as written: logged after it (Pact's `SYS:ModuleSources`), not stored. */
  readonly source: string;
  /**
   * The module's CBOR as Pact 5 stores it (`ModuleData`), logged for it when Braid can write it
   * (compile/module-hash: `encodeStoredModule`, `encodeStoredInterface`); else Braid's own
   * record is logged.
   */
  readonly pactData: Uint8Array | null;
}

/** A module or interface as stored: its serialised form (opaque here) and its hash. */
export interface StoredModule {
  /** Unpadded base64url Blake2b-256 module hash. */
  readonly hash: string;
  /** The serialised module, as the evaluator wrote it. */
  readonly code: string;
}

/** Pact's `Namespace`: a name and the guards for using it and administering it. */
export interface NamespaceRecord {
  readonly name: string;
  readonly user: Guard;
  readonly admin: Guard;
}

/** A committed block of the versioned state. */
export interface BlockRecord {
  readonly height: number;
  /** The first transaction id after the block: the block's writes have smaller ids. */
  readonly endTxId: number;
  /** The block hash given at `commitBlock` (empty when none was given). */
  readonly hash: Uint8Array;
}

/** Domain names of the system tables, as they appear in tx logs (Pact's `renderDomain`). */
export const KEYSETS_DOMAIN = "SYS:KeySets";
export const MODULES_DOMAIN = "SYS:Modules";
export const NAMESPACES_DOMAIN = "SYS:Namespaces";
export const DEFPACTS_DOMAIN = "SYS:Pacts";
/** The tx log domain of `create-table` entries (not a stored domain). */
export const USER_TABLES_LOG_DOMAIN = "SYS:usertables";
/**
 * The domain a module's installing code is logged under (Pact's `SYS:ModuleSources`, keyed
 * `<module>{<hash>}`); Braid does not store it.
 */
export const MODULE_SOURCES_LOG_DOMAIN = "SYS:ModuleSources";

/** The system domains, which exist from the start and are never created or dropped. */
export const SYSTEM_DOMAINS: readonly string[] = [
  KEYSETS_DOMAIN,
  MODULES_DOMAIN,
  NAMESPACES_DOMAIN,
  DEFPACTS_DOMAIN,
];

/** Reads of one state. Keys are listed in ascending code-point order (SQLite's `ORDER BY`). */
export interface PactDbView {
  /** Whether `create-table` made this table (name from {@link userTableName}). */
  tableExists(table: string): boolean;
  /** The row, or null when absent. Throws `DbError` `no-such-table`. */
  readRow(table: string, key: string): PactObject | null;
  /** The row keys, ascending. Throws `DbError` `no-such-table`. */
  rowKeys(table: string): string[];
  /** Every row with its key, ascending by key (for `select` and `fold-db`). */
  rows(table: string): Array<readonly [string, PactObject]>;
  readModule(name: string): StoredModule | null;
  moduleNames(): string[];
  /**
   * What compiled modules are cached under (by name and hash, so a module compiles once): the
   * database itself, or for a scratch state (`scratchAt`) the state it was made from, so the
   * scratch states a chain's block imports run on do not compile its modules again each time.
   */
  readonly compiledModulesKey?: object;
  readKeySet(name: string): KeySet | null;
  keySetNames(): string[];
  readNamespace(name: string): NamespaceRecord | null;
  namespaceNames(): string[];
  /** The stored defpact state (opaque JSON text; `null` JSON marks a finished defpact). */
  readDefPact(pactId: string): string | null;
  defPactIds(): string[];
}

/**
 * Reads, writes and transactions. Writes outside a transaction apply at once (as in Pact's
 * REPL) under the current transaction id, without a tx log.
 */
export interface PactDb extends PactDbView {
  /** Creates a user table. Throws `DbError` `table-exists`. */
  createTable(module: ModuleName, name: string): void;
  /** Writes a row under `mode`. Throws `row-exists`, `row-missing` or `no-such-table`. */
  writeRow(mode: WriteMode, table: string, key: string, row: PactObject): void;
  /** `install` is given when a transaction installs the module (null for `static-redeploy`). */
  writeModule(name: string, module: StoredModule, install: ModuleInstall | null): void;
  writeKeySet(name: string, keySet: KeySet): void;
  writeNamespace(namespace: NamespaceRecord): void;
  writeDefPact(pactId: string, state: string): void;

  /**
   * Opens a transaction and returns the id its writes carry. Throws `tx-already-begun`.
   * Inside a block, the transaction is a savepoint of the block's transaction.
   */
  beginTx(mode?: ExecutionMode): number;
  /**
   * Ends the transaction and returns its writes in order. `transactional`: the writes stay
   * and the next transaction gets the next id; `local`: the writes are discarded.
   * Throws `not-in-tx`.
   */
  commitTx(): TxLogEntry[];
  /** Discards every write of the open transaction. Throws `not-in-tx`. */
  rollbackTx(): void;
  /** Whether a transaction is open. */
  readonly inTx: boolean;
  /** The id the next (or the open) transaction writes under. */
  readonly txId: number;
}

/**
 * What a block executed on a scratch state wrote, to be applied to the state itself
 * (`VersionedPactDb.applyBlock`): the tables it created and every row version it left, each
 * with the transaction id it was written under. Plain data (it crosses threads).
 */
export interface BlockWrites {
  /** The transaction id the block's first transaction had (the state's next when it began). */
  readonly firstTxId: number;
  /** The transaction id after its last. */
  readonly endTxId: number;
  /** Tables created, in the order they were created, with the transaction that created each. */
  readonly domains: readonly (readonly [name: string, txId: number])[];
  /** Every row version written, per table in order of transactions. */
  readonly rows: readonly (readonly [domain: string, key: string, txId: number, value: string])[];
}

/**
 * Reads of the state after one recorded block that keep each value read (`blockReads`), for the
 * scratch states of work on one read snapshot; only the state that made them takes them back
 * (`scratchOn`).
 */
export interface BlockReads {
  readonly block: BlockRecord;
}

/** A scratch state (`scratchAt`): a `PactDb` that keeps its writes to itself, and can list them. */
export interface ScratchDb extends PactDb {
  /**
   * What it wrote since it was made, or since transaction `sinceTxId` (the blocks run on it from
   * then on); nothing may be open.
   */
  writes(sinceTxId?: number): BlockWrites;
}

/**
 * Contract state versioned by block: every write is tagged with its transaction id and block
 * height, so the state after any recorded block can be read, and later blocks rewound.
 */
export interface VersionedPactDb extends PactDb {
  /**
   * Starts executing block `height`: its transactions run as savepoints of one database
   * transaction, written once by `commitBlock`. The height must follow the latest block
   * (any height when there is none): rewind first when switching forks.
   */
  beginBlock(height: number): void;
  /** Records and commits the open block. Throws when a transaction is still open. */
  commitBlock(hash?: Uint8Array): BlockRecord;
  /** Discards the open block with all its transactions. */
  abortBlock(): void;
  /** The height of the open block, or null. */
  readonly blockHeight: number | null;
  latestBlock(): BlockRecord | null;
  blockAt(height: number): BlockRecord | null;
  /** The state right after block `height` (a recorded block), read-only. */
  asOf(height: number): PactDbView;
  /**
   * A scratch database on the state after block `height`: it reads that state and keeps its
   * own writes in memory, where they vanish with it (the node's `local` with `rewindDepth`).
   * Valid until the next rewind.
   */
  scratchAt(height: number): ScratchDb;
  /**
   * Reads of the state after `block` (a recorded block, as `blockAt` gives it) that keep each
   * value read, for the scratch states of work on one read snapshot (`beginSnapshot`); they must
   * not outlive it.
   */
  blockReads(block: BlockRecord): BlockReads;
  /** A scratch database (as `scratchAt`'s) on `reads`, which hold the state it reads. */
  scratchOn(reads: BlockReads): ScratchDb;
  /**
   * Opens block `height` (as `beginBlock`) holding `writes`, what that block wrote when it was
   * executed on a scratch state after the latest block; commit or abort it as any block. Throws
   * when the writes were not made on the latest block's state.
   */
  applyBlock(height: number, writes: BlockWrites): void;
  /** Deletes everything written after block `height` (a recorded block). */
  rewindTo(height: number): void;
  /** Makes the committed blocks durable (when the backend holds commits back). */
  flush(): void;
  /**
   * Starts reading one snapshot of the committed state, until `endSnapshot`: a state opened
   * read-only beside the one that writes it (`openSqlitePactDb(path, {readOnly: true})`) reads
   * blocks that agree with each other in it, however the writer moves on meanwhile. While it is
   * held, the writer's log of changes cannot be copied back past it: hold it briefly.
   */
  beginSnapshot(): void;
  /** Ends the snapshot `beginSnapshot` started (nothing when none is held). */
  endSnapshot(): void;
  /**
   * After a failed write: closes the open block and transaction, if any, and reloads the state
   * from its store, which may hold fewer blocks than before (SQLite can roll back the blocks
   * batched since the last flush when the disk is full). Returns the latest block it holds.
   */
  recover(): BlockRecord | null;
  close(): void;
}
