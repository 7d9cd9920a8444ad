/**
 * The mining modes (docs/node.md):
 * - `on-demand`: commands are mined as soon as they arrive; the ones that arrive in the same
 *   event-loop turn share a block, and so do the ones whose signatures are still being checked
 *   when the block could be made (for at most {@link ADMISSION_GATHER_MS}). When the chain's
 *   neighbours are behind, they are caught up a few blocks per turn first, and commands arriving
 *   meanwhile join the block. The block's commands run on the node's executors (an execution
 *   thread where the node has them), one block per chain at a time; commands that arrive
 *   meanwhile wait for the next. Afterwards the other chains are caught up in the background,
 *   from {@link LEVEL_AFTER_BLOCK_MS} after the block on.
 * - `interval`: every chain advances by one block every `miningInterval` seconds, the blocks of
 *   chains holding commands made on the node's executors (a round that takes longer delays the
 *   next).
 * - `pow`: chains are mined one block at a time, lowest first, each with a real nonce search
 *   against its difficulty target (pow.ts), without stopping the event loop; a candidate's
 *   commands run on the node's executors first.
 * - `none`: no block is made but by the development controls (a node that only follows, or a
 *   test that decides when blocks come).
 */
import { StorageUnavailable } from "../../pact/db/storage-failure.ts";
import type { NodeLogger } from "../logger.ts";
import type { MiningOptions } from "../options.ts";
import type { MiningControl } from "./control.ts";
import { PowMiner } from "./pow.ts";
import type { BlockProducer } from "./producer.ts";

/**
 * The longest a block that could be made waits for commands of its chain whose signatures are
 * being checked, so that commands sent together share a block (each block on a busy chain costs
 * a block on every other chain). A lone command never waits.
 */
export const ADMISSION_GATHER_MS = 2;

/**
 * How long after a block the catch-up of the other chains waits to begin: `send` is answered
 * once its block is made, and the client's next request (its `poll`) comes a round trip later.
 * Begun at once, a turn of catch-up blocks (a few ms on a slow machine) ran in front of that
 * request; with 1 ms, the send → poll of a client pausing 20 ms between transfers was 19 % shorter
 * (seven alternated pairs, docs/performance.md). 2 ms did no better and cost a tenth of the
 * transfers/s of 10 senders.
 */
export const LEVEL_AFTER_BLOCK_MS = 1;

export function startMining(
  options: MiningOptions,
  producer: BlockProducer,
  log: NodeLogger,
): MiningControl {
  switch (options.mode) {
    case "on-demand":
      return onDemand(producer, log);
    case "interval":
      return interval(producer, options.intervalSeconds, log);
    case "pow":
      return new PowMiner(producer, log);
    case "none":
      return NO_MINING;
  }
}

const NO_MINING: MiningControl = {
  makesBlocksOnRequest: false,
  searchesNonces: false,
  commandsArrived() {},
  admissionStarted() {},
  admissionEnded() {},
  stop() {},
};

