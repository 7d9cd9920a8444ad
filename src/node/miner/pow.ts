/**
 * Proof-of-work mining inside the node: the lowest chain's next block is prepared, then nonces
 * are tried in slices of {@link POW_SLICE_TRIES} per event-loop turn, so requests are answered
 * while it searches. A solved block is stored; one whose chain moved on meanwhile is dropped and
 * the next work prepared. The target follows Chainweb's difficulty adjustment (chain core).
 */
import { encodeHeaderWithoutHash } from "../../chain/header/binary.ts";
import { mineNonce } from "../../chain/mining/mine.ts";
import { StorageUnavailable } from "../../pact/db/storage-failure.ts";
import type { NodeLogger } from "../logger.ts";
import { STORAGE_RETRY_MS } from "../storage-guard.ts";
import type { MiningControl } from "./control.ts";
import type { BlockProducer, PowWork } from "./producer.ts";

/** Nonces tried per event-loop turn (a few milliseconds of hashing). */
export const POW_SLICE_TRIES = 20_000;
/** How long the hash rate is averaged over before the count starts again. */
export const RATE_WINDOW_MS = 10_000;

export class PowMiner implements MiningControl {
  readonly makesBlocksOnRequest = false;
  readonly searchesNonces = true;
  private stopped = false;
  private work: PowWork | null = null;
  private bytes: Uint8Array | null = null;
  private nonce = 0n;
  private tries = 0;
  private since = Date.now();

  constructor(
    private readonly producer: BlockProducer,
    private readonly log: NodeLogger,
  ) {
    setImmediate(() => this.step());
  }

  /** New commands go into the next work, when the current block is solved. */
  commandsArrived(): void {}

  admissionStarted(): void {}

  admissionEnded(): void {}

  stop(): void {
    this.stopped = true;
  }

  private step(): void {
    if (this.stopped) return;
    const { work, bytes } = this;
    if (work === null || bytes === null) {
      // The next work's commands run beside this thread; the search starts when they are done.
      this.producer.nextWork().then(
        (next) => {
          this.work = next;
          this.bytes = encodeHeaderWithoutHash(next.header);
          this.nonce = BigInt(Math.floor(Math.random() * 2 ** 32));
          setImmediate(() => this.step());
        },
        (e: unknown) => this.failed(e),
      );
      return;
    }
    try {
      const found = mineNonce(bytes, work.header.target, this.nonce, POW_SLICE_TRIES);
      this.tries += found?.tries ?? POW_SLICE_TRIES;
      if (found === undefined) {
        this.nonce += BigInt(POW_SLICE_TRIES);
      } else {
        this.work = null;
        this.bytes = null;
        this.producer.storeSolved(work, found.nonce);
      }
      this.reportRate();
    } catch (e) {
      this.failed(e);
      return;
    }
    setImmediate(() => this.step());
  }

  /** Drops the work after a failure, and tries again (later while the disk fails). */
  private failed(e: unknown): void {
    this.work = null;
    this.bytes = null;
    // Writes are refused until the disk works again (the storage guard said why, once).
    if (e instanceof StorageUnavailable) {
      setTimeout(() => this.step(), STORAGE_RETRY_MS).unref();
      return;
    }
    this.log.error(`pow mining failed: ${e instanceof Error ? e.message : String(e)}`);
    setImmediate(() => this.step());
  }

  /** The hash rate over the last {@link RATE_WINDOW_MS} or so, on the log's progress line. */
  private reportRate(): void {
    const elapsed = Date.now() - this.since;
    if (elapsed <= 0) return;
    const rate = Math.round((this.tries * 1000) / elapsed);
    const work =
      this.work === null
        ? ""
        : `, mining chain ${this.work.chainId} height ${this.work.header.height}`;
    this.log.progress(`pow: ${rate.toLocaleString("en-US")} hashes/s${work}`);
    if (elapsed >= RATE_WINDOW_MS) {
      this.tries = 0;
      this.since = Date.now();
    }
  }
}
