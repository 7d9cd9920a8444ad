/**
 * Whether the node's writes to its data directory work. It is told of writes at their
 * boundaries: the contract states' (executor/chain-state.ts: every block executed, committed,
 * rewound or flushed), the chain database's (the importer, the one writer of blocks; the
 * development controls), the mempool journal's (the command service's admission). A failure of
 * the disk (`storageFailureReason`: full, an I/O error) met by any of them stops the node
 * writing: it makes no block, and writes (`send`, `private`, the development controls) are
 * refused with {@link StorageUnavailable} (a 503 naming the reason) while reads go on. The contract states, which may have lost the blocks
 * they batched since their last flush, are recovered at once: reloaded from their files, the
 * stored blocks after them replayed from the chain database. Then, every
 * {@link STORAGE_RETRY_MS}, once the disk has {@link STORAGE_RESUME_FREE_BYTES} free, the states
 * are flushed as a test: when that works, the node writes and makes blocks again.
 */
import { statfsSync } from "node:fs";
import {
  StateWriteLost,
  StorageUnavailable,
  storageFailureReason,
} from "../pact/db/storage-failure.ts";
import type { NodeLogger } from "./logger.ts";

/** How often a node whose writes failed tries again (ms). */
export const STORAGE_RETRY_MS = 1_000;

/**
 * The free space the data directory's disk needs before a node whose writes failed tries again:
 * room for the write-ahead logs to grow for a while, so it does not fail again at once.
 */
export const STORAGE_RESUME_FREE_BYTES = 4 * 1024 * 1024;

export interface StorageGuardParts {
  /** The data directory (null: in memory, where writes do not fail for want of disk). */
  readonly dataDir: string | null;
  readonly log: NodeLogger;
  /** Brings the contract states back in line with the chain database after a failed write. */
  readonly recover: () => void;
  /** A write that must work before the node writes again (the states' flush). */
  readonly probe: () => void;
  /** Told once writes work again (mining takes up the commands that waited). */
  readonly resumed: () => void;
}

export class StorageGuard {
  /** Why writes are refused; null while they work. */
  private reason: string | null = null;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly parts: StorageGuardParts) {}

  /** Whether writes are refused (a failed write, not yet retried with success). */
  get failed(): boolean {
    return this.reason !== null;
  }

  /** Throws {@link StorageUnavailable} while writes are refused. */
  check(): void {
    if (this.reason !== null) throw this.unavailable(this.reason);
  }

  /**
   * What to throw for `e`, met by a write: for a failure of the disk, {@link StorageUnavailable}
   * (and writes are refused from now on); anything else is `e` itself.
   */
  refusal(e: unknown): unknown {
    if (e instanceof StorageUnavailable) return e;
    const reason = storageFailureReason(e);
    if (reason === null) return e;
    this.fail(reason, e);
    return this.unavailable(reason);
  }

  /**
   * Records that a contract state is unusable (it could not give up its open block): the
   * recovery reloads it, as after a failure of the disk.
   */
  stateUnusable(chainId: number, e: unknown): void {
    const message = e instanceof Error ? e.message : String(e);
    this.refusal(
      new StateWriteLost(
        `chain ${chainId}'s contract state could not give up its block: ${message}`,
        {
          cause: e,
        },
      ),
    );
  }

  /**
   * Runs a write (sync or async): refused while writes are; a failure of the disk it meets is
   * thrown as {@link StorageUnavailable}.
   */
  write<T>(work: () => T): T {
    this.check();
    try {
      const result = work();
      if (result instanceof Promise) {
        return result.catch((e: unknown) => {
          throw this.refusal(e);
        }) as T;
      }
      return result;
    } catch (e) {
      throw this.refusal(e);
    }
  }

  /** Stops retrying (the node closes). */
  close(): void {
    this.closed = true;
    clearInterval(this.retryTimer);
  }

  private unavailable(reason: string): StorageUnavailable {
    const where = this.parts.dataDir ?? "the node's storage";
    const until =
      reason === "disk full" ? `there is space on ${where} again` : `writes to ${where} work again`;
    return new StorageUnavailable(
      `${reason}: the node makes no blocks and refuses writes until ${until} (reads still work)`,
    );
  }

  private fail(reason: string, e: unknown): void {
    if (this.reason !== null || this.closed) return;
    this.reason = reason;
    const message = e instanceof Error ? e.message : String(e);
    const detail = reason.includes(message) ? "" : ` (${message})`;
    this.parts.log.error(
      `storage: ${reason}${detail}: no more blocks, writes refused with 503 until it works again`,
    );
    // After the failed work has unwound, before any request is answered.
    queueMicrotask(() => this.recoverStates());
    this.retryTimer = setInterval(() => this.retry(), STORAGE_RETRY_MS).unref();
  }

  /** Recovers the states (reads then see every stored block); a failure waits for the retry. */
  private recoverStates(): boolean {
    if (this.closed) return false;
    try {
      this.parts.recover();
      return true;
    } catch (e) {
      if (!isStorageTrouble(e)) {
        this.parts.log.error(
          `storage: recovering the contract states failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      return false;
    }
  }

  private retry(): void {
    if (this.closed || !this.hasRoom()) return;
    if (!this.recoverStates()) return;
    try {
      this.parts.probe();
    } catch (e) {
      if (!isStorageTrouble(e)) {
        this.parts.log.error(
          `storage: trying to write again failed: ${e instanceof Error ? e.message : String(e)}`,
        );
      }
      // The failed flush may have taken the batched blocks with it.
      this.recoverStates();
      return;
    }
    clearInterval(this.retryTimer);
    this.parts.log.info(`storage: writes work again (${this.reason} before); making blocks again`);
    this.reason = null;
    this.parts.resumed();
  }

  /** Whether the data directory's disk has {@link STORAGE_RESUME_FREE_BYTES} free. */
  private hasRoom(): boolean {
    if (this.parts.dataDir === null) return true;
    try {
      const { bavail, bsize } = statfsSync(this.parts.dataDir);
      return bavail * bsize >= STORAGE_RESUME_FREE_BYTES;
    } catch {
      return false;
    }
  }
}

/** A failure of the disk, or a refusal it caused: nothing new to log. */
function isStorageTrouble(e: unknown): boolean {
  return e instanceof StorageUnavailable || storageFailureReason(e) !== null;
}
