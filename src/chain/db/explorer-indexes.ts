/**
 * The explorer's indexes, a {@link BlockIndexer}: one row per account and `coin.TRANSFER` event
 * and one per `cont` command with the defpact it continues (what activity.ts finds in a
 * payload), and the queries the explorer reads them with: an account's most recent transfers,
 * a defpact's continuations.
 */
import type Database from "better-sqlite3";
import { blockActivity } from "./activity.ts";
import type { BlockIndexer, StoredBlock } from "./block-indexer.ts";
import { plain } from "./column-values.ts";

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

/** A row of the `transfers` index as the explorer reads it. */
type TransferRow = [
  chainId: number,
  height: number,
  blockHash: Uint8Array,
  requestKey: string,
  sender: string,
  receiver: string,
  amount: string,
];

/** A row of the `continuations` index as the explorer reads it. */
type ContinuationRow = [chainId: number, blockHash: Uint8Array, step: number, requestKey: string];

/** The explorer indexes' statements, prepared on the database's connection. */
function prepareStatements(db: Database.Database) {
  return {
    insertTransfer: db.prepare(
      `INSERT OR IGNORE INTO transfers
         (account, height, block_hash, position, event, chain, request_key, sender, receiver, amount)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    insertContinuation: db.prepare(
      `INSERT OR IGNORE INTO continuations (pact_id, block_hash, position, chain, step, request_key)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    transfers: db
      .prepare(
        `SELECT chain, height, block_hash, request_key, sender, receiver, amount FROM transfers
         WHERE account = ? ORDER BY height DESC, block_hash DESC, position DESC, event DESC
         LIMIT ?`,
      )
      .raw(),
    continuations: db
      .prepare(
        `SELECT chain, block_hash, step, request_key FROM continuations WHERE pact_id = ?
         ORDER BY step, chain LIMIT ?`,
      )
      .raw(),
  };
}

/**
 * The explorer's indexes. Registered with a chain database when it is opened (the node does it),
 * which attaches them to its connection; read them here.
 */
export class ExplorerIndexes implements BlockIndexer {
  private statements: ReturnType<typeof prepareStatements> | null = null;

  attach(db: Database.Database): void {
    this.statements = prepareStatements(db);
  }

  private get sql(): ReturnType<typeof prepareStatements> {
    if (this.statements === null) throw new Error("the explorer's indexes are not attached");
    return this.statements;
  }

  /** Adds a stored block's transfers and continuations to their indexes. */
  blockStored({ hash, chainId, height, payload }: StoredBlock): void {
    const { transfers, continuations } = blockActivity(payload);
    for (const t of transfers) {
      this.sql.insertTransfer.run(
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
      this.sql.insertContinuation.run(c.pactId, hash, c.position, chainId, c.step, c.requestKey);
    }
  }

  /**
   * The most recent coin transfers (by block height, newest first) sent or received by
   * `account` on any chain, forks included; at most `limit`.
   */
  recentTransfers(account: string, limit: number): TransferRecord[] {
    const rows = this.sql.transfers.all(account, limit) as TransferRow[];
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
    const rows = this.sql.continuations.all(pactId, limit) as ContinuationRow[];
    return rows.map(([chainId, blockHash, step, requestKey]) => ({
      chainId,
      blockHash: plain(blockHash),
      step,
      requestKey,
    }));
  }
}
