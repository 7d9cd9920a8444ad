/**
 * The three mining modes (docs/node.md):
 * - `on-demand`: commands are mined as soon as they arrive; the ones that arrive in the same
 *   event-loop turn share a block. When the chain's neighbours are behind, they are caught up a
 *   few blocks per turn first, and commands arriving meanwhile join the block. Afterwards the
 *   other chains are caught up in the background.
 * - `interval`: every chain advances by one block every `miningInterval` seconds.
 * - `pow`: chains are mined one block at a time, lowest first, each with a real nonce search
 *   against its difficulty target (pow.ts), without stopping the event loop.
 */
import type { NodeLogger } from "../logger.ts";
import type { NodeOptions } from "../options.ts";
import type { MiningControl } from "./control.ts";
import { PowMiner } from "./pow.ts";
import type { BlockProducer } from "./producer.ts";

export function startMining(
  options: NodeOptions,
  producer: BlockProducer,
  log: NodeLogger,
): MiningControl {
  switch (options.mining) {
    case "on-demand":
      return onDemand(producer, log);
    case "interval":
      return interval(producer, options.miningIntervalSeconds, log);
    case "pow":
      return new PowMiner(producer, log);
  }
}

function onDemand(producer: BlockProducer, log: NodeLogger): MiningControl {
  const waiting = new Set<number>();
  let scheduled = false;
  let stopped = false;
  const run = () => {
    scheduled = false;
    if (stopped) return;
    for (const chainId of [...waiting]) {
      // A chain whose neighbours are behind waits for them (below), gathering commands.
      if (!producer.isReady(chainId)) continue;
      waiting.delete(chainId);
      try {
        const block = producer.mine(chainId);
        // A full block leaves commands behind: they get the next one.
        if (block.requestKeys.length > 0 && producer.pending(chainId) > 0) waiting.add(chainId);
      } catch (e) {
        log.error(`mining chain ${chainId} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (waiting.size === 0) {
      producer.level();
      return;
    }
    try {
      producer.catchUpStep([...waiting]);
    } catch (e) {
      waiting.clear();
      log.error(`catching up failed: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(run);
  };
  return {
    commandsArrived(chainId) {
      waiting.add(chainId);
      schedule();
    },
    stop() {
      stopped = true;
    },
  };
}

function interval(producer: BlockProducer, seconds: number, log: NodeLogger): MiningControl {
  const timer = setInterval(() => {
    try {
      producer.mineAll();
    } catch (e) {
      log.error(`mining failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }, seconds * 1000);
  return {
    commandsArrived() {},
    stop() {
      clearInterval(timer);
    },
  };
}
