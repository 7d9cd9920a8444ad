/**
 * The chain database: every block header and payload a node has seen, for all chains of one
 * network version, in one SQLite file (or in memory) and, for payload bytes, one append-only log
 * per chain beside it (payload-log.ts). Headers of every fork are kept; a header
 * is only accepted when its parent is already stored (or it is its chain's genesis block), so
 * ancestry is always complete. The API is synchronous: better-sqlite3 runs each query on the
 * calling thread, which is fastest for small indexed lookups. Schema: schema.ts.
 */
import Database from "better-sqlite3";
import { encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import { decodeHeader, encodeHeader, HASH_BYTES } from "../header/binary.ts";
import { genesisParentHash } from "../header/genesis.ts";
import type { BlockHeader } from "../header/types.ts";
import {
  decodePayloadWithOutputsBinary,
  encodePayloadWithOutputsBinary,
  outputOfPayloadBinary,
} from "../payload/binary.ts";
import type { PayloadWithOutputs } from "../payload/payload.ts";
import { allChainIds, type ChainwebVersion, genesisHeight } from "../version/version.ts";
import { word256ToBytes } from "../word256.ts";
import { blockActivity } from "./activity.ts";
import { BackgroundCheckpoint } from "./background-checkpoint.ts";
import { mustStepBack } from "./braiding.ts";
import { HeaderInsertError } from "./errors.ts";
import { openPayloadLog, type PayloadLog } from "./payload-log.ts";
import { clusteredIdRange, newRowId, OVERFLOW_ID_BASE } from "./row-ids.ts";
import {
  BLOCK_HEADERS_COLUMNS,
  PAYLOAD_LOG_COLUMNS,
  PAYLOADS_COLUMNS,
  SCHEMA_SQL,
  SCHEMA_UPGRADES,
  SCHEMA_VERSION,
} from "./schema.ts";
import { shouldSkip, skipHeight } from "./skip-height.ts";

/** What {@link ChainDatabase.revertToSnapshot} did. */
export interface SnapshotRevert {
  /** The snapshot's head of every chain (now the best heads). */
  readonly heads: ReadonlyMap<number, BlockHeader>;
  /** How many blocks were newly abandoned. */
  readonly abandoned: number;
}

/** A full block: what the block endpoints serve. */
export interface Block {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs;
}

/** A command of a stored block, found by its request key. */
export interface TxLocation {
  readonly blockHash: Uint8Array;
  /** Its index among the payload's transactions. */
  readonly position: number;
  /** The byte offset of the `null` of `metaData` in its output. */
  readonly metaOffset: number;
}

/** What the transaction index records of each command when its block is stored. */
export interface TxIndexEntry {
  /** The request key's 32 bytes. */
  readonly requestKey: Uint8Array;
  readonly metaOffset: number;
}

/** One side of a stored coin transfer (the `transfers` index). */
export interface TransferRecord {
  readonly chainId: number;
  readonly height: number;
  readonly blockHash: Uint8Array;
  readonly requestKey: string;
  readonly sender: string;
  readonly receiver: string;
  /** The amount as the event's JSON. */
  readonly amount: string;
}

/** A stored `cont` command of a defpact (the `continuations` index). */
export interface ContinuationRecord {
  readonly chainId: number;
  readonly blockHash: Uint8Array;
  readonly step: number;
  readonly requestKey: string;
}

/** Where a stored header sits in its chain, without decoding the header. */
export interface HeaderLink {
  readonly hash: Uint8Array;
  readonly chainId: number;
  readonly height: number;
  readonly parent: Uint8Array;
}

/** A block to store, with the transaction index entries of its commands (in payload order). */
export interface IndexedBlock extends Block {
  readonly index?: readonly TxIndexEntry[] | undefined;
}

/** Position of an ancestry walk: a stored header and its skip pointer. */
type WalkNode = [
  height: number,
  parent: Uint8Array,
  skipHash: Uint8Array | null,
  skipHeight: number | null,
];

const hashText = encodeBase64Url;

/** Blocks read at a time while a schema upgrade fills the new indexes. */
const UPGRADE_BATCH_BLOCKS = 1000;

/** Weight as 32 big-endian bytes, so that bytewise order is numeric order. */
function weightSortKey(weight: bigint): Uint8Array {
  return word256ToBytes(weight).reverse();
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

/**
 * A page of blocks reads their payloads from a chain's log in one read when the stretch holding
 * them is at most this much larger than the payloads themselves (forks stored meanwhile).
 */
const SPAN_READ_SLACK_BYTES = 256 * 1024;

/** A payload row's bytes and where a log holds them (NULL for rows older than version 4). */
type PayloadRow = [
  bytes: Uint8Array,
  chain: number | null,
  logOffset: number | null,
  logLength: number | null,
];

/** A header's bytes joined with its payload row. */
type BlockRow = [header: Uint8Array, ...PayloadRow];

export class ChainDatabase {
  readonly version: ChainwebVersion;
  private readonly db: Database.Database;
  private readonly payloadLog: PayloadLog;
  /** Null for a database in memory, which has no log to copy back. */
  private readonly checkpoints: BackgroundCheckpoint | null;
  private readonly genesisParents = new Map<number, Uint8Array>();

  private readonly insertHeaderStmt: Database.Statement;
  private readonly existsStmt: Database.Statement;
  private readonly headerBytesStmt: Database.Statement;
  private readonly linkStmt: Database.Statement;
  private readonly linksInRangeStmt: Database.Statement;
  private readonly walkStmt: Database.Statement;
  private readonly blockStmt: Database.Statement;
  private readonly blockPayloadStmt: Database.Statement;
  private readonly payloadStmt: Database.Statement;
  private readonly largestHeaderIdStmt: Database.Statement;
  private readonly payloadTable: PayloadTable;
  private readonly childrenStmt: Database.Statement;
  private readonly atHeightStmt: Database.Statement;
  private readonly firstTwoAtHeightStmt: Database.Statement;
  private readonly genesisStmt: Database.Statement;
  private readonly maxHeightStmt: Database.Statement;
  private readonly bestHeadStmt: Database.Statement;
  private readonly scanFromStmt: Database.Statement;
  private readonly scanAfterStmt: Database.Statement;
  private readonly headersInIdRangeStmt: Database.Statement;
  private readonly payloadsInIdRangeStmt: Database.Statement;
  private readonly payloadByIdStmt: Database.Statement;
  private readonly largestHeaderIdOverallStmt: Database.Statement;
  private readonly insertTxStmt: Database.Statement;
  private readonly txLocationsStmt: Database.Statement;
  private readonly insertTransferStmt: Database.Statement;
  private readonly insertContinuationStmt: Database.Statement;
  private readonly transfersStmt: Database.Statement;
  private readonly continuationsStmt: Database.Statement;
  private readonly insertMany: (blocks: Iterable<IndexedBlock>) => number;
  private readonly abandonedStmt: Database.Statement;
  private readonly abandonStmt: Database.Statement;
  private readonly abandonOutrankingStmt: Database.Statement;
  private readonly saveSnapshotStmt: Database.Statement;
  private readonly snapshotStmt: Database.Statement;
  private readonly dropSnapshotsAfterStmt: Database.Statement;
  private readonly settingStmt: Database.Statement;
  private readonly saveSettingStmt: Database.Statement;
  private readonly revertMany: (id: number) => SnapshotRevert | undefined;

  /**
   * Opens (creating if needed) the database at `path`, or an in-memory one for ":memory:".
   * A file written for another network version or schema version is refused.
   */
  constructor(path: string, version: ChainwebVersion) {
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
      this.checkMeta(path);
      this.upgradeTables();
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
    this.insertHeaderStmt = db.prepare(
      `INSERT INTO block_headers
         (id, hash, chain, height, parent, weight, payload_hash, payload_id, skip_hash,
          skip_height, bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.largestHeaderIdStmt = largestIdBetween(db, "block_headers");
    const insertPayload = db.prepare(
      `INSERT INTO payloads (id, payload_hash, bytes, chain, log_offset, log_length)
       VALUES (?, ?, X'', ?, ?, ?)`,
    );
    this.payloadTable = {
      idOf: db.prepare("SELECT id FROM payloads WHERE payload_hash = ?").pluck(),
      store: (id, hash, chainId, bytes) => {
        const offset = this.payloadLog.append(chainId, bytes);
        insertPayload.run(id, hash, chainId, offset, bytes.length);
      },
      largest: largestIdBetween(db, "payloads"),
    };
    this.existsStmt = db.prepare("SELECT 1 FROM block_headers WHERE hash = ?").pluck();
    this.headerBytesStmt = db.prepare("SELECT bytes FROM block_headers WHERE hash = ?").pluck();
    this.linksInRangeStmt = db
      .prepare(
        `SELECT hash, height, parent FROM block_headers
         WHERE chain = ? AND height BETWEEN ? AND ? ORDER BY height, hash LIMIT ?`,
      )
      .raw();
    this.linkStmt = db
      .prepare("SELECT chain, height, parent FROM block_headers WHERE hash = ?")
      .raw();
    this.walkStmt = db
      .prepare("SELECT height, parent, skip_hash, skip_height FROM block_headers WHERE hash = ?")
      .raw();
    this.blockStmt = db
      .prepare(
        `SELECT h.bytes, p.bytes, p.chain, p.log_offset, p.log_length FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id WHERE h.hash = ?`,
      )
      .raw();
    this.blockPayloadStmt = db
      .prepare(
        `SELECT p.bytes, p.chain, p.log_offset, p.log_length FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id WHERE h.hash = ?`,
      )
      .raw();
    this.payloadStmt = db
      .prepare("SELECT bytes, chain, log_offset, log_length FROM payloads WHERE payload_hash = ?")
      .raw();
    // A child is at its parent's chain and height + 1: the (chain, height, hash) index finds it,
    // so no index by parent is kept (one random page less to write per block).
    this.childrenStmt = db
      .prepare(
        `SELECT c.bytes FROM block_headers p JOIN block_headers c
           ON c.chain = p.chain AND c.height = p.height + 1 AND c.parent = p.hash
         WHERE p.hash = ? ORDER BY c.hash`,
      )
      .pluck();
    this.atHeightStmt = db
      .prepare("SELECT bytes FROM block_headers WHERE chain = ? AND height = ? ORDER BY hash")
      .pluck();
    this.firstTwoAtHeightStmt = db
      .prepare("SELECT hash FROM block_headers WHERE chain = ? AND height = ? LIMIT 2")
      .pluck();
    this.genesisStmt = db
      .prepare(
        "SELECT hash FROM block_headers WHERE chain = ? AND height = ? AND skip_hash IS NULL",
      )
      .pluck();
    this.maxHeightStmt = db
      .prepare("SELECT max(height) FROM block_headers WHERE chain = ?")
      .pluck();
    // Abandoned blocks are skipped while walking the weight index from the top: their number
    // above the best head is at most what one revert left behind.
    this.bestHeadStmt = db
      .prepare(
        `SELECT bytes FROM block_headers h WHERE chain = ?
           AND NOT EXISTS (SELECT 1 FROM abandoned_blocks a WHERE a.hash = h.hash)
         ORDER BY weight DESC, height DESC, hash LIMIT 1`,
      )
      .pluck();
    const scan = (op: ">=" | ">") =>
      db
        .prepare(
          `SELECT h.bytes, p.bytes, p.chain, p.log_offset, p.log_length FROM block_headers h
           JOIN payloads p ON p.id = h.payload_id
           WHERE h.chain = ? AND (h.height, h.hash) ${op} (?, ?) AND h.height <= ?
           ORDER BY h.height, h.hash LIMIT ?`,
        )
        .raw();
    this.scanFromStmt = scan(">=");
    this.scanAfterStmt = scan(">");
    this.headersInIdRangeStmt = db
      .prepare(
        "SELECT height, hash, bytes, payload_id FROM block_headers WHERE id BETWEEN ? AND ? ORDER BY id",
      )
      .raw();
    this.payloadsInIdRangeStmt = db
      .prepare(
        `SELECT id, bytes, chain, log_offset, log_length FROM payloads
         WHERE id BETWEEN ? AND ? ORDER BY id`,
      )
      .raw();
    this.payloadByIdStmt = db
      .prepare("SELECT bytes, chain, log_offset, log_length FROM payloads WHERE id = ?")
      .raw();
    this.largestHeaderIdOverallStmt = db.prepare("SELECT max(id) FROM block_headers").pluck();
    this.insertTxStmt = db.prepare(
      `INSERT OR IGNORE INTO transactions (request_key, block_hash, position, meta_offset)
       VALUES (?, ?, ?, ?)`,
    );
    this.txLocationsStmt = db
      .prepare("SELECT block_hash, position, meta_offset FROM transactions WHERE request_key = ?")
      .raw();
    this.abandonedStmt = db.prepare("SELECT 1 FROM abandoned_blocks WHERE hash = ?").pluck();
    this.abandonStmt = db.prepare("INSERT OR IGNORE INTO abandoned_blocks (hash) VALUES (?)");
    // The blocks `bestHead` would order before the given head (weight, then height, then hash):
    // none of them is its ancestor, since a child always outweighs its parent.
    this.abandonOutrankingStmt = db.prepare(
      `INSERT OR IGNORE INTO abandoned_blocks (hash)
       SELECT hash FROM block_headers WHERE chain = :chain AND (weight > :weight
         OR (weight = :weight AND (height > :height OR (height = :height AND hash < :hash))))`,
    );
    this.saveSnapshotStmt = db.prepare("INSERT INTO snapshots (heads) VALUES (?)");
    this.snapshotStmt = db.prepare("SELECT heads FROM snapshots WHERE id = ?").pluck();
    this.dropSnapshotsAfterStmt = db.prepare("DELETE FROM snapshots WHERE id > ?");
    this.settingStmt = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
    this.saveSettingStmt = db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    this.revertMany = db.transaction((id: number) => {
      const heads = this.snapshotHeads(id);
      if (heads === undefined) return undefined;
      let abandoned = 0;
      for (const head of heads.values()) {
        abandoned += this.abandonOutrankingStmt.run({
          chain: head.chainId,
          weight: weightSortKey(head.weight),
          height: head.height,
          hash: head.hash,
        }).changes;
      }
      this.dropSnapshotsAfterStmt.run(id);
      return { heads, abandoned };
    });
    this.insertTransferStmt = db.prepare(
      `INSERT OR IGNORE INTO transfers
         (account, height, block_hash, position, event, chain, request_key, sender, receiver, amount)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertContinuationStmt = db.prepare(
      `INSERT OR IGNORE INTO continuations (pact_id, block_hash, position, chain, step, request_key)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    this.transfersStmt = db
      .prepare(
        `SELECT chain, height, block_hash, request_key, sender, receiver, amount FROM transfers
         WHERE account = ? ORDER BY height DESC, block_hash DESC, position DESC, event DESC
         LIMIT ?`,
      )
      .raw();
    this.continuationsStmt = db
      .prepare(
        `SELECT chain, block_hash, step, request_key FROM continuations WHERE pact_id = ?
         ORDER BY step, chain LIMIT ?`,
      )
      .raw();
    this.insertMany = db.transaction((blocks: Iterable<IndexedBlock>) => {
      let added = 0;
      for (const { header, payload, index } of blocks) {
        if (!this.insertOne(header, payload)) continue;
        added++;
        for (const [position, entry] of (index ?? []).entries()) {
          this.insertTxStmt.run(entry.requestKey, header.hash, position, entry.metaOffset);
        }
        this.indexActivity(header.hash, header.chainId, header.height, payload);
      }
      return added;
    });
    this.upgrade();
  }

  close(): void {
    this.checkpoints?.close();
    // The logs are synced as they close, before SQLite's last checkpoint.
    this.payloadLog.close();
    this.db.close();
  }

  /** Resolves when no checkpoint is under way (its disk syncs run in the background). */
  checkpointsSettled(): Promise<void> {
    return this.checkpoints?.settled() ?? Promise.resolve();
  }

  /**
   * Stores a block. Returns false (and changes nothing) when the header is already stored.
   * Throws {@link HeaderInsertError} when the header is of another network version, its
   * payload is not the one it names, its parent is not stored, or it does not extend its
   * parent (same chain, height + 1). A header without a stored parent is accepted only as its
   * chain's first genesis block (genesis height, the version's genesis parent hash). Full
   * validation (weight, target, time, braiding, PoW, hashes) is the caller's job.
   */
  insertBlock(
    header: BlockHeader,
    payload: PayloadWithOutputs,
    index?: readonly TxIndexEntry[],
  ): boolean {
    return this.insertBlocks([{ header, payload, index }]) === 1;
  }

  /** The stored blocks holding the command with this request key (forks included). */
  transactionLocations(requestKey: Uint8Array): TxLocation[] {
    const rows = this.txLocationsStmt.all(requestKey) as [Uint8Array, number, number][];
    return rows.map(([blockHash, position, metaOffset]) => ({
      blockHash: plain(blockHash),
      position,
      metaOffset,
    }));
  }

  /**
   * The most recent coin transfers (by block height, newest first) sent or received by
   * `account` on any chain, forks included; at most `limit`.
   */
  recentTransfers(account: string, limit: number): TransferRecord[] {
    const rows = this.transfersStmt.all(account, limit) as [
      number,
      number,
      Uint8Array,
      string,
      string,
      string,
      string,
    ][];
    return rows.map(([chainId, height, blockHash, requestKey, sender, receiver, amount]) => ({
      chainId,
      height,
      blockHash: plain(blockHash),
      requestKey,
      sender,
      receiver,
      amount,
    }));
  }

  /** The stored `cont` commands continuing the defpact `pactId` (forks included); at most `limit`. */
  continuations(pactId: string, limit: number): ContinuationRecord[] {
    const rows = this.continuationsStmt.all(pactId, limit) as [
      number,
      Uint8Array,
      number,
      string,
    ][];
    return rows.map(([chainId, blockHash, step, requestKey]) => ({
      chainId,
      blockHash: plain(blockHash),
      step,
      requestKey,
    }));
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

  header(hash: Uint8Array): BlockHeader | undefined {
    const bytes = this.headerBytesStmt.get(hash) as Uint8Array | undefined;
    return bytes === undefined ? undefined : decodeHeader(plain(bytes));
  }

  block(hash: Uint8Array): Block | undefined {
    const row = this.blockStmt.get(hash) as BlockRow | undefined;
    return row === undefined ? undefined : this.blockOf(row);
  }

  /** The output of the command at `position` of a stored block, without decoding the block. */
  commandOutput(blockHash: Uint8Array, position: number): Uint8Array | undefined {
    const row = this.blockPayloadStmt.get(blockHash) as PayloadRow | undefined;
    if (row === undefined) return undefined;
    return outputOfPayloadBinary(plain(this.payloadBytes(row)), position);
  }

  payload(payloadHash: Uint8Array): PayloadWithOutputs | undefined {
    const row = this.payloadStmt.get(payloadHash) as PayloadRow | undefined;
    return row === undefined
      ? undefined
      : decodePayloadWithOutputsBinary(plain(this.payloadBytes(row)));
  }

  /** A payload row's bytes: from its chain's log, or from the row for rows before version 4. */
  private payloadBytes(row: PayloadRow): Uint8Array {
    const place = logPlace(row);
    return place === null ? row[0] : this.payloadLog.read(...place);
  }

  /** The block of a header row joined with its payload row. */
  private blockOf([header, ...payload]: BlockRow): Block {
    return toBlock(header, this.payloadBytes(payload));
  }

  /** Chain, height and parent of a stored header, without decoding it. */
  link(hash: Uint8Array): HeaderLink | undefined {
    const row = this.linkStmt.get(hash) as [number, number, Uint8Array] | undefined;
    if (row === undefined) return undefined;
    return { hash, chainId: row[0], height: row[1], parent: plain(row[2]) };
  }

  /**
   * The links of a chain's headers from height `low` to `high` (forks included), ascending by
   * height and hash bytes, at most `count`: one range read where a walk by parent would read a
   * header at a time.
   */
  linksInRange(chainId: number, low: number, high: number, count: number): HeaderLink[] {
    const rows = this.linksInRangeStmt.all(chainId, low, high, count) as [
      Uint8Array,
      number,
      Uint8Array,
    ][];
    return rows.map(([hash, height, parent]) => ({
      hash: plain(hash),
      chainId,
      height,
      parent: plain(parent),
    }));
  }

  /** The stored children of a header, ordered by hash bytes. */
  children(hash: Uint8Array): BlockHeader[] {
    return (this.childrenStmt.all(hash) as Uint8Array[]).map((bytes) => decodeHeader(plain(bytes)));
  }

  /** The header itself, then its parent, and so on down to the genesis block. */
  *ancestors(hash: Uint8Array): Generator<BlockHeader> {
    for (
      let header = this.header(hash);
      header !== undefined;
      header = this.header(header.parent)
    ) {
      yield header;
    }
  }

  /**
   * The ancestor (or the header itself) of `hash` at `height`; undefined when `hash` is not
   * stored or `height` is above it or below its chain's genesis.
   */
  ancestorAt(hash: Uint8Array, height: number): BlockHeader | undefined {
    const found = this.ancestorHashAt(hash, height);
    return found === undefined ? undefined : this.header(found);
  }

  /** Like {@link ancestorAt} but returns only the hash (no header decoding). */
  ancestorHashAt(hash: Uint8Array, height: number): Uint8Array | undefined {
    const start = this.link(hash);
    if (start === undefined || height > start.height) return undefined;
    const [found, foundHeight] = this.seek(hash, start, height);
    return foundHeight === height ? found : undefined;
  }

  /**
   * Whether `ancestor` is `descendant` or one of its ancestors. Unknown hashes give false.
   * Costs one lookup when the ancestor's height holds a single block, else O(log height).
   */
  isAncestor(ancestor: Uint8Array, descendant: Uint8Array): boolean {
    const link = this.link(ancestor);
    if (link === undefined) return false;
    const found = this.ancestorHashAt(descendant, link.height);
    return found !== undefined && equalBytes(found, ancestor);
  }

  /** Every stored header of a chain at a height (forks included), ordered by hash bytes. */
  headersAtHeight(chainId: number, height: number): BlockHeader[] {
    return (this.atHeightStmt.all(chainId, height) as Uint8Array[]).map((bytes) =>
      decodeHeader(plain(bytes)),
    );
  }

  /** The largest stored height of a chain; undefined for a chain without blocks. */
  maxHeight(chainId: number): number | undefined {
    return (this.maxHeightStmt.get(chainId) as number | null) ?? undefined;
  }

  /**
   * The heaviest header of a chain. Ties in weight go to the greater height, then to the
   * smaller hash bytes (Chainweb compares cuts by weight, then by height; the hash makes the
   * choice deterministic). The heaviest header is always a leaf: a child outweighs its parent.
   */
  bestHead(chainId: number): BlockHeader | undefined {
    const bytes = this.bestHeadStmt.get(chainId) as Uint8Array | undefined;
    return bytes === undefined ? undefined : decodeHeader(plain(bytes));
  }

  /** The chains of the version that have at least one stored block, ascending. */
  chainIds(): number[] {
    return allChainIds(this.version).filter((chainId) => this.maxHeight(chainId) !== undefined);
  }

  /**
   * The current cut: for every chain with blocks, one head, the whole set braided
   * (braiding.ts). It starts from each chain's {@link bestHead} and steps back, by parent,
   * every head that cannot be braided with its neighbours' heads, until none has to. Each
   * step is forced (no braided cut below the heaviest heads keeps that head), so the result is
   * the highest braided cut on the heaviest branches.
   */
  cut(): Map<number, BlockHeader> {
    const heads = new Map<number, BlockHeader>();
    for (const chainId of this.chainIds()) heads.set(chainId, this.bestHead(chainId)!);
    for (;;) {
      const back: number[] = [];
      for (const head of heads.values()) {
        for (const chainId of head.adjacents.keys()) {
          const other = heads.get(chainId);
          if (other !== undefined && mustStepBack(head, other)) {
            back.push(head.chainId);
            break;
          }
        }
      }
      if (back.length === 0) return heads;
      for (const chainId of back) {
        const head = heads.get(chainId)!;
        const parent = this.header(head.parent);
        if (parent === undefined) {
          throw new Error(
            `no braided cut: the genesis block ${hashText(head.hash)} of chain ${chainId} is not braided with its neighbours`,
          );
        }
        heads.set(chainId, parent);
      }
    }
  }

  /** Whether a development revert left the block behind (it is never a best head again). */
  isAbandoned(hash: Uint8Array): boolean {
    return this.abandonedStmt.get(hash) !== undefined;
  }

  /**
   * Saves a development snapshot: one head per chain of the version (every chain must be
   * given). Returns its id; ids ascend from 1 and are never reused.
   */
  saveSnapshot(heads: ReadonlyMap<number, BlockHeader>): number {
    const hashes = allChainIds(this.version).map((chainId) => {
      const head = heads.get(chainId);
      if (head === undefined) throw new Error(`a snapshot needs a head of chain ${chainId}`);
      return head.hash;
    });
    return Number(this.saveSnapshotStmt.run(Buffer.concat(hashes)).lastInsertRowid);
  }

  /** The heads of a saved snapshot by chain; undefined when there is no such snapshot. */
  snapshotHeads(id: number): Map<number, BlockHeader> | undefined {
    const bytes = this.snapshotStmt.get(id) as Uint8Array | undefined;
    if (bytes === undefined) return undefined;
    const heads = new Map<number, BlockHeader>();
    allChainIds(this.version).forEach((chainId, i) => {
      const hash = plain(bytes).subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);
      const header = this.header(hash);
      if (header === undefined) throw new Error(`snapshot ${id} names an unknown block`);
      heads.set(chainId, header);
    });
    return heads;
  }

  /**
   * Reverts to a saved snapshot, in one transaction: every block that would rank above the
   * snapshot's head of its chain as best head is abandoned (kept and listed, but never a best
   * head again, nor any block built on it), so the cut is the snapshot's heads; the snapshots
   * saved after it are deleted (their heads are abandoned now). Undefined when there is no
   * such snapshot.
   */
  revertToSnapshot(id: number): SnapshotRevert | undefined {
    return this.revertMany(id);
  }

  /** A value the node keeps across restarts (in the `meta` table); undefined when unset. */
  setting(key: string): string | undefined {
    return this.settingStmt.get(`setting:${key}`) as string | undefined;
  }

  saveSetting(key: string, value: string): void {
    this.saveSettingStmt.run(`setting:${key}`, value);
  }

  /**
   * Blocks of a chain in ascending (height, hash bytes) order, starting at `height`/`hash`
   * (at it when `inclusive`, after it otherwise), up to `maxHeight`, at most `count`.
   * An empty `hash` starts at the first block of `height`.
   */
  scanBlocks(
    chainId: number,
    from: { readonly height: number; readonly hash: Uint8Array; readonly inclusive: boolean },
    maxHeight: number,
    count: number,
  ): Block[] {
    if (count <= 0 || maxHeight < from.height) return [];
    const range = clusteredIdRange(chainId, from.height, maxHeight);
    const largestId = (this.largestHeaderIdOverallStmt.get() as number | null) ?? 0;
    if (range === null || largestId >= OVERFLOW_ID_BASE) {
      const stmt = from.inclusive ? this.scanFromStmt : this.scanAfterStmt;
      const rows = stmt.all(chainId, from.height, from.hash, maxHeight, count) as BlockRow[];
      return rows.map((row) => this.blockOf(row));
    }
    const rows = this.headersInClusteredRange(range[0], range[1], from, count);
    if (rows.length === 0) return [];
    // A block's payload row has the clustered id of its chain and height, unless another block
    // stored the same payload first.
    const payloads = this.payloadsOf(
      rows.map((row) => row[3]),
      clusteredIdRange(chainId, rows[0]![0], rows.at(-1)![0])!,
    );
    return rows.map(([, , header, payloadId]) => toBlock(header, payloads.get(payloadId)!));
  }

  /**
   * The header rows (height, hash, bytes, payload id) of a chain's clustered id range, in
   * (height, hash bytes) order from `from`, at most `count`: one walk along the table's leaves
   * where a read by index descends the table's tree once per row. Within a height, rows lie in
   * insertion order and are sorted here; the walk stops at the end of the height that fills the
   * count. Only valid while no header has an overflow id (`scanBlocks` checks).
   */
  private headersInClusteredRange(
    low: number,
    high: number,
    from: { readonly height: number; readonly hash: Uint8Array; readonly inclusive: boolean },
    count: number,
  ): HeaderRow[] {
    const found: HeaderRow[] = [];
    let height: HeaderRow[] = [];
    const endHeight = () => {
      height.sort((a, b) => Buffer.compare(a[1], b[1]));
      for (const row of height) {
        if (row[0] === from.height) {
          const order = Buffer.compare(row[1], from.hash);
          if (order < 0 || (order === 0 && !from.inclusive)) continue;
        }
        found.push(row);
      }
      height = [];
    };
    for (const row of this.headersInIdRangeStmt.iterate(low, high) as Iterable<HeaderRow>) {
      if (height.length > 0 && height[0]![0] !== row[0]) {
        endHeight();
        if (found.length >= count) break;
      }
      height.push(row);
    }
    if (height.length > 0) endHeight();
    return found.slice(0, count);
  }

  /**
   * Payload bytes by row id: the rows in the id range `[low, high]` in one walk along the table,
   * any other one by itself; the bytes a chain's log holds for them in one read where they lie
   * close together (a chain's consecutive blocks do).
   */
  private payloadsOf(
    ids: readonly number[],
    [low, high]: readonly [number, number],
  ): Map<number, Uint8Array> {
    const wanted = new Set(ids);
    const rows = new Map<number, PayloadRow>();
    for (const [id, ...row] of this.payloadsInIdRangeStmt.iterate(low, high) as Iterable<
      [number, ...PayloadRow]
    >) {
      if (wanted.has(id)) rows.set(id, row);
    }
    for (const id of wanted) {
      if (!rows.has(id)) rows.set(id, this.payloadByIdStmt.get(id) as PayloadRow);
    }
    const bytes = new Map<number, Uint8Array>();
    const inLogs = new Map<number, [id: number, offset: number, length: number][]>();
    for (const [id, row] of rows) {
      const place = logPlace(row);
      if (place === null) bytes.set(id, row[0]);
      else {
        const [chainId, offset, length] = place;
        const list = inLogs.get(chainId) ?? [];
        list.push([id, offset, length]);
        inLogs.set(chainId, list);
      }
    }
    for (const [chainId, list] of inLogs) {
      const start = Math.min(...list.map(([, offset]) => offset));
      const end = Math.max(...list.map(([, offset, length]) => offset + length));
      const total = list.reduce((sum, [, , length]) => sum + length, 0);
      if (end - start <= total + SPAN_READ_SLACK_BYTES) {
        const span = this.payloadLog.read(chainId, start, end - start);
        for (const [id, offset, length] of list) {
          bytes.set(id, span.subarray(offset - start, offset - start + length));
        }
      } else {
        for (const [id, offset, length] of list) {
          bytes.set(id, this.payloadLog.read(chainId, offset, length));
        }
      }
    }
    return bytes;
  }

  private insertOne(header: BlockHeader, payload: PayloadWithOutputs): boolean {
    const name = () =>
      `block ${hashText(header.hash)} (chain ${header.chainId}, height ${header.height})`;
    if (this.existsStmt.get(header.hash) !== undefined) return false;
    if (header.versionCode !== this.version.code) {
      throw new HeaderInsertError(
        `${name()} has version code 0x${header.versionCode.toString(16)}, this database holds ${this.version.name} (0x${this.version.code.toString(16)})`,
      );
    }
    if (!equalBytes(payload.payloadHash, header.payloadHash)) {
      throw new HeaderInsertError(
        `${name()} names payload ${hashText(header.payloadHash)} but was given payload ${hashText(payload.payloadHash)}`,
      );
    }
    let skip: Uint8Array | null = null;
    let skipAt: number | null = null;
    const parent = this.link(header.parent);
    if (parent === undefined) {
      this.checkGenesis(header, name);
    } else {
      if (parent.chainId !== header.chainId || parent.height + 1 !== header.height) {
        throw new HeaderInsertError(
          `${name()} does not extend its parent ${hashText(header.parent)} (chain ${parent.chainId}, height ${parent.height})`,
        );
      }
      [skip, skipAt] = this.seek(header.parent, parent, skipHeight(header.height));
      if (this.isAbandoned(header.parent)) this.abandonStmt.run(header.hash);
    }
    const { chainId, height } = header;
    const payloadId = payloadRowId(this.payloadTable, chainId, height, payload.payloadHash, () =>
      encodePayloadWithOutputsBinary(payload),
    );
    this.insertHeaderStmt.run(
      newRowId(chainId, height, largest(this.largestHeaderIdStmt)),
      header.hash,
      header.chainId,
      header.height,
      header.parent,
      weightSortKey(header.weight),
      header.payloadHash,
      payloadId,
      skip,
      skipAt,
      encodeHeader(header),
    );
    return true;
  }

  /**
   * The ancestor of `from` (a stored header) at `target`, or its chain's genesis block when
   * `target` is below it, with that ancestor's height.
   */
  private seek(hash: Uint8Array, from: HeaderLink, target: number): [Uint8Array, number] {
    if (target >= from.height) return [hash, from.height];
    // A height holding a single block of the chain holds the ancestor of every block above it,
    // since all of a chain's blocks descend from its one genesis block.
    const atHeight = this.firstTwoAtHeightStmt.all(from.chainId, target) as Uint8Array[];
    if (atHeight.length === 1) return [plain(atHeight[0]!), target];
    return this.descend(hash, target);
  }

  /**
   * Walks down from a stored header towards its ancestor at `target`, by skip pointers where
   * they do not overshoot and by parents otherwise; stops early at the genesis block.
   */
  private descend(hash: Uint8Array, target: number): [Uint8Array, number] {
    let at = hash;
    let [height, parent, skipHash, skipAt] = this.walkStmt.get(at) as WalkNode;
    while (height > target && skipHash !== null) {
      at = skipAt !== null && shouldSkip(height, skipAt, target) ? skipHash : parent;
      [height, parent, skipHash, skipAt] = this.walkStmt.get(at) as WalkNode;
    }
    return [plain(at), height];
  }

  /**
   * A header without a stored parent must be its chain's genesis block: at the chain's genesis
   * height, with the version's genesis parent hash, and the only one of the chain. (Its other
   * fields are validation's business, so a network may use its own genesis payloads.)
   */
  private checkGenesis(header: BlockHeader, name: () => string): void {
    const chainId = header.chainId;
    let parent = this.genesisParents.get(chainId);
    if (parent === undefined) {
      parent = genesisParentHash(this.version, chainId);
      this.genesisParents.set(chainId, parent);
    }
    const height = genesisHeight(this.version, chainId);
    if (!equalBytes(header.parent, parent) || header.height !== height) {
      throw new HeaderInsertError(
        `${name()}: parent ${hashText(header.parent)} is not in the database`,
      );
    }
    const existing = this.genesisStmt.get(chainId, height) as Uint8Array | undefined;
    if (existing !== undefined) {
      throw new HeaderInsertError(
        `${name()} is a second genesis block of chain ${chainId}, which already has ${hashText(existing)}`,
      );
    }
  }

  /** Adds a stored block's transfers and continuations to their indexes. */
  private indexActivity(
    hash: Uint8Array,
    chainId: number,
    height: number,
    payload: PayloadWithOutputs,
  ): void {
    const { transfers, continuations } = blockActivity(payload);
    for (const t of transfers) {
      this.insertTransferStmt.run(
        t.account,
        height,
        hash,
        t.position,
        t.event,
        chainId,
        t.requestKey,
        t.sender,
        t.receiver,
        t.amount,
      );
    }
    for (const c of continuations) {
      this.insertContinuationStmt.run(c.pactId, hash, c.position, chainId, c.step, c.requestKey);
    }
  }

  /**
   * Brings a file of an older schema version up to date, in one transaction: the tables it
   * lacks were created (empty) by the schema; the indexes of schema 3 are filled from every
   * stored block, read {@link UPGRADE_BATCH_BLOCKS} at a time.
   */
  private upgrade(): void {
    // checkMeta let through only this version or one SCHEMA_UPGRADES names.
    const stored = Number(
      this.db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get(),
    );
    if (stored === SCHEMA_VERSION) return;
    const setVersion = this.db.prepare("UPDATE meta SET value = ? WHERE key = 'schema'");
    // Version 4 only added the payload log columns (upgradeTables).
    if (stored === 3) {
      setVersion.run(String(SCHEMA_VERSION));
      return;
    }
    const batch = this.db
      .prepare(
        `SELECT h.id, h.hash, h.chain, h.height, p.bytes FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id
         WHERE h.id > ? ORDER BY h.id LIMIT ?`,
      )
      .raw();
    type Row = [number, Uint8Array, number, number, Uint8Array];
    this.db.transaction(() => {
      for (let after = 0; ; ) {
        const rows = batch.all(after, UPGRADE_BATCH_BLOCKS) as Row[];
        if (rows.length === 0) break;
        for (const [, hash, chainId, height, bytes] of rows) {
          const payload = decodePayloadWithOutputsBinary(plain(bytes));
          this.indexActivity(plain(hash), chainId, height, payload);
        }
        after = rows[rows.length - 1]![0];
      }
      setVersion.run(String(SCHEMA_VERSION));
    })();
  }

  /**
   * The tables of the current schema on a file of an older one (the indexes of version 3 are
   * filled by upgrade()). From version 2: headers and payloads are copied, chain by chain and
   * height by height, into tables whose row ids keep a chain's heights together and where a
   * header names its payload by id; then the old tables go and the indexes are made (one
   * transaction; a file that has `payload_id` is done). From version 3: the payload log columns
   * are added (NULL: the rows keep their bytes).
   */
  private upgradeTables(): void {
    const db = this.db;
    const has = (table: string, column: string) =>
      db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column) !==
      undefined;
    if (!has("block_headers", "payload_id")) this.upgradeTablesTo3();
    if (!has("payloads", "log_length")) {
      db.exec(PAYLOAD_LOG_COLUMNS.map((c) => `ALTER TABLE payloads ADD COLUMN ${c};`).join(""));
    }
  }

  /** {@link upgradeTables} from version 2 to 3. */
  private upgradeTablesTo3(): void {
    const db = this.db;
    db.transaction(() => {
      db.exec(`CREATE TABLE headers_v3 (${BLOCK_HEADERS_COLUMNS});
        CREATE TABLE payloads_v3 (${PAYLOADS_COLUMNS});`);
      const read = db
        .prepare(
          `SELECT h.chain, h.height, h.hash, h.parent, h.weight, h.payload_hash, h.skip_hash,
             h.skip_height, h.bytes, p.bytes FROM block_headers h
           JOIN payloads p ON p.payload_hash = h.payload_hash
           WHERE (h.chain, h.height, h.hash) > (?, ?, ?)
           ORDER BY h.chain, h.height, h.hash LIMIT ?`,
        )
        .raw();
      const insertHeader = db.prepare(
        `INSERT INTO headers_v3 (id, chain, height, hash, parent, weight, payload_hash, skip_hash,
           skip_height, bytes, payload_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      const insertPayload = db.prepare(
        "INSERT INTO payloads_v3 (id, payload_hash, bytes) VALUES (?, ?, ?)",
      );
      // Upgraded payloads keep their bytes in the table, as version 3 did.
      const payloads: PayloadTable = {
        idOf: db.prepare("SELECT id FROM payloads_v3 WHERE payload_hash = ?").pluck(),
        store: (id, hash, _chainId, bytes) => insertPayload.run(id, hash, bytes),
        largest: largestIdBetween(db, "payloads_v3"),
      };
      const largestHeader = largest(largestIdBetween(db, "headers_v3"));
      type Row = [
        chain: number,
        height: number,
        hash: Uint8Array,
        parent: Uint8Array,
        weight: Uint8Array,
        payloadHash: Uint8Array,
        skipHash: Uint8Array | null,
        skipHeight: number | null,
        header: Uint8Array,
        payload: Uint8Array,
      ];
      let after: [number, number, Uint8Array] = [-1, -1, new Uint8Array(0)];
      for (;;) {
        const rows = read.all(...after, UPGRADE_BATCH_BLOCKS) as Row[];
        if (rows.length === 0) break;
        for (const row of rows) {
          const [chainId, height, , , , hash, , , , payloadBytes] = row;
          const id = payloadRowId(payloads, chainId, height, hash, () => payloadBytes);
          insertHeader.run(newRowId(chainId, height, largestHeader), ...row.slice(0, 9), id);
        }
        const last = rows[rows.length - 1]!;
        after = [last[0], last[1], last[2]];
      }
      db.exec(`DROP TABLE block_headers; DROP TABLE payloads;
        ALTER TABLE headers_v3 RENAME TO block_headers;
        ALTER TABLE payloads_v3 RENAME TO payloads;`);
      db.exec(SCHEMA_SQL);
    })();
  }

  private checkMeta(path: string): void {
    const read = this.db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
    const write = this.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
    const expected: [string, string][] = [
      ["schema", String(SCHEMA_VERSION)],
      ["version", this.version.name],
    ];
    for (const [key, value] of expected) {
      const stored = read.get(key) as string | undefined;
      if (stored === undefined) write.run(key, value);
      else if (key === "schema" && SCHEMA_UPGRADES.includes(Number(stored))) {
        // Upgraded once the statements are ready (upgrade()).
      } else if (stored !== value) {
        throw new Error(
          `chain database ${path} has ${key} ${JSON.stringify(stored)}, expected ${JSON.stringify(value)}`,
        );
      }
    }
  }
}

/** The largest id of a table between two ids (inclusive), for {@link newRowId}. */
function largestIdBetween(
  db: Database.Database,
  table: "block_headers" | "payloads" | "headers_v3" | "payloads_v3",
) {
  return db.prepare(`SELECT max(id) FROM ${table} WHERE id BETWEEN ? AND ?`).pluck();
}

/** Where a log holds a payload row's bytes; null for a row before version 4 (bytes in the row). */
function logPlace([, chainId, offset, length]: PayloadRow): [number, number, number] | null {
  return chainId === null || offset === null || length === null ? null : [chainId, offset, length];
}

/** A header row as a page reads it: height, hash, header bytes, payload row id. */
type HeaderRow = [number, Uint8Array, Uint8Array, number];

/** What {@link payloadRowId} uses of a payloads table. */
interface PayloadTable {
  readonly idOf: Database.Statement;
  /** Stores a new payload row (with its bytes, from a block of `chainId`). */
  readonly store: (id: number, hash: Uint8Array, chainId: number, bytes: Uint8Array) => void;
  readonly largest: Database.Statement;
}

/**
 * The id of the payload `hash`: its row's when it is stored, else a new row's at the block's
 * chain and height, stored now with `bytes()`.
 */
function payloadRowId(
  table: PayloadTable,
  chainId: number,
  height: number,
  hash: Uint8Array,
  bytes: () => Uint8Array,
): number {
  const stored = table.idOf.get(hash) as number | undefined;
  if (stored !== undefined) return stored;
  const id = newRowId(chainId, height, largest(table.largest));
  table.store(id, hash, chainId, bytes());
  return id;
}

function largest(stmt: Database.Statement) {
  return (low: number, high: number) => stmt.get(low, high) as number | null;
}

function toBlock(header: Uint8Array, payload: Uint8Array): Block {
  return {
    header: decodeHeader(plain(header)),
    payload: decodePayloadWithOutputsBinary(plain(payload)),
  };
}

/**
 * better-sqlite3 returns blobs as Buffers; callers get plain Uint8Arrays (a view, no copy), so
 * values compare equal to the ones inserted and `slice` copies as it does for Uint8Array.
 */
function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
