/**
 * The node's data directory: created when missing (each missing parent too, by hand: Node's own
 * recursive `mkdir` loops forever under /proc), and claimed by one process at a time. The claim
 * is an exclusive lock the operating system keeps for the process — SQLite's lock on
 * {@link LOCK_FILE}, a file with no content — so it ends with the process however that ends,
 * `kill -9` included, and a second opener is refused at once, before it changes anything. The
 * holder's process id and command line are in {@link HOLDER_FILE} beside it, for the message
 * that refuses the second.
 */
import {
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import Database from "better-sqlite3";

/** The file whose lock the process holding the data directory keeps. */
export const LOCK_FILE = "node.lock";
/** Who holds the data directory: `{"pid", "command", "since"}`. */
export const HOLDER_FILE = "node.lock.holder";

/** Another process holds the data directory. */
export class DataDirInUse extends Error {
  override readonly name = "DataDirInUse";
}

/** A data directory this process holds. */
export interface DataDirClaim {
  readonly dir: string;
  /** The topmost directory the claim created (null when the data directory existed). */
  readonly created: string | null;
  /** Ends the claim: the lock is released and the holder file removed. */
  release(): void;
}

/**
 * Claims `dir` for this process (creating it when missing); throws {@link DataDirInUse} naming
 * the holder when another process has it.
 */
export function claimDataDir(dir: string): DataDirClaim {
  const created = makeDirectory(dir);
  let lock: Database.Database;
  try {
    lock = lockDirectory(dir);
  } catch (e) {
    if (created !== null) rmSync(created, { recursive: true, force: true });
    throw e;
  }
  const holderFile = join(dir, HOLDER_FILE);
  writeFileSync(
    holderFile,
    `${JSON.stringify({ pid: process.pid, command: process.argv.join(" "), since: new Date().toISOString() })}\n`,
  );
  let held = true;
  return {
    dir,
    created,
    release() {
      if (!held) return;
      held = false;
      try {
        unlinkSync(holderFile);
      } catch {
        // Gone already: nothing to remove.
      }
      lock.close();
    },
  };
}

/** The lock of a data directory, held until the connection closes (or the process ends). */
function lockDirectory(dir: string): Database.Database {
  // No busy wait: a held lock is refused at once.
  const db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    // No journal file: the lock is all this database is for.
    db.pragma("journal_mode = MEMORY");
    db.exec("BEGIN EXCLUSIVE");
    return db;
  } catch (e) {
    db.close();
    if ((e as { code?: unknown }).code === "SQLITE_BUSY") {
      throw new DataDirInUse(
        `the data directory ${dir} is in use by ${holderOf(dir)}; stop it first, or give this node another data directory`,
      );
    }
    throw e;
  }
}

/** The process holding a data directory, as its holder file describes it. */
function holderOf(dir: string): string {
  try {
    const { pid, command, since } = JSON.parse(readFileSync(join(dir, HOLDER_FILE), "utf8")) as {
      pid: number;
      command: string;
      since: string;
    };
    return `process ${pid} (${command}) since ${since}`;
  } catch {
    return `another process (which one is unknown: ${HOLDER_FILE} is missing or unreadable)`;
  }
}

/**
 * Creates `dir` and its missing parents; returns the topmost directory created, or null when
 * `dir` existed. When a directory cannot be made, the ones made before it are removed and the
 * error names the directory.
 */
export function makeDirectory(dir: string): string | null {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(at).isDirectory();
    } catch (e) {
      if ((e as { code?: unknown }).code !== "ENOENT" || dirname(at) === at) {
        throw new Error(`cannot use the directory ${at}: ${(e as Error).message}`);
      }
      missing.push(at);
      continue;
    }
    if (!isDirectory) throw new Error(`${at} is not a directory`);
    break;
  }
  const top = missing.at(-1) ?? null;
  try {
    for (const at of missing.reverse()) mkdirSync(at);
  } catch (e) {
    if (top !== null) rmSync(top, { recursive: true, force: true });
    throw new Error(`cannot create the directory ${dir}: ${(e as Error).message}`);
  }
  return top;
}

/** The chain database's file in the data directory. */
export const CHAIN_DB_FILE = "chain.sqlite";
/** Chain c's contract state file in the data directory. */
export const stateFile = (chainId: number) => `state-${chainId}.sqlite`;

/**
 * The chain database of a data directory must not be an empty file: SQLite would take it for a
 * new database, and the node would make a new network's genesis blocks beside the contract
 * states of the old one.
 */
export function checkChainFile(dir: string): void {
  const file = join(dir, CHAIN_DB_FILE);
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return; // a new data directory
  }
  if (size === 0 && existsSync(join(dir, stateFile(0)))) {
    throw new Error(
      `the chain database ${file} is empty (0 bytes) but the data directory holds the contract states of a network: the chain database was truncated or replaced; restore it from a backup, or move the data directory away to start a new network`,
    );
  }
}
