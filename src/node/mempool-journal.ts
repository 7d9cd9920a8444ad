/**
 * The mempool journal: every command the node's mempools hold, kept in the data directory
 * ({@link JOURNAL_FILE}, SQLite) from before `send` answers 200 until the command leaves the
 * mempool (in a block, expired, left out), so that a restart — after `kill -9` too — takes back
 * what the node accepted (node.ts re-admits it on start).
 *
 * Durable against a crash of the process, as the chain database's blocks are: each batch is one
 * transaction committed into SQLite's write-ahead log (`synchronous = NORMAL`), in the operating
 * system's hands before `send` answers; a power failure may take the last ones back (the disk is
 * synced at checkpoints). A file SQLite cannot read is moved aside with an error on the log, and
 * the node starts with a new journal.
 */
import { renameSync } from "node:fs";
import Database from "better-sqlite3";
import { type ParsedCommand, parseCommand } from "../command/index.ts";
import { transactionText } from "./executor/block/block-executor.ts";
import type { MempoolKeeper } from "./mempool/mempool.ts";

/** The journal's file in the data directory. */
export const JOURNAL_FILE = "mempool-journal.sqlite";
/**
 * The most bytes the journal's write-ahead log keeps after a checkpoint (SQLite's
 * `journal_size_limit`). The journal's rows are bounded by the mempools' (`MAX_PENDING_COMMANDS`
 * per chain), and the file gives back the pages of rows deleted (`auto_vacuum = FULL`).
 */
export const JOURNAL_WAL_LIMIT_BYTES = 4 * 1024 * 1024;

