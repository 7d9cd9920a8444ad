/**
 * A seeded fuzz run against a server with a probe timed beside it (the fuzz tests of the node and
 * of the development server): `warmUp` requests first (a server's first requests compile its
 * code), then `workers` loops of `one`, each with its own seeded random, for `ms`, while `probe`
 * is asked every 20–40 ms. Returns the probe's 95th percentile and slowest answer, in ms.
 */
import { Random } from "../../../src/chain/test-support/random.ts";

export interface FuzzRun {
  readonly seed: number;
  readonly warmUp: number;
  readonly ms: number;
  readonly workers: number;
  /** One fuzzed request and its checks. */
  readonly one: (random: Random) => Promise<void>;
  /** One probe request and its checks. */
  readonly probe: () => Promise<void>;
}

export async function fuzzWithProbe(run: FuzzRun): Promise<{ p95: number; slowest: number }> {
  const warmUp = new Random(run.seed - 1);
  for (let i = 0; i < run.warmUp; i++) await run.one(warmUp);
  const deadline = performance.now() + run.ms;
  const workers = Array.from({ length: run.workers }, async (_, w) => {
    const worker = new Random(run.seed + w);
    while (performance.now() < deadline) await run.one(worker);
  });
  const pauses = new Random(run.seed);
  const times: number[] = [];
  const probing = (async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      await run.probe();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20 + pauses.int(20)));
    }
  })();
  await Promise.all([...workers, probing]);
  times.sort((a, b) => a - b);
  return { p95: times[Math.ceil(0.95 * times.length) - 1]!, slowest: times.at(-1)! };
}
