/**
 * The hook for indexes kept beside the chain database's own (the explorer's: explorer-indexes.ts).
 * A {@link BlockIndexer} is told of every block as it is stored, inside the transaction that
 * stores it, and of every block already stored when the schema upgrade that made its tables
 * runs (migrations/). Its tables are in the schema (schema.ts), so that a file's layout does not
 * depend on what was registered.
 */
import type Database from "better-sqlite3";
import type { PayloadWithOutputs } from "../payload/payload.ts";

/** A block as an indexer sees it. */
export interface StoredBlock {
  readonly hash: Uint8Array;
  readonly chainId: number;
  readonly height: number;
  readonly payload: PayloadWithOutputs;
}

export interface BlockIndexer {
  /** Prepares its statements on the chain database's connection, once, as the database opens. */
  attach(db: Database.Database): void;
  /** Indexes a block just stored. Throwing rolls back the whole transaction storing it. */
  blockStored(block: StoredBlock): void;
}
