/**
 * The chain database: every block header and payload a node has seen, for all chains of one
 * network version, in one SQLite file (or in memory) and, for payload bytes, one append-only log
 * per chain beside it (payload-log.ts). Headers of every fork are kept; a header is only
 * accepted when its parent is already stored (or it is its chain's genesis block), so ancestry
 * is always complete. The API is synchronous: better-sqlite3 runs each query on the calling
 * thread, which is fastest for small indexed lookups. Schema: schema.ts.
 *
 * This class is the façade: it owns the connection, its settings and checkpoints, the
 * statements' lifetime (each module prepares its own on this connection) and the insert
 * transaction, and delegates each job to its module: rows by hash (block-store.ts), the rules
 * a new block must meet (insert-rules.ts), ancestry (ancestry.ts), best heads and the cut
 * (fork-choice.ts), the request-key index (tx-index.ts), development snapshots and abandoned
 * blocks (snapshots.ts, when asked for), settings (settings.ts), block scans for pages
 * (block-scan.ts), schema upgrades (migrations/), and the indexes its opener registers through
 * the {@link BlockIndexer} hook (the node registers the explorer's: explorer-indexes.ts).
 */
import Database from "better-sqlite3";
import { equalBytes } from "../bytes.ts";
import type { BlockHeader } from "../header/types.ts";
import type { PayloadWithOutputs } from "../payload/payload.ts";
import type { ChainwebVersion } from "../version/version.ts";
import { Ancestry, type HeaderLink } from "./ancestry.ts";
import { BackgroundCheckpoint } from "./background-checkpoint.ts";
import type { BlockIndexer } from "./block-indexer.ts";
import { BlockScan, type ScanStart } from "./block-scan.ts";
import { type Block, BlockStore } from "./block-store.ts";
import { ForkChoice } from "./fork-choice.ts";
import type { HeaderReader } from "./header-reader.ts";
import { InsertRules } from "./insert-rules.ts";
import { checkStoredVersions, upgradeData, upgradeTables } from "./migrations/runner.ts";
import { type CorruptPayloadError, openPayloadLog, type PayloadLog } from "./payload-log.ts";
import { SCHEMA_SQL } from "./schema.ts";
import { Settings } from "./settings.ts";
import { DevSnapshots, NOT_ABANDONED, type SnapshotRevert } from "./snapshots.ts";
import { TxIndex, type TxIndexEntry, type TxLocation } from "./tx-index.ts";

// The modules' types, where callers have imported them from.
export type { HeaderLink } from "./ancestry.ts";
export type { Block } from "./block-store.ts";
export type { SnapshotRevert } from "./snapshots.ts";
export type { TxIndexEntry, TxLocation } from "./tx-index.ts";

/** How a chain database is opened beyond its path and network version. */
export interface ChainDatabaseOptions {
  /**
   * Indexes kept beside the database's own, each attached to its connection and told of every
   * block stored (the explorer's: explorer-indexes.ts).
   */
  readonly indexers?: readonly BlockIndexer[];
  /**
   * Whether it keeps development snapshots: saving the heads, reverting to them, and fork choice
   * passing over the blocks a revert abandoned. Off unless asked for (the development controls).
   */
  readonly devSnapshots?: boolean;
  /**
   * Told once of each damaged payload found when reading (its reads throw a
   * `CorruptPayloadError` every time): the node logs it.
   */
  readonly onCorruption?: (error: CorruptPayloadError) => void;
}

/** A block to store, with the transaction index entries of its commands (in payload order). */
export interface IndexedBlock extends Block {
  readonly index?: readonly TxIndexEntry[] | undefined;
  /**
   * The parent's link, when the caller holds the parent's stored header (the importer: its
   * chain's head), so it is not looked up again (a lookup by hash was ~2 % of an imported block).
   * Used only when its hash is the header's parent.
   */
  readonly parent?: HeaderLink;
}

