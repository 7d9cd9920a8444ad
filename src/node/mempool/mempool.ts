/**
 * One chain's pending commands. Admission (admission.ts, then the buy-gas check) happens before
 * `add`; here commands wait, bounded in number, until a block takes them: highest gas price
 * first, earlier arrivals first among equal prices (Chainweb's order), as many as the block's
 * gas limit holds.
 *
 * For mempool sync (Chainweb's `getPending`), each added command gets the next mempool tx id, and
 * the mempool remembers the latest additions: a peer that holds a high-water mark `[nonce, since]`
 * is told only the commands added since. The nonce is drawn at random when the mempool is made,
 * so a mark from before a restart is never taken for one of this run.
 *
 * What the mempool holds may be kept elsewhere too (a {@link MempoolKeeper}: the node's journal
 * in the data directory, mempool-journal.ts): told of each command before it is added, so that a
 * command is never pending here without being kept, and of each one that leaves.
 */
import { randomBytes } from "node:crypto";
import type { ParsedCommand } from "../../command/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import { commandGasLimit } from "../executor/block/gas-fees.ts";
import { gasPrice } from "./admission.ts";

/** The most commands one chain's mempool holds; a `send` that would pass it is refused. */
export const MAX_PENDING_COMMANDS = 10_000;
/**
 * How many of the latest additions `pendingSince` can answer from (Chainweb's `maxRecentLog`); a
 * mark older than that is answered with every pending command.
 */
export const MEMPOOL_RECENT_LOG_SIZE = 2048;

/** A high-water mark as a peer sends it back: any 64-bit integers. */
export interface MempoolMark {
  readonly nonce: bigint;
  readonly since: bigint;
}

/** What `pendingSince` answers: request keys, and the mark to ask from next time. */
export interface PendingSince {
  readonly hashes: string[];
  readonly nonce: bigint;
  /** The tx id the next added command gets. */
  readonly next: number;
}

/** Keeps what a mempool holds (its storage lies outside the mempool). */
export interface MempoolKeeper {
  /** Keeps commands about to be added; throws when they cannot be kept (nothing is added then). */
  keep(commands: readonly ParsedCommand[]): void;
  /** Forgets commands that left the mempool (in a block, expired, left out, replaced). */
  release(hashes: readonly string[]): void;
}

interface Pending {
  readonly command: ParsedCommand;
  readonly price: Decimal;
  readonly arrival: number;
}

export class Mempool {
  private readonly pending = new Map<string, Pending>();
  /** How many commands were ever added: the mempool tx id of the next one. */
  private arrivals = 0;
  /** The request keys of the latest additions, the first with tx id `arrivals - recent.length`. */
  private recent: string[] = [];
  /** This run's nonce: a random signed 64-bit integer (Chainweb's `ServerNonce`). */
  readonly nonce: bigint = randomBytes(8).readBigInt64LE();

  constructor(private readonly keeper: MempoolKeeper | null = null) {}

  get size(): number {
    return this.pending.size;
  }

  has(hash: string): boolean {
    return this.pending.has(hash);
  }

  /** Room for `count` more commands? */
  hasRoomFor(count: number): boolean {
    return this.pending.size + count <= MAX_PENDING_COMMANDS;
  }

  /**
   * Adds admitted commands; one already pending stays as it was. The new ones are kept first:
   * when the keeper throws, nothing is added.
   */
  add(commands: readonly ParsedCommand[]): void {
    const seen = new Set<string>();
    const fresh = commands.filter((c) => {
      if (this.pending.has(c.hash) || seen.has(c.hash)) return false;
      seen.add(c.hash);
      return true;
    });
    if (fresh.length > 0) this.keeper?.keep(fresh);
    for (const command of fresh) {
      const meta = command.payload.meta;
      this.pending.set(command.hash, {
        command,
        // Private commands buy no gas: they come last.
        price: meta.kind === "public" ? gasPrice(meta) : Decimal.ZERO,
        arrival: this.arrivals++,
      });
      this.recent.push(command.hash);
    }
    // Trimmed in bulk, so that an addition costs O(1) on average.
    if (this.recent.length >= 2 * MEMPOOL_RECENT_LOG_SIZE) {
      this.recent = this.recent.slice(-MEMPOOL_RECENT_LOG_SIZE);
    }
  }

  /**
   * The request keys of the public commands pending that were added since `mark` (Chainweb's
   * `getPending`): all of them without a mark, when the mark's nonce is another run's, or when it
   * is older than the last {@link MEMPOOL_RECENT_LOG_SIZE} additions or ahead of them. Private
   * commands stay on this node: they are its own entity's.
   */
  pendingSince(mark?: MempoolMark): PendingSince {
    const next = this.arrivals;
    const answer = (hashes: string[]) => ({ hashes, nonce: this.nonce, next });
    const all = () =>
      answer([...this.pending.values()].filter(isPublic).map((p) => p.command.hash));
    if (mark === undefined || mark.nonce !== this.nonce) return all();
    const oldest = next - Math.min(this.recent.length, MEMPOOL_RECENT_LOG_SIZE);
    if (mark.since <= BigInt(next - MEMPOOL_RECENT_LOG_SIZE) || mark.since > BigInt(next)) {
      return all();
    }
    const since = Math.max(Number(mark.since), oldest);
    // A command removed and added again is in the log twice.
    const added = new Set(this.recent.slice(since - (next - this.recent.length)));
    return answer([...added].filter((hash) => this.publicCommand(hash) !== undefined));
  }

  /** The public command pending under `hash` (what a peer may look up). */
  publicCommand(hash: string): ParsedCommand | undefined {
    const pending = this.pending.get(hash);
    return pending !== undefined && isPublic(pending) ? pending.command : undefined;
  }

  /**
   * The commands for the next block, in block order, whose gas limits add up to at most
   * `blockGasLimit` (a private command without one reserves the whole block). They stay pending
   * until `remove`d (when their block is stored).
   */
  select(blockGasLimit: number): ParsedCommand[] {
    const ordered = [...this.pending.values()].sort(
      (a, b) => b.price.compare(a.price) || a.arrival - b.arrival,
    );
    const chosen: ParsedCommand[] = [];
    let gas = 0;
    for (const p of ordered) {
      const limit = commandGasLimit(p.command.payload.meta, blockGasLimit);
      if (gas + limit > blockGasLimit) continue;
      gas += limit;
      chosen.push(p.command);
    }
    return chosen;
  }

  remove(hashes: Iterable<string>): void {
    const removed: string[] = [];
    for (const hash of hashes) if (this.pending.delete(hash)) removed.push(hash);
    if (removed.length > 0) this.keeper?.release(removed);
  }

  /**
   * Removes the public commands whose time to live ended by `nowSeconds` (a node that makes no
   * blocks would otherwise keep them until it restarts); their request keys.
   */
  removeExpired(nowSeconds: number): string[] {
    const hashes: string[] = [];
    for (const { command } of this.pending.values()) {
      const meta = command.payload.meta;
      // Expired as admission sees it (Chainweb's `txTTLCheck`): no longer `now < expiry`.
      if (meta.kind === "public" && meta.creationTime + meta.ttl <= nowSeconds) {
        hashes.push(command.hash);
      }
    }
    this.remove(hashes);
    return hashes;
  }

  /** How many more commands fit. */
  get room(): number {
    return Math.max(0, MAX_PENDING_COMMANDS - this.pending.size);
  }

  /** Every pending command (for dropping expired ones). */
  commands(): ParsedCommand[] {
    return [...this.pending.values()].map((p) => p.command);
  }
}

const isPublic = (p: Pending) => p.command.payload.meta.kind === "public";
