/**
 * Pact's database semantics over any backend store, written once so the memory and SQLite
 * backends behave alike:
 * - insert fails on an existing row, update on a missing one; update and write merge the given
 *   fields into an existing row (Chainweb's behaviour);
 * - a transaction's writes carry its id; commit hands back its tx log and moves to the next id;
 *   a rollback, or a commit in `local` mode, leaves no write behind;
 * - writes outside a transaction apply at once, atomically, under the current id (Pact's REPL);
 * - blocks (`PactStateDb`): one store transaction per block, a savepoint per command, every
 *   write tagged with the block height; reads as of a block; rewinds.
 */
import { renderModuleName } from "../values/names.ts";
import type { KeySet, ModuleName, PactObject } from "../values/types.ts";
import { CachingBlockReads } from "./block-reads.ts";
import {
  decodeKeySet,
  decodeModule,
  decodeNamespace,
  decodeRow,
  encodeKeySet,
  encodeModule,
  encodeNamespace,
  encodeRow,
  mergeRows,
} from "./codec.ts";
import {
  blockSequenceError,
  noSuchBlockError,
  noSuchTableError,
  notInTxError,
  rowExistsError,
  rowMissingError,
  tableExistsError,
  txAlreadyBegunError,
} from "./errors.ts";
import { OverlayStore } from "./overlay-store.ts";
import { RowCache } from "./row-cache.ts";
import type { StoreReader, VersionedStore, WritableStore } from "./store.ts";
import {
  keySetBytes,
  moduleDataBytes,
  moduleSourceBytes,
  namespaceBytes,
  rowBytes,
  userTableBytes,
} from "./stored-bytes.ts";
import {
  type BlockReads,
  type BlockRecord,
  type BlockWrites,
  DEFPACTS_DOMAIN,
  type ExecutionMode,
  KEYSETS_DOMAIN,
  MODULE_SOURCES_LOG_DOMAIN,
  MODULES_DOMAIN,
  type ModuleInstall,
  NAMESPACES_DOMAIN,
  type NamespaceRecord,
  type PactDb,
  type PactDbView,
  type ScratchDb,
  type StoredModule,
  type TxLogEntry,
  USER_TABLES_LOG_DOMAIN,
  type VersionedPactDb,
  type WriteMode,
} from "./types.ts";

const utf8 = new TextEncoder();

/** The storage name of a user table, `<module>_<table>` (Pact's `renderTableName`). */
export function userTableName(module: ModuleName, table: string): string {
  return `${renderModuleName(module)}_${table}`;
}

/** Decoded reads of one state. */
export class StoreView implements PactDbView {
  constructor(protected readonly reader: StoreReader) {}

  tableExists(table: string): boolean {
    return this.reader.hasDomain(table);
  }

  readRow(table: string, key: string): PactObject | null {
    this.checkTable(table);
    const text = this.reader.get(table, key);
    return text === undefined ? null : decodeRow(text, key);
  }

  rowKeys(table: string): string[] {
    this.checkTable(table);
    return this.reader.keys(table);
  }

  rows(table: string): Array<readonly [string, PactObject]> {
    this.checkTable(table);
    return this.reader.entries(table).map(([key, text]) => [key, decodeRow(text, key)] as const);
  }

  readModule(name: string): StoredModule | null {
    const text = this.reader.get(MODULES_DOMAIN, name);
    return text === undefined ? null : decodeModule(text, name);
  }

  moduleNames(): string[] {
    return this.reader.keys(MODULES_DOMAIN);
  }

  readKeySet(name: string): KeySet | null {
    const text = this.reader.get(KEYSETS_DOMAIN, name);
    return text === undefined ? null : decodeKeySet(text, name);
  }

  keySetNames(): string[] {
    return this.reader.keys(KEYSETS_DOMAIN);
  }

  readNamespace(name: string): NamespaceRecord | null {
    const text = this.reader.get(NAMESPACES_DOMAIN, name);
    return text === undefined ? null : decodeNamespace(text, name);
  }

  namespaceNames(): string[] {
    return this.reader.keys(NAMESPACES_DOMAIN);
  }