/**
 * Blocks stored between two checkpoints, which copy the write-ahead log back into the database
 * file (about 10 pages a block, so ~10,000 pages, where SQLite's default is 1,000): spacing them
 * out halves the time of a small commit (measured: 4 blocks of 1.2 kB, 160–240 µs against
 * 320–480 µs). The database checkpoints itself, its disk syncs off the thread
 * (background-checkpoint.ts; SQLite's automatic checkpoints are off), the payload logs synced
 * first.
 */
export const CHAIN_CHECKPOINT_BLOCKS = 1_000;

export class ChainDatabase implements HeaderReader {
  readonly version: ChainwebVersion;
  private readonly db: Database.Database;
  private readonly payloadLog: PayloadLog;
  /** Null for a database in memory, which has no log to copy back. */
  private readonly checkpoints: BackgroundCheckpoint | null;
  private readonly store: BlockStore;
  private readonly rules: InsertRules;
  private readonly ancestry: Ancestry;
  private readonly forkChoice: ForkChoice;
  private readonly txIndex: TxIndex;
  /** Development snapshots and abandoned blocks, when the database keeps them. */
  private readonly snapshots: DevSnapshots | null;
  private readonly settings: Settings;
  private readonly scans: BlockScan;
  /** What indexes each stored block besides the request-key index (the opener registers them). */
  private readonly indexers: readonly BlockIndexer[];
  private readonly insertMany: (blocks: Iterable<IndexedBlock>) => number;

