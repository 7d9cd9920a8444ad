/**
 * A catch-up sync over HTTP on one machine: a `braid node` process (the built `dist/`, on
 * loopback, `--mining none --dev-controls`) makes HEIGHTS empty heights of the 20 chains; then a
 * fresh node in this process, on SQLite files in a temporary directory, syncs to its cut with the
 * P2P layer's cut sync (branch queries, payload batches, the import pipeline) as a node joining
 * the network does. Prints blocks/s, µs per block (wall and this process's CPU time), the parts
 * spent in the import pipeline (from handing a batch over until it is imported, the turns it
 * lets the event loop have between its transactions included), waiting and collecting garbage,
 * the longest the event loop was held (what a request arriving then would wait), how many blocks
 * its execution thread checked ahead of their import, and the serving peer's CPU time per block.
 * The network bench (bench/network.ts) measures the same on network namespaces with a whole node;
 * this one runs anywhere and isolates the sync.
 * Usage: npm run build && npm run bench -- sync (3,000 heights), or
 * node --max-semi-space-size=32 --import tsx bench/sync.ts [heights] (braid's V8 flags:
 * src/cli/runtime-flags.ts)
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { makeLogger } from "../src/node/logger.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { CutSync, peerCut } from "../src/p2p/cut-sync.ts";
import { PeerClient } from "../src/p2p/peer-client.ts";
import { startNode } from "../test/support/node-process.ts";

const HEIGHTS = Number(process.argv[2] ?? 3000);

/** A process's CPU time so far in µs, from /proc (Linux; null elsewhere). */
function processCpuMicros(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime, fields 14 and 15 of stat, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}
const CHAINS = Array.from({ length: 20 }, (_, c) => c);

const peer = await startNode({ built: true, args: ["--mining", "none", "--dev-controls"] });
const dir = mkdtempSync(join(tmpdir(), "braid-bench-sync-"));
try {
  for (let done = 0; done < HEIGHTS; done += 500) {
    const response = await fetch(`${peer.url}/braid/dev/mine`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ blocks: Math.min(500, HEIGHTS - done), chains: CHAINS }),
    });
    if (!response.ok) throw new Error(`mining: ${response.status} ${await response.text()}`);
  }
  const { hostname, port } = new URL(peer.url);
  const client = new PeerClient({ hostname, port: Number(port) }, "development");
  const cut = peerCut(await client.call("getCut"), CHAINS.length);
  const node = BraidNode.open(
    resolveNodeOptions({ mining: "none" }, { dataDir: join(dir, "data") }),
    makeLogger("error"),
  );
  try {
    let importing = 0;
    const sync = node.ports.sync as { importBlocks: typeof node.ports.sync.importBlocks };
    const importBlocks = sync.importBlocks;
    sync.importBlocks = async (blocks) => {
      const started = performance.now();
      try {
        await importBlocks(blocks);
      } finally {
        importing += performance.now() - started;
      }
    };
    const started = performance.now();
    let collecting = 0;
    const gc = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) collecting += entry.duration;
    });
    gc.observe({ entryTypes: ["gc"] });
    const cpu = process.cpuUsage();
    const loop = performance.eventLoopUtilization();
    const held = monitorEventLoopDelay({ resolution: 1 });
    held.enable();
    const peerCpu = processCpuMicros(peer.child.pid);
    const { blocks } = await new CutSync(node.ports).syncTo(client, cut);
    const millis = performance.now() - started;
    const { user, system } = process.cpuUsage(cpu);
    const { idle } = performance.eventLoopUtilization(loop);
    held.disable();
    gc.disconnect();
    const peerCpuAfter = processCpuMicros(peer.child.pid);
    const line = (name: string, value: string) => console.log(`${name.padEnd(28)} ${value}`);
    line(
      "sync",
      `${Math.round((blocks * 1000) / millis)} blocks/s (${blocks} blocks in ${(millis / 1000).toFixed(1)} s)`,
    );
    line("per block, wall", `${((millis * 1000) / blocks).toFixed(0)} µs`);
    line("per block, CPU", `${((user + system) / blocks).toFixed(0)} µs`);
    line("of it in the import pipeline", `${((importing * 1000) / blocks).toFixed(0)} µs`);
    line("of it waiting (event loop idle)", `${((idle * 1000) / blocks).toFixed(0)} µs`);
    line("of it collecting garbage", `${((collecting * 1000) / blocks).toFixed(0)} µs`);
    // How long a request arriving during the sync could wait for this thread (histogram in ns).
    line(
      "event loop held, longest",
      `${(held.max / 1e6).toFixed(0)} ms (p99 ${(held.percentile(99) / 1e6).toFixed(0)} ms)`,
    );
    line("checked on execution threads", `${node.importer.checkedAhead} of ${blocks} blocks`);
    if (peerCpu !== null && peerCpuAfter !== null) {
      line("peer's CPU per block served", `${((peerCpuAfter - peerCpu) / blocks).toFixed(0)} µs`);
    }
  } finally {
    await node.close();
  }
} finally {
  await peer.stop();
  rmSync(dir, { recursive: true, force: true });
}
