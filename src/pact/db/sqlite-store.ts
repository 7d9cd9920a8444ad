/**
 * The SQLite backend (better-sqlite3; schema in schema.ts). Every statement is prepared once
 * when the store opens, and every name and key is a bound parameter. Nested transactions are
 * `BEGIN IMMEDIATE` outermost and savepoints inside, so a block is one database transaction
 * with a savepoint per command.
 */
import Database from "better-sqlite3";
import { STATE_SCHEMA_SQL, STATE_SCHEMA_VERSION, SYSTEM_DOMAIN_IDS } from "./schema.ts";
import { StateWriteLost } from "./storage-failure.ts";
import type { StoreReader, VersionedStore } from "./store.ts";
import type { BlockRecord } from "./types.ts";

export interface SqliteStoreOptions {
  /**
   * Extra pragmas, applied after the defaults (`journal_mode = WAL`, `synchronous = NORMAL`,
   * `wal_autocheckpoint` = {@link WAL_CHECKPOINT_PAGES}, `temp_store = MEMORY`),
   * e.g. `["cache_size = -65536", "synchronous = FULL"]`. They come from the node's
   * configuration, never from a contract.
   */
  readonly pragmas?: readonly string[];
  /**
   * Keeps committed blocks in one open database transaction until {@link SqliteStore.flush}
   * (each outermost level is then a savepoint inside it), which saves a commit per block. For
   * owners that can redo what a crash drops: the node replays its stored blocks on start-up.
   */
  readonly batchCommits?: boolean;
  /**
   * Opens an existing state for reading only (another connection, on another thread, writes
   * it): no pragma or schema is applied and every write fails. Reads that must agree with each
   * other run in {@link SqliteStore.readSnapshot}.
   */
  readonly readOnly?: boolean;
}

/**
 * Pages the write-ahead log may hold before SQLite copies them back into the database file
 * (SQLite's default is 1000, about 4 MB). Checkpoints sync the disk; spacing them out lets
 * pages changed by several blocks be written back once. Measured on block execution: half the
 * time per transfer of the default. The log file grows to about this many pages (~40 MB).
 */
export const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * With WAL, NORMAL syncs at checkpoints only: a crash cannot corrupt the file. Temporary storage
 * in memory keeps the savepoints' journals (a savepoint per command) off the disk: this build of
 * SQLite writes them to files in /var/tmp once they pass 64 kB, thousands of writes a second
 * under load (measured: transfers/s through the node +8 %).
 */
const DEFAULT_PRAGMAS = [
  "journal_mode = WAL",
  "synchronous = NORMAL",
  `wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`,
  "temp_store = MEMORY",
];

export class SqliteStore implements VersionedStore {
  private readonly db: Database.Database;
  /** User table name → domain id, for the latest state; cleared when a rollback may drop one. */
  private readonly domainIds = new Map<string, number>(SYSTEM_DOMAIN_IDS);
  private level = 0;
  /** Whether a read snapshot (`beginSnapshot`) is held. */
  private snapshotHeld = false;
  private readonly batchCommits: boolean;
  /** Whether the database transaction holding batched levels is open. */
  private batchOpen = false;

  private readonly beginStmt: Database.Statement;
  private readonly beginReadStmt: Database.Statement;
  private readonly commitStmt: Database.Statement;
  private readonly rollbackStmt: Database.Statement;
  private readonly savepointStmt: Database.Statement;
  private readonly releaseStmt: Database.Statement;
  private readonly rollbackToStmt: Database.Statement;
  private readonly domainIdStmt: Database.Statement;
  private readonly insertDomainStmt: Database.Statement;
  private readonly rowStmts: RowStatements;
  private readonly domainIdBeforeStmt: Database.Statement;
  private readonly insertStmt: Database.Statement;
  private readonly getMetaStmt: Database.Statement;
  private readonly setMetaStmt: Database.Statement;
  private readonly insertBlockStmt: Database.Statement;
  private readonly blockStmt: Database.Statement;
  private readonly latestBlockStmt: Database.Statement;
  private readonly rewindTx: (height: number, txIdBound: number) => void;

