/**
 * The block store: the header and payload rows of every stored block, written once per new
 * block and read by hash. A header is kept as its binary form beside the columns the queries
 * need; a payload once, by payload hash, its bytes appended to its chain's payload log
 * (payload-log.ts) before the row that names them, or in the row itself for rows written before
 * schema version 4. Bytes read from a log are checked before anything uses them: against the
 * checksum their row keeps, or, for rows of version 4 (which kept none), against the payload's
 * own hashes; damaged bytes are refused with a `CorruptPayloadError`, told to the opener once.
 */
import type Database from "better-sqlite3";
import { decodeHeader, encodeHeader } from "../header/binary.ts";
import type { BlockHeader } from "../header/types.ts";
import {
  decodePayloadWithOutputsBinary,
  encodePayloadWithOutputsBinary,
  outputOfPayloadBinary,
} from "../payload/binary.ts";
import { type PayloadWithOutputs, payloadHashMismatches } from "../payload/payload.ts";
import { plain, weightSortKey } from "./column-values.ts";
import {
  CorruptPayloadError,
  checkPayloadBytes,
  corruptPayload,
  type PayloadLog,
  payloadChecksum,
} from "./payload-log.ts";
import { largest, largestIdBetween, type PayloadTable, payloadRowId } from "./row-allocation.ts";
import { newRowId } from "./row-ids.ts";

/** A full block: what the block endpoints serve. */
export interface Block {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs;
}

/**
 * A payload row's bytes and where a log holds them (NULL for rows older than version 4), with
 * their checksum (NULL for rows older than version 5).
 */
export type PayloadRow = [
  bytes: Uint8Array,
  chain: number | null,
  logOffset: number | null,
  logLength: number | null,
  logCrc: number | null,
];

/** The columns of a payload row as {@link PayloadRow} lists them, for the row's alias `p`. */
export const PAYLOAD_ROW_COLUMNS = "p.bytes, p.chain, p.log_offset, p.log_length, p.log_crc";

/** A header's bytes joined with its payload row. */
export type BlockRow = [header: Uint8Array, ...PayloadRow];

