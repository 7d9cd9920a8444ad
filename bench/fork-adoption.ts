/**
 * A peer's heavier branch adopted after a fork, in one process: a source node in memory makes
 * HEIGHTS heights of the 20 chains; a fresh node in memory makes its own first block of chain 0
 * (so it forked at genesis), then imports every block of the source at once (`insertBlocks`).
 * Every block after the first that does not extend a head is checked on an overlay of its
 * chain's state (fork-execution.ts), and the branch is adopted when it is heavier. Prints, per
 * run, the process's CPU time for the import and adoption, and per block; the first run is
 * warm-up. Usage: npm run bench -- fork-adoption   (or node --import tsx bench/fork-adoption.ts
 * [heights, default 40] [runs, default 5])
 */
import { blocksAfterGenesis, manualNode } from "../src/node/test-support/dev-node.ts";

const HEIGHTS = Number(process.argv[2] ?? 40);
const RUNS = Number(process.argv[3] ?? 5);

const source = manualNode();
for (let height = 1; height <= HEIGHTS; height++) {
  for (const chain of source.chains) source.producer.ensureHeight(chain.chainId, height);
}
const blocks = blocksAfterGenesis(source);
source.close();

const cpuMs: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const node = manualNode();
  node.producer.mine(0);
  const before = process.cpuUsage();
  node.insertBlocks(blocks);
  const used = process.cpuUsage(before);
  cpuMs.push((used.user + used.system) / 1000);
  node.close();
}
const warm = cpuMs.slice(1);
const median = [...warm].sort((a, b) => a - b)[Math.floor(warm.length / 2)]!;
console.log(
  `${blocks.length} blocks adopted after a fork at genesis: CPU ms per run ${cpuMs.map((ms) => ms.toFixed(0)).join(", ")} (first: warm-up); median ${median.toFixed(0)} ms, ${((median * 1000) / blocks.length).toFixed(0)} µs a block`,
);
