/**
 * The backend interface under `PactStateDb`: versioned text values by (domain, key). A backend
 * knows nothing of Pact values or write modes; `pact-db.ts` holds those semantics once for all
 * backends. Domains are the system domains (always present) and user tables (created).
 */
import type { BlockRecord } from "./types.ts";

/** Reads of one state. */
export interface StoreReader {
  /** Whether the domain exists (system domains always do). */
  hasDomain(domain: string): boolean;
  /** The value, or undefined when the key (or the domain) is absent. */
  get(domain: string, key: string): string | undefined;
  /** The keys, ascending by code point. */
  keys(domain: string): string[];
  /** The keys with their values, ascending by key. */
  entries(domain: string): Array<[string, string]>;
}

/**
 * A state that takes writes, in nested transactions: `begin` opens a level (the outermost is
 * the database transaction, inner ones savepoints), `commit` keeps the innermost level's writes
 * in the level around it (or in the database), `rollback` discards them.
 */
export interface WritableStore extends StoreReader {
  /** Creates a user table domain. */
  createDomain(domain: string, txId: number, height: number): void;
  /** Stores a value; a second write of a key by the same transaction replaces the first. */
  put(domain: string, key: string, value: string, txId: number, height: number): void;
  begin(): void;
  commit(): void;
  rollback(): void;
  /** How many levels are open. */
  readonly depth: number;
  /** Records the transaction counter; kept with the next outermost commit. */
  saveNextTxId(txId: number): void;
  /** The counter last saved (0 for a new store). */
  loadNextTxId(): number;
}

/** A writable state that remembers every version and the blocks that wrote them. */
export interface VersionedStore extends WritableStore {
  /** The state made of the writes with transaction ids below `txIdBound`. */
  readerBefore(txIdBound: number): StoreReader;
  recordBlock(block: BlockRecord): void;
  block(height: number): BlockRecord | undefined;
  latestBlock(): BlockRecord | undefined;
  /**
   * Deletes every version with a transaction id of at least `txIdBound`, every user table
   * created by those transactions, and every block above `height`.
   */
  rewind(height: number, txIdBound: number): void;
  /** Makes what was committed durable, for a store that holds commits back; else nothing. */
  flush(): void;
  /** Starts reading one consistent snapshot of the stored state (SQLite: a read transaction). */
  beginSnapshot(): void;
  /** Ends it (nothing when none is held). */
  endSnapshot(): void;
  /**
   * After a failed write: discards the open levels and, when the database threw more away (a
   * store that holds commits back may lose them), everything not yet durable.
   */
  recover(): void;
  close(): void;
}
