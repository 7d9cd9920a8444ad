/**
 * A catch-up sync's import, in one process: a source node in memory makes HEIGHTS empty heights
 * of the 20 chains (as `DevControls.mine` makes them), then a fresh node on SQLite files in a
 * temporary data directory imports them as the P2P sync hands them over — headers with payloads
 * without outputs (`PayloadData`), heights in order and the chains in order within a height, in
 * stretches of `PAYLOAD_FETCH_BLOCKS` through `ports.sync.importBlocks`, which lets the event
 * loop run between its transactions, and a turn of the event loop between stretches (where the
 * contract states' flush timer may run). Only the import is timed;
 * nothing travels over HTTP. The fast path's whole cost per block: header validated, payload
 * hashes checked, the block executed (its coinbase) and compared, stored, the state committed,
 * the block announced.
 * Prints µs per block and blocks/s, for the whole import and for its second half (warm), and
 * the process's CPU time per block over the whole import.
 * Usage: npm run bench -- import   (or node --import tsx bench/import.ts [heights, default 500];
 * add --cpu-prof before --import for a CPU profile)
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { payloadDataOf } from "../src/chain/payload/payload.ts";
import type { ForeignBlock } from "../src/node/import/foreign-block.ts";
import { makeLogger } from "../src/node/logger.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { blocksAfterGenesis } from "../src/node/test-support/dev-node.ts";
import { PAYLOAD_FETCH_BLOCKS } from "../src/p2p/cut-sync.ts";

const HEIGHTS = Number(process.argv[2] ?? 500);

/** The blocks of HEIGHTS empty heights of every chain, as a peer's sync would receive them. */
function sourceBlocks(): ForeignBlock[] {
  const source = BraidNode.open(
    resolveNodeOptions({ inMemory: true, mining: "none" }, {}),
    makeLogger("error"),
  );
  try {
    for (let height = 1; height <= HEIGHTS; height++) {
      for (const chain of source.chains) source.producer.ensureHeight(chain.chainId, height);
    }
    return blocksAfterGenesis(source).map((block) => ({
      header: block.header,
      payload: payloadDataOf(block.payload),
    }));
  } finally {
    source.close();
  }
}

const blocks = sourceBlocks();
const dir = mkdtempSync(join(tmpdir(), "braid-bench-import-"));
try {
  const node = BraidNode.open(
    resolveNodeOptions({ mining: "none" }, { dataDir: join(dir, "data") }),
    makeLogger("error"),
  );
  try {
    const half = Math.floor(blocks.length / PAYLOAD_FETCH_BLOCKS / 2) * PAYLOAD_FETCH_BLOCKS;
    let importing = 0;
    let secondHalf = 0;
    const cpuBefore = process.cpuUsage();
    for (let start = 0; start < blocks.length; start += PAYLOAD_FETCH_BLOCKS) {
      const batch = blocks.slice(start, start + PAYLOAD_FETCH_BLOCKS);
      const t0 = performance.now();
      await node.ports.sync.importBlocks(batch);
      const ms = performance.now() - t0;
      importing += ms;
      if (start >= half) secondHalf += ms;
      await nextTurn();
    }
    const cpu = process.cpuUsage(cpuBefore);
    const top = Math.min(...node.chains.map((c) => c.head.height));
    if (top !== HEIGHTS) throw new Error(`the node reached height ${top}, not ${HEIGHTS}`);
    const line = (label: string, count: number, ms: number) =>
      console.log(
        `${label.padEnd(28)} ${((ms * 1000) / count).toFixed(1).padStart(7)} µs/block  ${Math.round(
          (count * 1000) / ms,
        )
          .toString()
          .padStart(6)} blocks/s  (${count} blocks)`,
      );
    line("import, all blocks", blocks.length, importing);
    line("import, second half", blocks.length - half, secondHalf);
    // The process's CPU time (user and system) while importing, steadier than the clock on a
    // machine shared with other work (it includes the turns between batches).
    line("import, all blocks, CPU", blocks.length, (cpu.user + cpu.system) / 1000);
  } finally {
    node.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