/** The block store's statements, prepared on the database's connection. */
function prepareStatements(db: Database.Database) {
  return {
    insertHeader: db.prepare(
      `INSERT INTO block_headers
         (id, hash, chain, height, parent, weight, payload_hash, payload_id, skip_hash,
          skip_height, bytes)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    largestHeaderId: largestIdBetween(db, "block_headers"),
    insertPayload: db.prepare(
      `INSERT INTO payloads (id, payload_hash, bytes, chain, log_offset, log_length, log_crc)
       VALUES (?, ?, X'', ?, ?, ?, ?)`,
    ),
    payloadId: db.prepare("SELECT id FROM payloads WHERE payload_hash = ?").pluck(),
    largestPayloadId: largestIdBetween(db, "payloads"),
    exists: db.prepare("SELECT 1 FROM block_headers WHERE hash = ?").pluck(),
    headerBytes: db.prepare("SELECT bytes FROM block_headers WHERE hash = ?").pluck(),
    block: db
      .prepare(
        `SELECT h.bytes, ${PAYLOAD_ROW_COLUMNS} FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id WHERE h.hash = ?`,
      )
      .raw(),
    blockPayload: db
      .prepare(
        `SELECT ${PAYLOAD_ROW_COLUMNS} FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id WHERE h.hash = ?`,
      )
      .raw(),
    payload: db
      .prepare(`SELECT ${PAYLOAD_ROW_COLUMNS} FROM payloads p WHERE payload_hash = ?`)
      .raw(),
  };
}

export class BlockStore {
  private readonly sql: ReturnType<typeof prepareStatements>;
  /** The payloads table as new blocks use it: new rows' bytes go to the payload log. */
  private readonly payloadTable: PayloadTable;

  /** The damaged stretches of the logs already told of ("chain:offset"). */
  private readonly corruptionTold = new Set<string>();

  /** `onCorruption` is told of each damaged stretch of a log once, the first time it is read. */
  constructor(
    db: Database.Database,
    private readonly payloadLog: PayloadLog,
    private readonly onCorruption: (error: CorruptPayloadError) => void = () => {},
  ) {
    const sql = prepareStatements(db);
    this.sql = sql;
    this.payloadTable = {
      idOf: sql.payloadId,
      store: (id, hash, chainId, bytes) => {
        const offset = this.payloadLog.append(chainId, bytes);
        sql.insertPayload.run(id, hash, chainId, offset, bytes.length, payloadChecksum(bytes));
      },
      largest: sql.largestPayloadId,
    };
  }

  /** Whether a header is stored. */
  has(hash: Uint8Array): boolean {
    return this.sql.exists.get(hash) !== undefined;
  }

  /**
   * Stores a new block's rows (the caller checked it): its payload's unless that payload is
   * stored already, then its header's with its skip pointer (null for a genesis block).
   */
  put(
    header: BlockHeader,
    payload: PayloadWithOutputs,
    skip: Uint8Array | null,
    skipAt: number | null,
  ): void {
    const { chainId, height } = header;
    const payloadId = payloadRowId(this.payloadTable, chainId, height, payload.payloadHash, () =>
      encodePayloadWithOutputsBinary(payload),
    );
    this.sql.insertHeader.run(
      newRowId(chainId, height, largest(this.sql.largestHeaderId)),
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
  }

  header(hash: Uint8Array): BlockHeader | undefined {
    const bytes = this.sql.headerBytes.get(hash) as Uint8Array | undefined;
    return bytes === undefined ? undefined : decodeHeader(plain(bytes));
  }

  block(hash: Uint8Array): Block | undefined {
    const row = this.sql.block.get(hash) as BlockRow | undefined;
    return row === undefined ? undefined : this.blockOf(row);
  }

  /** The output of the command at `position` of a stored block, without decoding the block. */
  commandOutput(blockHash: Uint8Array, position: number): Uint8Array | undefined {
    const row = this.sql.blockPayload.get(blockHash) as PayloadRow | undefined;
    if (row === undefined) return undefined;
    return outputOfPayloadBinary(plain(this.payloadBytes(row)), position);
  }

  payload(payloadHash: Uint8Array): PayloadWithOutputs | undefined {
    const row = this.sql.payload.get(payloadHash) as PayloadRow | undefined;
    return row === undefined
      ? undefined
      : decodePayloadWithOutputsBinary(plain(this.payloadBytes(row)));
  }

  /** A payload row's bytes: from its chain's log (checked), or from the row before version 4. */
  payloadBytes(row: PayloadRow): Uint8Array {
    const place = logPlace(row);
    if (place === null) return row[0];
    return this.checked(row, place[1], this.payloadLog.read(...place));
  }

  /**
   * `bytes`, read from the log at `offset` for a payload row, once checked: against the row's
   * checksum, or (a row of version 4, without one) against the payload's own hashes. Throws a
   * {@link CorruptPayloadError} for damaged bytes, told to the opener the first time.
   */
  checked(row: PayloadRow, offset: number, bytes: Uint8Array): Uint8Array {
    const chainId = row[1]!;
    const checksum = row[4];
    try {
      if (checksum !== null) checkPayloadBytes(chainId, offset, bytes, checksum);
      else checkPayloadHashes(chainId, offset, bytes);
    } catch (e) {
      if (!(e instanceof CorruptPayloadError)) throw e;
      const place = `${chainId}:${offset}`;
      if (!this.corruptionTold.has(place)) {
        this.corruptionTold.add(place);
        this.onCorruption(e);
      }
      throw e;
    }
    return bytes;
  }

  /** The block of a header row joined with its payload row. */
  blockOf([header, ...payload]: BlockRow): Block {
    return toBlock(header, this.payloadBytes(payload));
  }
}

/** Bytes of a payload row without a checksum, checked against the payload's hashes. */
function checkPayloadHashes(chainId: number, offset: number, bytes: Uint8Array): void {
  let why: string;
  try {
    const wrong = payloadHashMismatches(decodePayloadWithOutputsBinary(plain(bytes)));
    if (wrong.length === 0) return;
    why = `they do not match ${wrong.join(", ")}`;
  } catch (e) {
    why = `they do not decode: ${e instanceof Error ? e.message : String(e)}`;
  }
  throw corruptPayload(chainId, offset, bytes.length, why);
}

/** Where a log holds a payload row's bytes; null for a row before version 4 (bytes in the row). */
export function logPlace([, chainId, offset, length]: PayloadRow): [number, number, number] | null {
  return chainId === null || offset === null || length === null ? null : [chainId, offset, length];
}

/** A block from its header's and its payload's stored bytes. */
export function toBlock(header: Uint8Array, payload: Uint8Array): Block {
  return {
    header: decodeHeader(plain(header)),
    payload: decodePayloadWithOutputsBinary(plain(payload)),
  };
}
