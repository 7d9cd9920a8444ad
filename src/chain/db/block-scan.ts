/**
 * Scans of a chain's blocks in (height, hash bytes) order, what the block and branch pages read
 * (pages.ts): along the table's leaves where the clustered row ids hold (row-ids.ts), by index
 * otherwise; the payload bytes of neighbouring blocks read from their chain's log at once.
 */
import type Database from "better-sqlite3";
import { decodeHeader } from "../header/binary.ts";
import type { BlockHeader } from "../header/types.ts";
import {
  type Block,
  type BlockRow,
  type BlockStore,
  logPlace,
  PAYLOAD_ROW_COLUMNS,
  type PayloadRow,
  toBlock,
} from "./block-store.ts";
import { plain } from "./column-values.ts";
import type { PayloadLog } from "./payload-log.ts";
import { clusteredIdRange, OVERFLOW_ID_BASE } from "./row-ids.ts";

/**
 * A page of blocks reads their payloads from a chain's log in one read when the stretch holding
 * them is at most this much larger than the payloads themselves (forks stored meanwhile).
 */
const SPAN_READ_SLACK_BYTES = 256 * 1024;

/** Where a scan starts: at the block `hash` of `height` when `inclusive`, after it otherwise. */
export interface ScanStart {
  readonly height: number;
  readonly hash: Uint8Array;
  readonly inclusive: boolean;
}

/** A header row as a page reads it: height, hash, header bytes, payload row id. */
type HeaderRow = [number, Uint8Array, Uint8Array, number];

/** The scans' statements, prepared on the database's connection. */
function prepareStatements(db: Database.Database) {
  const scan = (op: ">=" | ">") =>
    db
      .prepare(
        `SELECT h.bytes, ${PAYLOAD_ROW_COLUMNS} FROM block_headers h
           JOIN payloads p ON p.id = h.payload_id
           WHERE h.chain = ? AND (h.height, h.hash) ${op} (?, ?) AND h.height <= ?
           ORDER BY h.height, h.hash LIMIT ?`,
      )
      .raw();
  const scanHeaders = (op: ">=" | ">") =>
    db
      .prepare(
        `SELECT h.bytes FROM block_headers h
           WHERE h.chain = ? AND (h.height, h.hash) ${op} (?, ?) AND h.height <= ?
           ORDER BY h.height, h.hash LIMIT ?`,
      )
      .pluck();
  return {
    scanFrom: scan(">="),
    scanAfter: scan(">"),
    scanHeadersFrom: scanHeaders(">="),
    scanHeadersAfter: scanHeaders(">"),
    headersInIdRange: db
      .prepare(
        "SELECT height, hash, bytes, payload_id FROM block_headers WHERE id BETWEEN ? AND ? ORDER BY id",
      )
      .raw(),
    payloadsInIdRange: db
      .prepare(
        `SELECT p.id, ${PAYLOAD_ROW_COLUMNS} FROM payloads p
         WHERE p.id BETWEEN ? AND ? ORDER BY p.id`,
      )
      .raw(),
    payloadById: db.prepare(`SELECT ${PAYLOAD_ROW_COLUMNS} FROM payloads p WHERE p.id = ?`).raw(),
    largestHeaderIdOverall: db.prepare("SELECT max(id) FROM block_headers").pluck(),
  };
}

export class BlockScan {
  private readonly sql: ReturnType<typeof prepareStatements>;

  /** `store` decodes the rows a scan reads; `payloadLog` holds their payload bytes. */
  constructor(
    db: Database.Database,
    private readonly store: BlockStore,
    private readonly payloadLog: PayloadLog,
  ) {
    this.sql = prepareStatements(db);
  }

  /**
   * Blocks of a chain in ascending (height, hash bytes) order, starting at `height`/`hash`
   * (at it when `inclusive`, after it otherwise), up to `maxHeight`, at most `count`.
   * An empty `hash` starts at the first block of `height`.
   */
  scanBlocks(chainId: number, from: ScanStart, maxHeight: number, count: number): Block[] {
    if (count <= 0 || maxHeight < from.height) return [];
    const range = this.walkableRange(chainId, from, maxHeight);
    if (range === null) {
      const stmt = from.inclusive ? this.sql.scanFrom : this.sql.scanAfter;
      const rows = stmt.all(chainId, from.height, from.hash, maxHeight, count) as BlockRow[];
      return rows.map((row) => this.store.blockOf(row));
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
   * The headers of the blocks {@link scanBlocks} reads, without reading their payloads (the
   * header and hash pages, a peer's branch queries).
   */
  scanHeaders(chainId: number, from: ScanStart, maxHeight: number, count: number): BlockHeader[] {
    if (count <= 0 || maxHeight < from.height) return [];
    const range = this.walkableRange(chainId, from, maxHeight);
    if (range === null) {
      const stmt = from.inclusive ? this.sql.scanHeadersFrom : this.sql.scanHeadersAfter;
      const rows = stmt.all(chainId, from.height, from.hash, maxHeight, count) as Uint8Array[];
      return rows.map((bytes) => decodeHeader(plain(bytes)));
    }
    return this.headersInClusteredRange(range[0], range[1], from, count).map(([, , bytes]) =>
      decodeHeader(plain(bytes)),
    );
  }

  /**
   * The clustered id range a scan walks along, or null when it goes by index instead (the
   * heights lie outside the clustered ids, or a header has an overflow id).
   */
  private walkableRange(
    chainId: number,
    from: ScanStart,
    maxHeight: number,
  ): [number, number] | null {
    const range = clusteredIdRange(chainId, from.height, maxHeight);
    const largestId = (this.sql.largestHeaderIdOverall.get() as number | null) ?? 0;
    return range === null || largestId >= OVERFLOW_ID_BASE ? null : range;
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
    from: ScanStart,
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
    for (const row of this.sql.headersInIdRange.iterate(low, high) as Iterable<HeaderRow>) {
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
    for (const [id, ...row] of this.sql.payloadsInIdRange.iterate(low, high) as Iterable<
      [number, ...PayloadRow]
    >) {
      if (wanted.has(id)) rows.set(id, row);
    }
    for (const id of wanted) {
      if (!rows.has(id)) rows.set(id, this.sql.payloadById.get(id) as PayloadRow);
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
    const checked = (id: number, offset: number, read: Uint8Array) =>
      bytes.set(id, this.store.checked(rows.get(id)!, offset, read));
    for (const [chainId, list] of inLogs) {
      const start = Math.min(...list.map(([, offset]) => offset));
      const end = Math.max(...list.map(([, offset, length]) => offset + length));
      const total = list.reduce((sum, [, , length]) => sum + length, 0);
      if (end - start <= total + SPAN_READ_SLACK_BYTES) {
        const span = this.payloadLog.read(chainId, start, end - start);
        for (const [id, offset, length] of list) {
          checked(id, offset, span.subarray(offset - start, offset - start + length));
        }
      } else {
        for (const [id, offset, length] of list) {
          checked(id, offset, this.payloadLog.read(chainId, offset, length));
        }
      }
    }
    return bytes;
  }
}