  /** Opens (creating if needed) the state at `path`, or an in-memory one for ":memory:". */
  constructor(path: string, options: SqliteStoreOptions = {}) {
    const readOnly = options.readOnly ?? false;
    this.db = new Database(path, readOnly ? { readonly: true, fileMustExist: true } : {});
    this.batchCommits = options.batchCommits ?? false;
    try {
      if (!readOnly) {
        for (const pragma of [...DEFAULT_PRAGMAS, ...(options.pragmas ?? [])]) {
          this.db.pragma(pragma);
        }
        this.db.exec(STATE_SCHEMA_SQL);
      }
      this.checkSchemaVersion(path);
    } catch (error) {
      this.db.close();
      throw error;
    }
    const db = this.db;
    this.beginStmt = db.prepare("BEGIN IMMEDIATE");
    this.beginReadStmt = db.prepare("BEGIN DEFERRED");
    this.commitStmt = db.prepare("COMMIT");
    this.rollbackStmt = db.prepare("ROLLBACK");
    this.savepointStmt = db.prepare("SAVEPOINT level");
    this.releaseStmt = db.prepare("RELEASE level");
    this.rollbackToStmt = db.prepare("ROLLBACK TO level");
    this.domainIdStmt = db.prepare("SELECT id FROM domains WHERE name = ?").pluck();
    this.insertDomainStmt = db.prepare("INSERT INTO domains (name, txid, height) VALUES (?, ?, ?)");
    this.insertStmt = db.prepare(
      "INSERT OR REPLACE INTO history (domain, key, txid, height, value) VALUES (?, ?, ?, ?, ?)",
    );
    this.getMetaStmt = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
    this.setMetaStmt = db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)");
    this.insertBlockStmt = db.prepare(
      "INSERT INTO blocks (height, end_txid, hash) VALUES (?, ?, ?)",
    );
    this.blockStmt = db.prepare("SELECT height, end_txid, hash FROM blocks WHERE height = ?").raw();
    this.latestBlockStmt = db
      .prepare("SELECT height, end_txid, hash FROM blocks ORDER BY height DESC LIMIT 1")
      .raw();
    this.domainIdBeforeStmt = db
      .prepare("SELECT id FROM domains WHERE name = ? AND txid < ?")
      .pluck();
    this.rowStmts = {
      get: db
        .prepare(
          `SELECT value FROM history WHERE domain = ? AND key = ? AND txid < ?
           ORDER BY txid DESC LIMIT 1`,
        )
        .pluck(),
      keys: db
        .prepare("SELECT DISTINCT key FROM history WHERE domain = ? AND txid < ? ORDER BY key")
        .pluck(),
      // SQLite takes the bare columns of a max() aggregate from the row holding the maximum.
      entries: db
        .prepare(
          `SELECT key, value, max(txid) FROM history WHERE domain = ? AND txid < ?
           GROUP BY key ORDER BY key`,
        )
        .raw(),
    };
    this.rewindTx = this.prepareRewind();
  }

  hasDomain(domain: string): boolean {
    return this.domainId(domain) !== undefined;
  }

  get(domain: string, key: string): string | undefined {
    const id = this.domainId(domain);
    return id === undefined ? undefined : getRow(this.rowStmts, id, key, LATEST);
  }

  keys(domain: string): string[] {
    const id = this.domainId(domain);
    return id === undefined ? [] : listKeys(this.rowStmts, id, LATEST);
  }

  entries(domain: string): Array<[string, string]> {
    const id = this.domainId(domain);
    return id === undefined ? [] : listEntries(this.rowStmts, id, LATEST);
  }

  createDomain(domain: string, txId: number, height: number): void {
    const id = Number(this.insertDomainStmt.run(domain, txId, height).lastInsertRowid);
    this.domainIds.set(domain, id);
  }

  put(domain: string, key: string, value: string, txId: number, height: number): void {
    const id = this.domainId(domain);
    if (id === undefined) throw new Error(`domain ${domain} does not exist`);
    this.insertStmt.run(id, key, txId, height, value);
  }

  get depth(): number {
    return this.level;
  }

  begin(): void {
    if (this.level === 0 && !this.batchCommits) this.beginStmt.run();
    else {
      this.checkBatch();
      if (this.level === 0 && !this.batchOpen) {
        this.beginStmt.run();
        this.batchOpen = true;
      }
      this.savepointStmt.run();
    }
    this.level++;
  }

  commit(): void {
    if (this.level === 0) throw new Error("commit without a transaction");
    (this.level === 1 && !this.batchCommits ? this.commitStmt : this.releaseStmt).run();
    this.level--;
  }

  rollback(): void {
    if (this.level === 0) throw new Error("rollback without a transaction");
    if (this.level === 1 && !this.batchCommits) this.rollbackStmt.run();
    else {
      this.rollbackToStmt.run();
      this.releaseStmt.run();
    }
    this.level--;
    this.forgetUserDomains();
  }

  /**
   * Starts one snapshot of the file (a read transaction), so that every read until
   * `endSnapshot` sees the same committed blocks however another connection writes meanwhile.
   * The table ids cached for the latest state are read again: another connection may have
   * rewound them away.
   */
  beginSnapshot(): void {
    if (this.level !== 0 || this.batchOpen) throw new Error("a read snapshot inside a transaction");
    this.forgetUserDomains();
    this.beginReadStmt.run();
    this.snapshotHeld = true;
  }

  endSnapshot(): void {
    if (!this.snapshotHeld) return;
    this.snapshotHeld = false;
    if (this.db.inTransaction) this.rollbackStmt.run();
  }

  /** Commits the batched levels (with `batchCommits`; nothing otherwise). */
  flush(): void {
    if (!this.batchOpen) return;
    if (this.level !== 0) throw new Error("flush inside a transaction");
    this.checkBatch();
    this.commitStmt.run();
    this.batchOpen = false;
  }

  /**
   * Refuses to go on when SQLite threw the batch away: after a failed write (a full disk) it may
   * roll the whole transaction back, and a savepoint opened then would start a new one whose
   * blocks, committed on their own, would sit in the file without the blocks before them.
   */
  private checkBatch(): void {
    if (this.batchOpen && !this.db.inTransaction) {
      throw new StateWriteLost(
        "the contract state's blocks since its last flush were rolled back by a failed write",
      );
    }
  }

  /**
   * Gives up every open level; when that fails, or SQLite threw the batch away, the whole
   * database transaction (batched blocks included) goes, and the store holds what its file does.
   */
  recover(): void {
    try {
      while (this.level > 0) this.rollback();
    } catch {
      // The transaction is gone or unusable: rolled back whole below.
    }
    if (this.level > 0 || (this.batchOpen && !this.db.inTransaction)) {
      if (this.db.inTransaction) this.rollbackStmt.run();
      this.level = 0;
      this.batchOpen = false;
    }
    this.forgetUserDomains();
  }

  saveNextTxId(txId: number): void {
    this.setMetaStmt.run("next_txid", String(txId));
  }

  loadNextTxId(): number {
    const saved = this.getMetaStmt.get("next_txid") as string | undefined;
    return saved === undefined ? 0 : Number(saved);
  }

  readerBefore(txIdBound: number): StoreReader {
    return new SqliteReaderBefore(this.rowStmts, this.domainIdBeforeStmt, txIdBound);
  }

  recordBlock(block: BlockRecord): void {
    this.insertBlockStmt.run(block.height, block.endTxId, Buffer.from(block.hash));
  }

  block(height: number): BlockRecord | undefined {
    const row = this.blockStmt.get(height) as BlockRow | undefined;
    return row === undefined ? undefined : toBlockRecord(row);
  }

  latestBlock(): BlockRecord | undefined {
    const row = this.latestBlockStmt.get() as BlockRow | undefined;
    return row === undefined ? undefined : toBlockRecord(row);
  }

  rewind(height: number, txIdBound: number): void {
    if (this.level !== 0) throw new Error("rewind inside a transaction");
    this.rewindTx(height, txIdBound);
    this.forgetUserDomains();
  }

  /** Commits what is batched (when no level is open) and closes the file, even when that fails. */
  close(): void {
    try {
      if (this.level === 0) this.flush();
    } finally {
      this.db.close();
    }
  }

  private domainId(domain: string): number | undefined {
    const cached = this.domainIds.get(domain);
    if (cached !== undefined) return cached;
    const id = this.domainIdStmt.get(domain) as number | undefined;
    if (id !== undefined) this.domainIds.set(domain, id);
    return id;
  }

  private forgetUserDomains(): void {
    this.domainIds.clear();
    for (const [name, id] of SYSTEM_DOMAIN_IDS) this.domainIds.set(name, id);
  }

  private prepareRewind(): (height: number, txIdBound: number) => void {
    const deleteVersions = this.db.prepare("DELETE FROM history WHERE txid >= ?");
    const deleteDomains = this.db.prepare("DELETE FROM domains WHERE txid >= ?");
    const deleteBlocks = this.db.prepare("DELETE FROM blocks WHERE height > ?");
    return this.db.transaction((height: number, txIdBound: number) => {
      deleteVersions.run(txIdBound);
      deleteDomains.run(txIdBound);
      deleteBlocks.run(height);
      this.saveNextTxId(txIdBound);
    });
  }

  private checkSchemaVersion(path: string): void {
    const stored = this.db
      .prepare("SELECT value FROM meta WHERE key = 'schema_version'")
      .pluck()
      .get();
    if (stored === undefined && this.db.readonly) {
      throw new Error(`${path}: not a contract state (no schema version)`);
    }
    if (stored === undefined) {
      this.db
        .prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)")
        .run(String(STATE_SCHEMA_VERSION));
    } else if (stored !== String(STATE_SCHEMA_VERSION)) {
      throw new Error(
        `${path}: contract state schema version ${String(stored)}, expected ${STATE_SCHEMA_VERSION}`,
      );
    }
  }
}