  readDefPact(pactId: string): string | null {
    return this.reader.get(DEFPACTS_DOMAIN, pactId) ?? null;
  }

  defPactIds(): string[] {
    return this.reader.keys(DEFPACTS_DOMAIN);
  }

  protected checkTable(table: string): void {
    if (!this.reader.hasDomain(table)) throw noSuchTableError(table);
  }
}

interface OpenTx {
  readonly mode: ExecutionMode;
  readonly log: TxLogEntry[];
}

/** Reads, writes and transactions over a writable store. */
export class StorePactDb extends StoreView implements PactDb {
  protected tx: OpenTx | null = null;
  protected nextTxId: number;
  protected readonly rowCache = new RowCache();
  /**
   * Module records of the latest state by name (null: known absent). Every command that calls a
   * module reads its record, which holds the module's whole code; cleared with the row cache.
   */
  protected readonly moduleCache = new Map<string, StoredModule | null>();
  /**
   * Whether rows or modules were written since the store was last at depth 0: only then can an
   * undo take back something the caches hold (a read-only `local` keeps them).
   */
  private uncommittedRowWrites = false;
  private uncommittedModuleWrites = false;

  readonly compiledModulesKey: object;

  constructor(
    protected readonly store: WritableStore,
    /** The block height writes are tagged with. */
    private readonly heightOfWrites = 0,
    /** The state a scratch state was made from (its compiled modules are shared). */
    madeFrom?: PactDb,
  ) {
    super(store);
    this.nextTxId = store.loadNextTxId();
    this.compiledModulesKey = madeFrom?.compiledModulesKey ?? madeFrom ?? this;
  }

  get inTx(): boolean {
    return this.tx !== null;
  }

  get txId(): number {
    return this.nextTxId;
  }

  createTable(module: ModuleName, name: string): void {
    const table = userTableName(module, name);
    if (this.store.hasDomain(table)) throw tableExistsError(table);
    this.atomically(() => this.store.createDomain(table, this.nextTxId, this.writeHeight()));
    this.tx?.log.push({ domain: USER_TABLES_LOG_DOMAIN, key: name, value: userTableBytes(module) });
  }

  override readRow(table: string, key: string): PactObject | null {
    this.checkTable(table);
    const cached = this.rowCache.get(table, key);
    if (cached !== undefined) return cached;
    const text = this.store.get(table, key);
    const row = text === undefined ? null : decodeRow(text, key);
    this.rowCache.set(table, key, row);
    return row;
  }

  /** Writes a row; the caller must not change `row` afterwards (it may be cached as is). */
  writeRow(mode: WriteMode, table: string, key: string, row: PactObject): void {
    const old = this.readRow(table, key);
    if (old !== null && mode === "insert") throw rowExistsError(table, key);
    if (old === null && mode === "update") throw rowMissingError(table, key);
    const stored = old === null ? row : mergeRows(row, old);
    this.put(table, key, encodeRow(stored), rowBytes(stored));
    this.uncommittedRowWrites = true;
    this.rowCache.set(table, key, stored);
  }

  override readModule(name: string): StoredModule | null {
    const cached = this.moduleCache.get(name);
    if (cached !== undefined) return cached;
    const module = super.readModule(name);
    this.moduleCache.set(name, module);
    return module;
  }

  writeModule(name: string, module: StoredModule, install: ModuleInstall | null): void {
    const text = encodeModule(module);
    // Without Pact's CBOR of the module, the log holds Braid's record: the `logs` of such a
    // write are Braid's own.
    const pactData = install?.pactData ?? null;
    const logged = pactData === null ? utf8.encode(text) : moduleDataBytes(pactData);
    this.put(MODULES_DOMAIN, name, text, logged);
    this.uncommittedModuleWrites = true;
    this.moduleCache.set(name, module);
    if (install !== null) {
      this.tx?.log.push({
        domain: MODULE_SOURCES_LOG_DOMAIN,
        key: `${name}{${module.hash}}`,
        value: moduleSourceBytes(install.source),
      });
    }
  }

