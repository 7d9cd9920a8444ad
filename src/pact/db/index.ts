/**
 * Contract state storage: one interface (types.ts), two backends. The memory backend is the
 * REPL's default; the SQLite backend keeps a chain's state in one file (schema.ts).
 */
import { MemoryStore } from "./memory-store.ts";
import { PactStateDb } from "./pact-db.ts";
import { SqliteStore, type SqliteStoreOptions } from "./sqlite-store.ts";
import type { VersionedPactDb } from "./types.ts";

export { DbError, type DbErrorCode } from "./errors.ts";
export { userTableName } from "./pact-db.ts";
export type { SqliteStoreOptions } from "./sqlite-store.ts";
export { StateWriteLost, StorageUnavailable, storageFailureReason } from "./storage-failure.ts";
export { hashTxLogs } from "./txlog.ts";
export * from "./types.ts";

/** A new, empty state held in memory. */
export function openMemoryPactDb(): VersionedPactDb {
  return new PactStateDb(new MemoryStore());
}

/** The state in the SQLite file at `path` (created if missing), or in memory for ":memory:". */
export function openSqlitePactDb(path: string, options: SqliteStoreOptions = {}): VersionedPactDb {
  return new PactStateDb(new SqliteStore(path, options));
}
