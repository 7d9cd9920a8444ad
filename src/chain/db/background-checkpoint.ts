/**
 * Checkpoints of a chain database file that do not stop its thread while the disk flushes.
 *
 * SQLite's own checkpoint (synchronous = NORMAL) syncs the write-ahead log, copies its frames
 * into the database file and syncs that file, all on the calling thread: about 25 ms every
 * 1,000 blocks on the machines measured, almost all of it the two syncs, which is what a
 * client sees as the node's slowest answers (docs/performance.md). Here the same order is kept
 * by hand, with the syncs on libuv's thread pool:
 *
 * 1. a second connection opens a read transaction, which pins the log's frames so far (SQLite
 *    neither copies frames newer than a reader's snapshot nor restarts the log under it);
 * 2. the log and the payload logs are synced in the background, one file at a time;
 * 3. a passive checkpoint copies the pinned frames into the database file (run with
 *    synchronous = OFF for that call only, so it does not sync);
 * 4. the database file is synced in the background;
 * 5. the pin is released, and a RESTART checkpoint copies the few frames written meanwhile
 *    (the payload logs appended to since step 2 synced first), syncing as NORMAL does, and lets
 *    the log start over (the connection stays at NORMAL, which also syncs the log's new header
 *    then). This step runs on the node's thread: about 5–10 ms, mostly one `fdatasync` per
 *    payload log written meanwhile (a second background round first did not shorten it).
 *
 * A power failure at any point leaves the database file holding only pages whose log frames
 * were durable before they were copied, and the log is never restarted over pages that are not
 * durable in the file: the guarantees of synchronous = NORMAL. `kill -9` is harmless throughout
 * (the operating system keeps what was written).
 */
import { closeSync, openSync } from "node:fs";
import Database from "better-sqlite3";
import { fdatasyncInBackground, type PayloadLog } from "./payload-log.ts";

export class BackgroundCheckpoint {
  private blocksSinceCheckpoint = 0;
  private running: Promise<void> | null = null;
  private failure: Error | null = null;
  private closed = false;
  private pin: Database.Database | null = null;
  private pinRead: Database.Statement | null = null;
  private files: { readonly log: number; readonly database: number } | null = null;

  /** Checkpoints start every `everyBlocks` blocks stored. */
  constructor(
    private readonly db: Database.Database,
    private readonly path: string,
    private readonly payloadLog: PayloadLog,
    private readonly everyBlocks: number,
  ) {}

  /** `count` more blocks were stored: starts a checkpoint when they reach the distance. */
  stored(count: number): void {
    this.blocksSinceCheckpoint += count;
    if (this.blocksSinceCheckpoint < this.everyBlocks) return;
    this.blocksSinceCheckpoint = 0;
    this.start();
  }

  /** Throws the failure of the last checkpoint (a disk error), once. */
  check(): void {
    const failure = this.failure;
    if (failure === null) return;
    this.failure = null;
    throw new Error(`the chain database could not be synced to disk: ${failure.message}`, {
      cause: failure,
    });
  }

  /**
   * Starts a checkpoint unless one is under way. Never throws: it runs after blocks were
   * stored, so a failure is kept for {@link check}.
   */
  private start(): void {
    if (this.running !== null || this.closed) return;
    let pin: Database.Database;
    try {
      pin = this.openPin();
      pin.exec("BEGIN");
      this.pinRead!.get();
    } catch (e) {
      if (this.pin?.inTransaction) this.pin.exec("ROLLBACK");
      this.failure = e instanceof Error ? e : new Error(String(e));
      return;
    }
    const files = this.files!;
    // One sync after another (syncEachInBackground says why).
    this.running = fdatasyncInBackground(files.log)
      .then(() => this.payloadLog.syncInBackground())
      .then(() => {
        if (this.closed) return;
        this.db.pragma("synchronous = OFF");
        try {
          this.db.pragma("wal_checkpoint(PASSIVE)");
        } finally {
          this.db.pragma("synchronous = NORMAL");
        }
        return fdatasyncInBackground(files.database);
      })
      .then(() => {
        if (this.closed) return;
        pin.exec("COMMIT");
        this.payloadLog.sync();
        this.db.pragma("wal_checkpoint(RESTART)");
      })
      .catch((e: unknown) => {
        if (!this.closed) this.failure = e instanceof Error ? e : new Error(String(e));
      })
      .finally(() => {
        if (pin.inTransaction) pin.exec("ROLLBACK");
        this.running = null;
        if (this.closed) this.release();
      });
  }

  /** Whether a checkpoint is under way (its disk syncs running in the background). */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves when no checkpoint is under way. */
  async settled(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  /** Stops checkpointing; call before closing the database. */
  close(): void {
    this.closed = true;
    if (this.running === null) this.release();
  }

  private openPin(): Database.Database {
    if (this.pin === null) {
      this.pin = new Database(this.path, { readonly: true });
      this.pinRead = this.pin.prepare("SELECT count(*) FROM meta");
      this.files = {
        log: openSync(`${this.path}-wal`, "r"),
        database: openSync(this.path, "r"),
      };
    }
    return this.pin;
  }

  private release(): void {
    this.pin?.close();
    this.pin = null;
    if (this.files !== null) {
      closeSync(this.files.log);
      closeSync(this.files.database);
      this.files = null;
    }
  }
}
