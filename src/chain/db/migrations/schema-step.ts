/**
 * One step of the schema upgrades (runner.ts): what it changes in the tables of a file of its
 * version, and what it fills in from the stored blocks once the database's statements are ready.
 */
import type Database from "better-sqlite3";
import type { BlockIndexer } from "../block-indexer.ts";

export interface SchemaStep {
  /** The schema version this step upgrades from (to the next one). */
  readonly from: number;
  /** Whether the file's tables still lack this step's changes (read from the tables themselves). */
  tablesDue(db: Database.Database): boolean;
  /** Changes the tables; runs on open, before the database prepares its statements. */
  upgradeTables(db: Database.Database): void;
  /**
   * Fills what the new version keeps of the stored blocks, inside the transaction that then
   * records the current version, for a file whose stored version is `from` or older.
   */
  fill?(db: Database.Database, indexers: readonly BlockIndexer[]): void;
}

/** Whether a table has a column. */
export function hasColumn(db: Database.Database, table: string, column: string): boolean {
  return (
    db.prepare(`SELECT 1 FROM pragma_table_info('${table}') WHERE name = ?`).get(column) !==
    undefined
  );
}
