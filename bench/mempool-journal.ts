/**
 * What the mempool journal costs a `send` (issue #33): the node's admission of commands
 * (`submit`: the admission rules, buying gas on the state, the mempool, the journal's write
 * before the answer), in this process on a node with a data directory and no mining, measured
 * without HTTP and signature checks (which the journal does not change), so the ratio is the
 * largest a `send` can see:
 * - latency of a `send` of one command: 2,000 in a row, mean and p99;
 * - commands/s through `send`s of 100 commands: 40 of them;
 * each on a fresh data directory, the best of 3 rounds. Then the journal's write alone (a batch of
 * 1 and of 100 commands) with SQLite's `synchronous = NORMAL` (what the node uses) and `FULL`.
 * The figures without the journal: the first part on a commit before it (docs/node.md § The
 * mempool across a restart has both, their runs alternated).
 * Usage: npm run bench -- mempool-journal
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ParsedCommand } from "../src/command/index.ts";
import { makeLogger } from "../src/node/logger.ts";
import { MempoolJournal } from "../src/node/mempool-journal.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { devCommand, GAS_CAP } from "../src/node/test-support/dev-node.ts";

const SINGLE_SENDS = 2_000;
const BATCH = 100;
const BATCH_SENDS = 40;
const ROUNDS = 3;

const signed = (count: number, prefix: string): ParsedCommand[] =>
  Array.from({ length: count }, (_, i) =>
    devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce: `${prefix} ${i}` }),
  );

/** Runs `work` on a node opened on a fresh data directory, then closes and removes it. */
async function onFreshNode<T>(work: (node: BraidNode) => T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "braid-bench-journal-"));
  const node = BraidNode.open(
    resolveNodeOptions({ dataDir: join(dir, "data"), mining: "none" }, {}),
    makeLogger("error"),
  );
  try {
    return work(node);
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function sendLatencies(node: BraidNode, commands: readonly ParsedCommand[]) {
  const micros: number[] = [];
  for (const command of commands) {
    const started = performance.now();
    node.commands.submit(0, [command]);
    micros.push((performance.now() - started) * 1000);
  }
  micros.sort((a, b) => a - b);
  const mean = micros.reduce((sum, m) => sum + m, 0) / micros.length;
  return { mean, p99: micros[Math.floor(micros.length * 0.99)]! };
}

function batchThroughput(node: BraidNode, commands: readonly ParsedCommand[]): number {
  const started = performance.now();
  for (let i = 0; i < commands.length; i += BATCH) {
    node.commands.submit(0, commands.slice(i, i + BATCH));
  }
  return commands.length / ((performance.now() - started) / 1000);
}

/** The journal's write of `batch` commands at a time, µs per write (mean over `commands`). */
function journalWrite(
  synchronous: "NORMAL" | "FULL",
  commands: readonly ParsedCommand[],
  batch: number,
): number {
  const dir = mkdtempSync(join(tmpdir(), "braid-bench-journal-"));
  const { journal } = MempoolJournal.open(join(dir, "journal.sqlite"), {
    onUnreadable: (message) => {
      throw new Error(message);
    },
    onReleaseFailure: (e) => {
      throw e;
    },
    synchronous,
  });
  const keeper = journal.keeperOf(0);
  const started = performance.now();
  for (let i = 0; i < commands.length; i += batch) keeper.keep(commands.slice(i, i + batch));
  const micros = ((performance.now() - started) * 1000) / Math.ceil(commands.length / batch);
  journal.close();
  rmSync(dir, { recursive: true, force: true });
  return micros;
}

const figures: Record<string, number> = {};
const best = (values: readonly number[], higherIsBetter: boolean) =>
  higherIsBetter ? Math.max(...values) : Math.min(...values);

const latencies: { mean: number; p99: number }[] = [];
const throughputs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const singles = signed(SINGLE_SENDS, `single ${round}`);
  latencies.push(await onFreshNode((node) => sendLatencies(node, singles)));
  const batched = signed(BATCH * BATCH_SENDS, `batch ${round}`);
  throughputs.push(await onFreshNode((node) => batchThroughput(node, batched)));
}
figures.sendMeanMicros = best(
  latencies.map((l) => l.mean),
  false,
);
figures.sendP99Micros = best(
  latencies.map((l) => l.p99),
  false,
);
figures.batchCommandsPerSecond = best(throughputs, true);
console.log(
  `send of 1 command: mean ${figures.sendMeanMicros.toFixed(0)} µs, p99 ${figures.sendP99Micros.toFixed(0)} µs`,
);
console.log(`sends of ${BATCH} commands: ${figures.batchCommandsPerSecond.toFixed(0)} commands/s`);

const commands = signed(SINGLE_SENDS, "journal");
for (const synchronous of ["NORMAL", "FULL"] as const) {
  for (const batch of [1, BATCH]) {
    const micros = best(
      Array.from({ length: ROUNDS }, () => journalWrite(synchronous, commands, batch)),
      false,
    );
    figures[`journal${synchronous}Batch${batch}Micros`] = micros;
    console.log(
      `journal write of ${batch} command(s), synchronous = ${synchronous}: ${micros.toFixed(0)} µs`,
    );
  }
}
console.log(JSON.stringify(figures));