  writeKeySet(name: string, keySet: KeySet): void {
    this.put(KEYSETS_DOMAIN, name, encodeKeySet(keySet), keySetBytes(keySet));
  }

  writeNamespace(namespace: NamespaceRecord): void {
    this.put(
      NAMESPACES_DOMAIN,
      namespace.name,
      encodeNamespace(namespace),
      namespaceBytes(namespace),
    );
  }

  writeDefPact(pactId: string, state: string): void {
    this.put(DEFPACTS_DOMAIN, pactId, state, utf8.encode(state));
  }

  beginTx(mode: ExecutionMode = "transactional"): number {
    if (this.tx !== null) throw txAlreadyBegunError(this.nextTxId);
    this.store.begin();
    this.tx = { mode, log: [] };
    return this.nextTxId;
  }

  commitTx(): TxLogEntry[] {
    const tx = this.tx;
    if (tx === null) throw notInTxError("commit");
    this.tx = null;
    if (tx.mode === "local") {
      this.undo();
      return tx.log;
    }
    const next = this.nextTxId + 1;
    if (this.store.depth === 1) this.store.saveNextTxId(next);
    this.store.commit();
    this.committed();
    this.nextTxId = next;
    return tx.log;
  }

  rollbackTx(): void {
    if (this.tx === null) throw notInTxError("rollback");
    this.tx = null;
    this.undo();
  }

  protected writeHeight(): number {
    return this.heightOfWrites;
  }

  /** Discards the innermost store level, and the cached rows and modules it may have changed. */
  protected undo(): void {
    if (this.uncommittedRowWrites) this.rowCache.clear();
    if (this.uncommittedModuleWrites) this.moduleCache.clear();
    this.store.rollback();
    if (this.store.depth === 0) {
      this.uncommittedRowWrites = false;
      this.uncommittedModuleWrites = false;
    }
  }

  /** Forgets the cached rows and modules and what was written since the store was at depth 0. */
  protected forgetCached(): void {
    this.rowCache.clear();
    this.moduleCache.clear();
    this.uncommittedRowWrites = false;
    this.uncommittedModuleWrites = false;
  }

  /** After a commit: once nothing is open, every cached write is durable. */
  protected committed(): void {
    if (this.store.depth === 0) {
      this.uncommittedRowWrites = false;
      this.uncommittedModuleWrites = false;
    }
  }

  /** Stores `value` and logs `logged`, the bytes Pact 5 would store (stored-bytes.ts). */
  private put(domain: string, key: string, value: string, logged: Uint8Array): void {
    this.atomically(() => this.store.put(domain, key, value, this.nextTxId, this.writeHeight()));
    this.tx?.log.push({ domain, key, value: logged });
  }

  /** Runs a write inside the open transaction, or alone in a transaction of its own. */
  private atomically(write: () => void): void {
    if (this.tx !== null) {
      write();
      return;
    }
    this.store.begin();
    try {
      write();
    } catch (error) {
      this.undo();
      throw error;
    }
    this.store.commit();
    this.committed();
  }
}

/** A scratch state over a store overlay, which lists what was written on top. */
class ScratchPactDb extends StorePactDb implements ScratchDb {
  constructor(
    private readonly overlay: OverlayStore,
    heightOfWrites: number,
    madeFrom: PactDb,
  ) {
    super(overlay, heightOfWrites, madeFrom);
  }

  writes(sinceTxId?: number): BlockWrites {
    return this.overlay.writes(sinceTxId);
  }
}

/** A block being executed. */
interface OpenBlock {
  readonly height: number;
  readonly firstTxId: number;
}

/** The full contract state database: `PactDb` plus blocks, versions and rewinds. */
export class PactStateDb extends StorePactDb implements VersionedPactDb {
  private block: OpenBlock | null = null;
  private latest: BlockRecord | undefined;

  constructor(private readonly versions: VersionedStore) {
    super(versions);
    this.latest = versions.latestBlock();
  }

  get blockHeight(): number | null {
    return this.block?.height ?? null;
  }

