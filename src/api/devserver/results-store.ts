/**
 * Command results by request key, as the JSON text first returned: in a SQLite file under
 * `persistDir` (so a restarted server still answers `poll`), or in memory.
 */
import Database from "better-sqlite3";

export interface ResultStore {
  has(requestKey: string): boolean;
  get(requestKey: string): string | undefined;
  /** Stores a result; the key must be new. */
  put(requestKey: string, result: string): void;
  close(): void;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS results (
  request_key TEXT PRIMARY KEY NOT NULL,
  result TEXT NOT NULL
) WITHOUT ROWID`;

export class SqliteResultStore implements ResultStore {
  private readonly db: Database.Database;
  private readonly getStmt: Database.Statement<[string], string>;
  private readonly putStmt: Database.Statement<[string, string]>;

  /** Opens (creating if needed) the file at `path`; `pragmas` follow WAL mode. */
  constructor(path: string, pragmas: readonly string[] = []) {
    this.db = new Database(path);
    try {
      for (const pragma of ["journal_mode = WAL", "synchronous = NORMAL", ...pragmas]) {
        this.db.pragma(pragma);
      }
      this.db.exec(SCHEMA);
    } catch (error) {
      this.db.close();
      throw error;
    }
    this.getStmt = this.db
      .prepare<[string], string>("SELECT result FROM results WHERE request_key = ?")
      .pluck();
    this.putStmt = this.db.prepare("INSERT INTO results (request_key, result) VALUES (?, ?)");
  }

  has(requestKey: string): boolean {
    return this.getStmt.get(requestKey) !== undefined;
  }

  get(requestKey: string): string | undefined {
    return this.getStmt.get(requestKey);
  }

  put(requestKey: string, result: string): void {
    this.putStmt.run(requestKey, result);
  }

  close(): void {
    this.db.close();
  }
}

export class MemoryResultStore implements ResultStore {
  private readonly results = new Map<string, string>();
  has(requestKey: string): boolean {
    return this.results.has(requestKey);
  }
  get(requestKey: string): string | undefined {
    return this.results.get(requestKey);
  }
  put(requestKey: string, result: string): void {
    this.results.set(requestKey, result);
  }
  close(): void {}
}