  /**
   * Opens (creating if needed) the database at `path`, or an in-memory one for ":memory:".
   * A file written for another network version or schema version is refused.
   */
  constructor(path: string, version: ChainwebVersion, options: ChainDatabaseOptions = {}) {
    this.version = version;
    this.db = new Database(path);
    try {
      this.db.pragma("journal_mode = WAL");
      // With WAL, NORMAL syncs at checkpoints only: a crash cannot corrupt the file, but a
      // power loss may drop the last commits, which peers or the miner can supply again.
      // (BackgroundCheckpoint moves those syncs off the thread, in the same order.)
      this.db.pragma("synchronous = NORMAL");
      this.db.pragma("wal_autocheckpoint = 0");
      // Statement journals in memory, not in files in /var/tmp (see the contract state's store).
      this.db.pragma("temp_store = MEMORY");
      this.db.exec(SCHEMA_SQL);
      checkStoredVersions(this.db, path, version.name);
      upgradeTables(this.db);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.payloadLog = openPayloadLog(path);
    this.checkpoints =
      path === ":memory:"
        ? null
        : new BackgroundCheckpoint(this.db, path, this.payloadLog, CHAIN_CHECKPOINT_BLOCKS);
    const db = this.db;
    this.store = new BlockStore(db, this.payloadLog, options.onCorruption);
    this.rules = new InsertRules(db, version);
    this.ancestry = new Ancestry(db, this.store);
    const keepsSnapshots = options.devSnapshots ?? false;
    this.forkChoice = new ForkChoice(
      db,
      version,
      this.store,
      keepsSnapshots ? NOT_ABANDONED : undefined,
    );
    this.txIndex = new TxIndex(db);
    this.snapshots = keepsSnapshots ? new DevSnapshots(db, version, this.store) : null;
    this.settings = new Settings(db);
    this.scans = new BlockScan(db, this.store, this.payloadLog);
    this.indexers = options.indexers ?? [];
    for (const indexer of this.indexers) indexer.attach(db);
    this.insertMany = db.transaction((blocks: Iterable<IndexedBlock>) =>
      this.payloadLog.holding(() => {
        let added = 0;
        for (const { header, payload, index, parent } of blocks) {
          if (!this.insertOne(header, payload, parent)) continue;
          added++;
          this.txIndex.record(header.hash, index ?? []);
          const stored = {
            hash: header.hash,
            chainId: header.chainId,
            height: header.height,
            payload,
          };
          for (const indexer of this.indexers) indexer.blockStored(stored);
        }
        return added;
      }),
    );
    upgradeData(db, this.indexers);
  }

  close(): void {
    this.checkpoints?.close();
    // The logs are synced as they close, before SQLite's last checkpoint.
    this.payloadLog.close();
    this.db.close();
  }

  /** Whether a checkpoint is under way (its disk syncs run in the background). */
  get checkpointing(): boolean {
    return this.checkpoints?.busy ?? false;
  }

  /** Resolves when no checkpoint is under way (its disk syncs run in the background). */
  checkpointsSettled(): Promise<void> {
    return this.checkpoints?.settled() ?? Promise.resolve();
  }

  /**
   * Stores a block. Returns false (and changes nothing) when the header is already stored.
   * Throws a HeaderInsertError (insert-rules.ts) when the header is of another network
   * version, its payload is not the one it names, its parent is not stored, or it does not
   * extend its parent (same chain, height + 1). A header without a stored parent is accepted
   * only as its chain's first genesis block (genesis height, the version's genesis parent
   * hash). Full validation (weight, target, time, braiding, PoW, hashes) is the caller's job.
   */
  insertBlock(
    header: BlockHeader,
    payload: PayloadWithOutputs,
    index?: readonly TxIndexEntry[],
  ): boolean {
    return this.insertBlocks([{ header, payload, index }]) === 1;
  }

  /**
   * Stores blocks, parents before children, in one transaction: all or none (an error in one
   * rolls back the others). Returns how many were new.
   */
  insertBlocks(blocks: Iterable<IndexedBlock>): number {
    this.checkpoints?.check();
    const added = this.insertMany(blocks);
    this.checkpoints?.stored(added);
    return added;
  }

  /**
   * Runs `work` in one transaction: the `insertBlocks` calls it makes are stored together when it
   * returns (each still all or none: an error in one rolls back only that call's blocks), or none
   * of them when it throws.
   */
  inOneTransaction<T>(work: () => T): T {
    return this.db.transaction(() => this.payloadLog.holding(work))();
  }

  /** Stores one block of the insert transaction (insert-rules.ts says what it must be). */
  private insertOne(
    header: BlockHeader,
    payload: PayloadWithOutputs,
    parentHeld?: HeaderLink,
  ): boolean {
    if (this.store.has(header.hash)) return false;
    this.rules.checkBlock(header, payload);
    let skip: Uint8Array | null = null;
    let skipAt: number | null = null;
    const parent =
      parentHeld !== undefined && equalBytes(parentHeld.hash, header.parent)
        ? parentHeld
        : this.ancestry.link(header.parent);
    if (parent === undefined) {
      this.rules.checkGenesis(header);
    } else {
      this.rules.checkExtends(header, parent);
      [skip, skipAt] = this.ancestry.skipPointer(header, parent);
      this.snapshots?.inheritAbandonment(header.hash, header.parent);
    }
    this.store.put(header, payload, skip, skipAt);
    return true;
  }

  // Blocks by hash: block-store.ts.

  /** Whether a header is stored (without reading it). */
  has(hash: Uint8Array): boolean {
    return this.store.has(hash);
  }

  header(hash: Uint8Array): BlockHeader | undefined {
    return this.store.header(hash);
  }

  block(hash: Uint8Array): Block | undefined {
    return this.store.block(hash);
  }

  /** The output of the command at `position` of a stored block, without decoding the block. */
  commandOutput(blockHash: Uint8Array, position: number): Uint8Array | undefined {
    return this.store.commandOutput(blockHash, position);
  }

  payload(payloadHash: Uint8Array): PayloadWithOutputs | undefined {
    return this.store.payload(payloadHash);
  }

  // Ancestry: ancestry.ts.

  /** Chain, height and parent of a stored header, without decoding it. */
  link(hash: Uint8Array): HeaderLink | undefined {
    return this.ancestry.link(hash);
  }

  /** {@link Ancestry.linksInRange}: a chain's links from height `low` to `high`, at most `count`. */
  linksInRange(chainId: number, low: number, high: number, count: number): HeaderLink[] {
    return this.ancestry.linksInRange(chainId, low, high, count);
  }

  /** The stored children of a header, ordered by hash bytes. */
  children(hash: Uint8Array): BlockHeader[] {
    return this.ancestry.children(hash);
  }

  /** The header itself, then its parent, and so on down to the genesis block. */
  ancestors(hash: Uint8Array): Generator<BlockHeader> {
    return this.ancestry.ancestors(hash);
  }

  /** {@link Ancestry.ancestorAt}: the ancestor (or the header itself) of `hash` at `height`. */
  ancestorAt(hash: Uint8Array, height: number): BlockHeader | undefined {
    return this.ancestry.ancestorAt(hash, height);
  }

  /** Like {@link ancestorAt} but returns only the hash (no header decoding). */
  ancestorHashAt(hash: Uint8Array, height: number): Uint8Array | undefined {
    return this.ancestry.ancestorHashAt(hash, height);
  }

  /** {@link Ancestry.isAncestor}: whether `ancestor` is `descendant` or one of its ancestors. */
  isAncestor(ancestor: Uint8Array, descendant: Uint8Array): boolean {
    return this.ancestry.isAncestor(ancestor, descendant);
  }

  /** Every stored header of a chain at a height (forks included), ordered by hash bytes. */
  headersAtHeight(chainId: number, height: number): BlockHeader[] {
    return this.ancestry.headersAtHeight(chainId, height);
  }

  // Best heads and the cut: fork-choice.ts.

  /** The largest stored height of a chain; undefined for a chain without blocks. */
  maxHeight(chainId: number): number | undefined {
    return this.forkChoice.maxHeight(chainId);
  }

  /** {@link ForkChoice.bestHead}: the heaviest header of a chain that is not abandoned. */
  bestHead(chainId: number): BlockHeader | undefined {
    return this.forkChoice.bestHead(chainId);
  }

  /** The chains of the version that have at least one stored block, ascending. */
  chainIds(): number[] {
    return this.forkChoice.chainIds();
  }

  /** {@link ForkChoice.cut}: the highest braided cut on the heaviest branches. */
  cut(): Map<number, BlockHeader> {
    return this.forkChoice.cut();
  }

  // The request-key index: tx-index.ts.

  /** The stored blocks holding the command with this request key (forks included). */
  transactionLocations(requestKey: Uint8Array): TxLocation[] {
    return this.txIndex.locations(requestKey);
  }

  // Development snapshots: snapshots.ts.

  /** Whether a development revert left the block behind (it is never a best head again). */
  isAbandoned(hash: Uint8Array): boolean {
    return this.snapshots?.isAbandoned(hash) ?? false;
  }

  /** {@link DevSnapshots.saveSnapshot}: saves one head per chain; returns the snapshot's id. */
  saveSnapshot(heads: ReadonlyMap<number, BlockHeader>): number {
    return this.keptSnapshots().saveSnapshot(heads);
  }

  /** The heads of a saved snapshot by chain; undefined when there is no such snapshot. */
  snapshotHeads(id: number): Map<number, BlockHeader> | undefined {
    return this.keptSnapshots().snapshotHeads(id);
  }

  /** {@link DevSnapshots.revertToSnapshot}: abandons what outranks the snapshot's heads. */
  revertToSnapshot(id: number): SnapshotRevert | undefined {
    return this.keptSnapshots().revertToSnapshot(id);
  }

  private keptSnapshots(): DevSnapshots {
    if (this.snapshots === null) {
      throw new Error("this chain database keeps no development snapshots (devSnapshots)");
    }
    return this.snapshots;
  }

  // Settings: settings.ts.

  /** A value the node keeps across restarts (in the `meta` table); undefined when unset. */
  setting(key: string): string | undefined {
    return this.settings.setting(key);
  }

  saveSetting(key: string, value: string): void {
    this.settings.saveSetting(key, value);
  }

  /** {@link BlockScan.scanBlocks}: a chain's blocks in (height, hash bytes) order from `from`. */
  scanBlocks(chainId: number, from: ScanStart, maxHeight: number, count: number): Block[] {
    return this.scans.scanBlocks(chainId, from, maxHeight, count);
  }

  /** {@link BlockScan.scanHeaders}: the headers {@link scanBlocks} would read. */
  scanHeaders(chainId: number, from: ScanStart, maxHeight: number, count: number): BlockHeader[] {
    return this.scans.scanHeaders(chainId, from, maxHeight, count);
  }
}
