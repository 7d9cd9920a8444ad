/**
 * One chain's pending commands. Admission (admission.ts, then the buy-gas check) happens before
 * `add`; here commands wait, bounded in number, until a block takes them: highest gas price
 * first, earlier arrivals first among equal prices (Chainweb's order), as many as the block's
 * gas limit holds.
 */
import type { ParsedCommand } from "../../command/index.ts";
import { Decimal } from "../../pact/values/index.ts";
import { commandGasLimit } from "../block-execution/gas-fees.ts";
import { gasPrice } from "./admission.ts";

/** The most commands one chain's mempool holds; a `send` that would pass it is refused. */
export const MAX_PENDING_COMMANDS = 10_000;

interface Pending {
  readonly command: ParsedCommand;
  readonly price: Decimal;
  readonly arrival: number;
}

export class Mempool {
  private readonly pending = new Map<string, Pending>();
  private arrivals = 0;

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

  /** Adds admitted commands; one already pending stays as it was. */
  add(commands: readonly ParsedCommand[]): void {
    for (const command of commands) {
      if (this.pending.has(command.hash)) continue;
      const meta = command.payload.meta;
      this.pending.set(command.hash, {
        command,
        // Private commands buy no gas: they come last.
        price: meta.kind === "public" ? gasPrice(meta) : Decimal.ZERO,
        arrival: this.arrivals++,
      });
    }
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
    for (const hash of hashes) this.pending.delete(hash);
  }

  /** Every pending command (for dropping expired ones). */
  commands(): ParsedCommand[] {
    return [...this.pending.values()].map((p) => p.command);
  }
}