function onDemand(producer: BlockProducer, log: NodeLogger): MiningControl {
  const waiting = new Set<number>();
  /** Per chain, the admissions under way. */
  const admitting = new Map<number, number>();
  /** Per chain, since when a block that could be made waits for admissions (ms). */
  const gatheringSince = new Map<number, number>();
  const gathering = (chainId: number, now: number) => {
    if ((admitting.get(chainId) ?? 0) === 0) return false;
    const since = gatheringSince.get(chainId) ?? now;
    gatheringSince.set(chainId, since);
    return now - since < ADMISSION_GATHER_MS;
  };
  let gatherTimer: NodeJS.Timeout | undefined;
  let levelTimer: NodeJS.Timeout | undefined;
  let scheduled = false;
  let stopped = false;
  /** Chains whose block an executor is making now (their commands wait for it). */
  const making = new Set<number>();
  /** Makes the chain's block beside this thread; its end runs the loop again. */
  const mine = (chainId: number) => {
    making.add(chainId);
    producer.mineBeside(chainId).then(
      (block) => {
        making.delete(chainId);
        // A block that took or left out commands but not all of them (it was full, or its time
        // budget was spent on one that timed out) leaves the rest for the next one; a block
        // the chain moved past (null) is made again.
        const progressed =
          block !== null && (block.requestKeys.length > 0 || block.rejected.length > 0);
        if ((block === null || progressed) && producer.pending(chainId) > 0) waiting.add(chainId);
        schedule();
      },
      (e: unknown) => {
        making.delete(chainId);
        reportFailure(log, `mining chain ${chainId}`, e);
        schedule();
      },
    );
  };
  const run = () => {
    scheduled = false;
    if (stopped) return;
    const now = performance.now();
    for (const chainId of [...waiting]) {
      // A chain whose neighbours are behind waits for them (below), gathering commands; a ready
      // one waits for the admissions under way (their end runs this again), and for the block
      // being made on it.
      if (making.has(chainId) || !producer.isReady(chainId) || gathering(chainId, now)) continue;
      waiting.delete(chainId);
      gatheringSince.delete(chainId);
      mine(chainId);
    }
    const waitingNow = [...waiting].filter((chainId) => !making.has(chainId));
    if (waitingNow.length === 0) {
      // The chains are caught up once no block is being made (the last one's end runs this).
      if (making.size === 0 && levelTimer === undefined) {
        levelTimer = setTimeout(() => {
          levelTimer = undefined;
          producer.level();
        }, LEVEL_AFTER_BLOCK_MS);
      }
      return;
    }
    const behind = waitingNow.filter((chainId) => !producer.isReady(chainId));
    if (behind.length < waitingNow.length && gatherTimer === undefined) {
      // Gathering ends with the admissions, or at the latest after ADMISSION_GATHER_MS.
      gatherTimer = setTimeout(() => {
        gatherTimer = undefined;
        schedule();
      }, ADMISSION_GATHER_MS);
    }
    if (behind.length === 0) return;
    let madeAny: boolean;
    try {
      madeAny = producer.catchUpStep(behind);
    } catch (e) {
      waiting.clear();
      reportFailure(log, "catching up", e);
      return;
    }
    // Nothing could be made while the chains they wait for are being made: their ends run this.
    if (madeAny) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(run);
  };
  return {
    makesBlocksOnRequest: true,
    searchesNonces: false,
    commandsArrived(chainId) {
      waiting.add(chainId);
      schedule();
    },
    admissionStarted(chainId) {
      admitting.set(chainId, (admitting.get(chainId) ?? 0) + 1);
    },
    admissionEnded(chainId) {
      const left = (admitting.get(chainId) ?? 1) - 1;
      if (left > 0) admitting.set(chainId, left);
      else admitting.delete(chainId);
      if (waiting.has(chainId)) schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(gatherTimer);
      clearTimeout(levelTimer);
    },
  };
}

function interval(producer: BlockProducer, seconds: number, log: NodeLogger): MiningControl {
  // A round whose commands run longer than the interval delays the next one: rounds never overlap.
  let round: Promise<void> | null = null;
  const timer = setInterval(() => {
    if (round !== null) return;
    round = producer
      .mineRound()
      .catch((e: unknown) => reportFailure(log, "mining", e))
      .finally(() => {
        round = null;
      });
  }, seconds * 1000);
  return {
    makesBlocksOnRequest: false,
    searchesNonces: false,
    commandsArrived() {},
    admissionStarted() {},
    admissionEnded() {},
    stop() {
      clearInterval(timer);
    },
  };
}

/**
 * Logs a failure of mining, except a refusal while the disk fails (the storage guard logs that
 * once, and mining is tried again after it works).
 */
export function reportFailure(log: NodeLogger, what: string, e: unknown): void {
  if (e instanceof StorageUnavailable) return;
  log.error(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
}