const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS commands (
  seq INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  chain INTEGER NOT NULL,
  command TEXT NOT NULL
);
`;

/** A command as the journal gave it back. */
export interface JournalEntry {
  readonly chainId: number;
  readonly command: ParsedCommand;
}

/** What a journal held when it was opened. */
export interface JournalContents {
  /** Its commands, in the order they were accepted. */
  readonly entries: readonly JournalEntry[];
  /** How many rows did not hold a command that parses (removed). */
  readonly unreadable: number;
}

export class MempoolJournal {
  /**
   * Each kept command's row, by request key: rows are found without an index on the file (an
   * index would be a second page written by every `send`).
   */
  private readonly rows = new Map<string, number>();
  private readonly insert: Database.Statement<[string, number, string]>;
  private readonly delete: Database.Statement<[number]>;
  private readonly insertAll: (
    chainId: number,
    commands: readonly ParsedCommand[],
  ) => [string, number][];
  private readonly deleteAll: (rows: readonly number[]) => void;

  private constructor(
    private readonly db: Database.Database,
    /** Told of a release that failed (the command is then dropped at the next start). */
    private readonly onReleaseFailure: (error: unknown) => void,
  ) {
    this.insert = db.prepare("INSERT INTO commands (hash, chain, command) VALUES (?, ?, ?)");
    this.delete = db.prepare("DELETE FROM commands WHERE seq = ?");
    this.insertAll = db.transaction((chainId: number, commands: readonly ParsedCommand[]) =>
      commands.map((c): [string, number] => [
        c.hash,
        Number(this.insert.run(c.hash, chainId, transactionText(c)).lastInsertRowid),
      ]),
    );
    this.deleteAll = db.transaction((rows: readonly number[]) => {
      for (const row of rows) this.delete.run(row);
    });
  }

  /**
   * Opens the journal at `path` (created when missing) and reads what it holds. A file SQLite
   * cannot read is moved aside (`<path>.unreadable-<time>`), `onUnreadable` told why, and a new
   * journal made in its place.
   */
  static open(
    path: string,
    options: {
      readonly onUnreadable: (message: string) => void;
      readonly onReleaseFailure: (error: unknown) => void;
      /** SQLite's `synchronous` (default NORMAL; FULL also syncs the disk at every commit). */
      readonly synchronous?: "NORMAL" | "FULL";
    },
  ): { readonly journal: MempoolJournal; readonly contents: JournalContents } {
    const synchronous = options.synchronous ?? "NORMAL";
    try {
      return MempoolJournal.openFile(path, synchronous, options.onReleaseFailure);
    } catch (e) {
      const aside = `${path}.unreadable-${new Date().toISOString().replaceAll(":", "-")}`;
      for (const suffix of ["", "-wal", "-shm"]) {
        try {
          renameSync(path + suffix, aside + suffix);
        } catch {
          // Not there: nothing to move.
        }
      }
      options.onUnreadable(
        `the mempool journal ${path} is unreadable (${e instanceof Error ? e.message : String(e)}): moved to ${aside}; the commands it held are not taken back, and a new journal is started`,
      );
      return MempoolJournal.openFile(path, synchronous, options.onReleaseFailure);
    }
  }

  private static openFile(
    path: string,
    synchronous: "NORMAL" | "FULL",
    onReleaseFailure: (error: unknown) => void,
  ): { journal: MempoolJournal; contents: JournalContents } {
    const db = new Database(path);
    try {
      // Before the first table: a new file gives back the pages of deleted rows at each commit.
      db.pragma("auto_vacuum = FULL");
      // The data directory is this process's alone (data-dir.ts): no shared-memory index and
      // its locks on every commit.
      db.pragma("locking_mode = EXCLUSIVE");
      db.pragma("journal_mode = WAL");
      db.pragma(`synchronous = ${synchronous}`);
      db.pragma(`journal_size_limit = ${JOURNAL_WAL_LIMIT_BYTES}`);
      db.exec(SCHEMA_SQL);
      const journal = new MempoolJournal(db, onReleaseFailure);
      return { journal, contents: journal.read() };
    } catch (e) {
      db.close();
      throw e;
    }
  }

  /** Every command held, in the order accepted; rows that do not parse are removed and counted. */
  private read(): JournalContents {
    const rows = this.db
      .prepare("SELECT seq, hash, chain, command FROM commands ORDER BY seq")
      .all() as { seq: number; hash: string; chain: number; command: string }[];
    const entries: JournalEntry[] = [];
    const bad: number[] = [];
    for (const row of rows) {
      const command = journalledCommand(row.command);
      if (command === null || command.hash !== row.hash || this.rows.has(row.hash)) {
        bad.push(row.seq);
        continue;
      }
      entries.push({ chainId: row.chain, command });
      this.rows.set(row.hash, row.seq);
    }
    if (bad.length > 0) this.deleteAll(bad);
    return { entries, unreadable: bad.length };
  }

  /** The keeper of one chain's mempool. */
  keeperOf(chainId: number): MempoolKeeper {
    return {
      keep: (commands) => this.keep(chainId, commands),
      release: (hashes) => this.release(hashes),
    };
  }

  /** Keeps the commands not kept yet, in one transaction; throws when it cannot. */
  private keep(chainId: number, commands: readonly ParsedCommand[]): void {
    const fresh = commands.filter((c) => !this.rows.has(c.hash));
    if (fresh.length === 0) return;
    for (const [hash, row] of this.insertAll(chainId, fresh)) this.rows.set(hash, row);
  }

  /**
   * Forgets commands. A failure is told, not thrown: the command has left the mempool already,
   * and the next start drops it when admission refuses it again.
   */
  release(hashes: readonly string[]): void {
    const kept = hashes.filter((hash) => this.rows.has(hash));
    if (kept.length === 0) return;
    try {
      this.deleteAll(kept.map((hash) => this.rows.get(hash)!));
      for (const hash of kept) this.rows.delete(hash);
    } catch (e) {
      this.onReleaseFailure(e);
    }
  }

  /** How many commands its file holds. */
  get size(): number {
    return (
      this.db.prepare("SELECT count(*) AS n FROM commands").get() as {
        n: number;
      }
    ).n;
  }

  close(): void {
    this.db.close();
  }
}

/** A journalled command (its signatures were verified when it was accepted); null if damaged. */
function journalledCommand(text: string): ParsedCommand | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = parseCommand(json, { verifySignatures: false });
  return parsed.ok ? parsed.command : null;
}