/** Reads at a tx id bound; the latest state is the bound {@link LATEST}. */
interface RowStatements {
  readonly get: Database.Statement;
  readonly keys: Database.Statement;
  readonly entries: Database.Statement;
}

/** A bound above every transaction id. */
const LATEST = Number.MAX_SAFE_INTEGER;

function getRow(stmts: RowStatements, domain: number, key: string, bound: number) {
  return stmts.get.get(domain, key, bound) as string | undefined;
}

function listKeys(stmts: RowStatements, domain: number, bound: number): string[] {
  return stmts.keys.all(domain, bound) as string[];
}

function listEntries(stmts: RowStatements, domain: number, bound: number): Array<[string, string]> {
  return (stmts.entries.all(domain, bound) as Array<[string, string, number]>).map(
    ([key, value]) => [key, value],
  );
}

type BlockRow = [number, number, Buffer];

function toBlockRecord([height, endTxId, hash]: BlockRow): BlockRecord {
  return { height, endTxId, hash: new Uint8Array(hash) };
}

/** Reads of the state before a transaction id (valid until a rewind below it). */
class SqliteReaderBefore implements StoreReader {
  constructor(
    private readonly stmts: RowStatements,
    private readonly domainIdStmt: Database.Statement,
    private readonly bound: number,
  ) {}

  hasDomain(domain: string): boolean {
    return this.domainId(domain) !== undefined;
  }

  get(domain: string, key: string): string | undefined {
    const id = this.domainId(domain);
    return id === undefined ? undefined : getRow(this.stmts, id, key, this.bound);
  }

  keys(domain: string): string[] {
    const id = this.domainId(domain);
    return id === undefined ? [] : listKeys(this.stmts, id, this.bound);
  }

  entries(domain: string): Array<[string, string]> {
    const id = this.domainId(domain);
    return id === undefined ? [] : listEntries(this.stmts, id, this.bound);
  }

  /** Domain ids of this (fixed) state, looked up once each. */
  private readonly domainIds = new Map<string, number | undefined>(SYSTEM_DOMAIN_IDS);

  private domainId(domain: string): number | undefined {
    if (this.domainIds.has(domain)) return this.domainIds.get(domain);
    const id = this.domainIdStmt.get(domain, this.bound) as number | undefined;
    this.domainIds.set(domain, id);
    return id;
  }
}
