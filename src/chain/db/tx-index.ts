/**
 * The request-key index: for each command of a stored block (forks included), the block, the
 * command's position in the payload and where its stored result leaves room for block data.
 * Written in the transaction that stores the block, from the entries its producer gives.
 */
import type Database from "better-sqlite3";
import { plain } from "./column-values.ts";

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

export class TxIndex {
  private readonly insertTxStmt: Database.Statement;
  private readonly txLocationsStmt: Database.Statement;

  constructor(db: Database.Database) {
    this.insertTxStmt = db.prepare(
      `INSERT OR IGNORE INTO transactions (request_key, block_hash, position, meta_offset)
       VALUES (?, ?, ?, ?)`,
    );
    this.txLocationsStmt = db
      .prepare("SELECT block_hash, position, meta_offset FROM transactions WHERE request_key = ?")
      .raw();
  }

  /** Indexes the commands of a block being stored (`entries` in payload order). */
  record(blockHash: Uint8Array, entries: readonly TxIndexEntry[]): void {
    for (const [position, entry] of entries.entries()) {
      this.insertTxStmt.run(entry.requestKey, blockHash, position, entry.metaOffset);
    }
  }

  /** The stored blocks holding the command with this request key (forks included). */
  locations(requestKey: Uint8Array): TxLocation[] {
    const rows = this.txLocationsStmt.all(requestKey) as [Uint8Array, number, number][];
    return rows.map(([blockHash, position, metaOffset]) => ({
      blockHash: plain(blockHash),
      position,
      metaOffset,
    }));
  }
}