  beginBlock(height: number): void {
    if (this.block !== null) throw blockSequenceError(`block ${this.block.height} is still open`);
    if (this.tx !== null) throw blockSequenceError("a transaction is open outside any block");
    if (this.latest !== undefined && height !== this.latest.height + 1)
      throw blockSequenceError(
        `block ${height} does not follow the latest block ${this.latest.height}; rewind first`,
      );
    this.store.begin();
    this.block = { height, firstTxId: this.nextTxId };
  }

  commitBlock(hash: Uint8Array = new Uint8Array(0)): BlockRecord {
    const block = this.block;
    if (block === null) throw blockSequenceError("no block is open");
    if (this.tx !== null)
      throw blockSequenceError(`a transaction of block ${block.height} is open`);
    const record: BlockRecord = { height: block.height, endTxId: this.nextTxId, hash };
    this.versions.recordBlock(record);
    this.store.saveNextTxId(this.nextTxId);
    this.store.commit();
    this.committed();
    this.block = null;
    this.latest = record;
    return record;
  }

  abortBlock(): void {
    const block = this.block;
    if (block === null) throw blockSequenceError("no block is open");
    while (this.store.depth > 0) this.undo();
    this.tx = null;
    this.block = null;
    this.nextTxId = block.firstTxId;
  }

  latestBlock(): BlockRecord | null {
    return this.latest ?? null;
  }

  blockAt(height: number): BlockRecord | null {
    return this.versions.block(height) ?? null;
  }

  asOf(height: number): PactDbView {
    return new StoreView(this.versions.readerBefore(this.recordedBlock(height).endTxId));
  }

  scratchAt(height: number): ScratchDb {
    const { endTxId } = this.recordedBlock(height);
    return new ScratchPactDb(
      new OverlayStore(this.versions.readerBefore(endTxId), endTxId),
      height + 1,
      this,
    );
  }

  blockReads(block: BlockRecord): BlockReads {
    return new CachingBlockReads(block, this.versions.readerBefore(block.endTxId));
  }

  scratchOn(reads: BlockReads): ScratchDb {
    if (!(reads instanceof CachingBlockReads)) throw new Error("block reads not made by a state");
    const { height, endTxId } = reads.block;
    return new ScratchPactDb(new OverlayStore(reads, endTxId), height + 1, this);
  }

  applyBlock(height: number, writes: BlockWrites): void {
    if (writes.firstTxId !== this.nextTxId) {
      throw blockSequenceError(
        `the block's writes begin at transaction ${writes.firstTxId}, the state is at ${this.nextTxId}`,
      );
    }
    this.beginBlock(height);
    try {
      for (const [name, txId] of writes.domains) this.store.createDomain(name, txId, height);
      for (const [domain, key, txId, value] of writes.rows) {
        this.store.put(domain, key, value, txId, height);
      }
    } catch (e) {
      this.abortBlock();
      throw e;
    }
    // The cached rows and modules are the previous block's.
    this.forgetCached();
    this.nextTxId = writes.endTxId;
  }

  rewindTo(height: number): void {
    if (this.block !== null || this.tx !== null)
      throw blockSequenceError("cannot rewind while a block or transaction is open");
    const target = this.recordedBlock(height);
    this.versions.rewind(height, target.endTxId);
    this.forgetCached();
    this.nextTxId = target.endTxId;
    this.latest = target;
  }

  flush(): void {
    this.versions.flush();
  }

  beginSnapshot(): void {
    this.versions.beginSnapshot();
  }

  endSnapshot(): void {
    this.versions.endSnapshot();
  }

  recover(): BlockRecord | null {
    this.versions.recover();
    this.tx = null;
    this.block = null;
    this.forgetCached();
    this.latest = this.versions.latestBlock();
    this.nextTxId = this.store.loadNextTxId();
    return this.latest ?? null;
  }

  close(): void {
    this.versions.close();
  }

  /** Writes belong to the open block, or else to the block after the latest one. */
  protected override writeHeight(): number {
    return this.block?.height ?? (this.latest === undefined ? 0 : this.latest.height + 1);
  }

  private recordedBlock(height: number): BlockRecord {
    const block = this.versions.block(height);
    if (block === undefined) throw noSuchBlockError(height);
    return block;
  }
}
