/**
 * The node's block endpoints over HTTP (issue #12): latency of `GET .../block?limit=100` at a
 * random height and of `POST .../block/branch?limit=100` below a chain head at a random
 * `maxheight`, on a database holding N heights on all 20 chains (each block about 1.2 kB of
 * payload, as bench/chain-db.ts), for each N given, measured once the file is at rest (closed,
 * synced and reopened after it was filled); then the header stream's delivery latency
 * from block commit (the node's `block` event) to the event parsed at the client, with 100
 * subscribers, on an in-memory node mining one block every 20 ms.
 * Usage: node --import tsx bench/node-api.ts [heights per chain..., default 1000 10000]
 */
import { closeSync, fsyncSync, mkdtempSync, openSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { acceptJsonBodiesOnly } from "../src/api/http/json-body.ts";
import { sendPlainErrors } from "../src/api/http/plain-errors.ts";
import { registerChainRoutes } from "../src/api/service/chain-routes.ts";
import { addCommonHeaders } from "../src/api/service/headers.ts";
import { startNodeServer } from "../src/api/service/server.ts";
import { type Block, ChainDatabase } from "../src/chain/db/chain-database.ts";
import type { BlockHeader } from "../src/chain/header/types.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../src/chain/payload/constants.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../src/chain/payload/payload.ts";
import { braidedChild, testGenesis } from "../src/chain/test-support/history.ts";
import { DEVELOPMENT } from "../src/chain/version/known-versions.ts";
import { allChainIds } from "../src/chain/version/version.ts";
import { encodeBase64Url } from "../src/crypto/index.ts";
import { makeLogger } from "../src/node/logger.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { ProgressLine } from "../src/node/progress.ts";

const SIZES = process.argv.length > 2 ? process.argv.slice(2).map(Number) : [1000, 10000];
const CHAINS = allChainIds(DEVELOPMENT);
const REQUESTS = 300;
const SUBSCRIBERS = 100;
const STREAM_BLOCKS = 200;

function payloadFor(chainId: number, height: number): PayloadWithOutputs {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const filler = "x".repeat(240);
  const transactions = [0, 1].map((i) => ({
    transaction: utf8(`{"hash":"${chainId}-${height}-${i}","sigs":[],"cmd":"${filler}"}`),
    output: utf8(`{"gas":600,"result":{"status":"success","data":"${filler}"},"txId":${height}}`),
  }));
  return makePayloadWithOutputs(transactions, NO_MINER_DATA, NO_COINBASE_OUTPUT);
}

/** Progress of the long parts on standard error (in place on a terminal). */
const progress = new ProgressLine(process.stderr);

/** Fills `db` with `heights` braided heights on every chain, in batches. */
function fill(db: ChainDatabase, heights: number): void {
  let below = new Map<number, BlockHeader>();
  let batch: Block[] = [];
  for (const chainId of CHAINS) {
    const genesis = testGenesis(chainId);
    batch.push(genesis);
    below.set(chainId, genesis.header);
  }
  for (let height = 1; height <= heights; height++) {
    const layer = new Map<number, BlockHeader>();
    for (const chainId of CHAINS) {
      const block = braidedChild(below.get(chainId)!, below, {
        payload: payloadFor(chainId, height),
      });
      batch.push(block);
      layer.set(chainId, block.header);
    }
    below = layer;
    if (batch.length >= 2000) {
      db.insertBlocks(batch);
      batch = [];
    }
    progress.update(`building the history: height ${height} of ${heights}`);
  }
  db.insertBlocks(batch);
  progress.done(`built ${heights} heights on ${CHAINS.length} chains`);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** CPU milliseconds of this process (client and server) per request, a steadier figure. */
const cpuTimes: number[] = [];

function request(url: string, method = "GET", body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: body === undefined ? {} : { "content-type": "application/json" },
      },
      (res) => {
        res.resume();
        res.once("end", () => {
          if (res.statusCode !== 200) reject(new Error(`${res.statusCode} for ${url}`));
          else {
            const used = process.cpuUsage(cpu);
            cpuTimes.push((used.user + used.system) / 1000);
            resolve(performance.now() - started);
          }
        });
      },
    );
    req.once("error", reject);
    req.end(body);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (n: number) => `${n.toFixed(2)} ms`;

let seed = 12345;
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed % n;
};

interface Figures {
  block: number;
  branch: number;
  blockCpu: number;
  branchCpu: number;
}

async function pages(heights: number): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), "braid-bench-node-api-"));
  try {
    const file = join(dir, "chain.sqlite");
    const filling = new ChainDatabase(file, DEVELOPMENT);
    const started = performance.now();
    fill(filling, heights);
    console.log(
      `${heights} heights × ${CHAINS.length} chains stored in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    // Measured on the file at rest, as a node holding these blocks has it: closing checkpoints
    // the log, and the fsync waits until the kernel has written the gigabytes just stored (their
    // write-back would otherwise compete with the reads measured).
    filling.close();
    const fd = openSync(file, "r+");
    fsyncSync(fd);
    closeSync(fd);
    const db = new ChainDatabase(file, DEVELOPMENT);
    // The routes read only these members of the node.
    const node = {
      chainDb: db,
      chains: CHAINS.map((chainId) => ({ chainId })),
      options: { network: "development" },
    } as unknown as BraidNode;
    const app = Fastify({ logger: false, forceCloseConnections: true });
    addCommonHeaders(app, { nowSeconds: () => Date.now() / 1000 });
    acceptJsonBodiesOnly(app);
    sendPlainErrors(app, 1 << 20, (e) => console.error(e));
    registerChainRoutes(app, node.ports);
    await app.listen({ host: "127.0.0.1", port: 0 });
    const port = (app.server.address() as { port: number }).port;
    const base = `http://127.0.0.1:${port}/chainweb/0.0/development`;
    const heads = CHAINS.map((c) => encodeBase64Url(db.bestHead(c)!.hash));
    for (let i = 0; i < 30; i++) await request(`${base}/chain/${random(20)}/block?limit=100`);
    cpuTimes.length = 0;
    const blockTimes: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      blockTimes.push(
        await request(
          `${base}/chain/${random(20)}/block?limit=100&minheight=${random(heights - 100)}`,
        ),
      );
    }
    const blockCpu = percentile(cpuTimes, 50);
    cpuTimes.length = 0;
    const branchTimes: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const c = random(20);
      branchTimes.push(
        await request(
          `${base}/chain/${c}/block/branch?limit=100&maxheight=${100 + random(heights - 100)}`,
          "POST",
          JSON.stringify({ lower: [], upper: [heads[c]] }),
        ),
      );
    }
    const branchCpu = percentile(cpuTimes, 50);
    console.log(
      `  block page (limit 100):  median ${ms(percentile(blockTimes, 50))}, p99 ${ms(percentile(blockTimes, 99))}, CPU median ${ms(blockCpu)}`,
    );
    console.log(
      `  branch page (limit 100): median ${ms(percentile(branchTimes, 50))}, p99 ${ms(percentile(branchTimes, 99))}, CPU median ${ms(branchCpu)}`,
    );
    await app.close();
    db.close();
    return {
      block: percentile(blockTimes, 50),
      branch: percentile(branchTimes, 50),
      blockCpu,
      branchCpu,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stream(): Promise<void> {
  const node = BraidNode.open(
    resolveNodeOptions({ inMemory: true, mining: "none" }, {}),
    makeLogger("error"),
  );
  const committed = new Map<string, number>();
  // Registered before the server's hub, so it runs first: the commit time.
  node.events.on("block", (_c, block) => {
    committed.set(encodeBase64Url(block.header.hash), performance.now());
  });
  const server = await startNodeServer(node.ports, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 1 << 20,
    listenTimeoutSeconds: 5,
    onFault: (e) => console.error(e),
  });
  const latencies: number[] = [];
  let received = 0;
  const url = `${server.url}/chainweb/0.0/development/header/updates`;
  await Promise.all(
    Array.from(
      { length: SUBSCRIBERS },
      () =>
        new Promise<void>((resolve) => {
          http.get(url, (res) => {
            let buffer = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              const now = performance.now();
              buffer += chunk;
              for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
                const event = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                if (!event.startsWith("event:")) continue;
                const data = JSON.parse(event.split("\n")[1]!.slice(5));
                latencies.push(now - committed.get(data.header.hash)!);
                received++;
              }
            });
            resolve();
          });
        }),
    ),
  );
  await new Promise((r) => setTimeout(r, 200));
  for (let i = 0; i < STREAM_BLOCKS; i++) {
    node.producer.mine(i % 20);
    await new Promise((r) => setTimeout(r, 20));
  }
  const deadline = Date.now() + 10_000;
  while (received < SUBSCRIBERS * STREAM_BLOCKS && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(
    `header stream, ${SUBSCRIBERS} subscribers, ${STREAM_BLOCKS} blocks: ${received} events, commit → client median ${ms(percentile(latencies, 50))}, p99 ${ms(percentile(latencies, 99))} (clients in the node's process)`,
  );
  await server.close();
  node.close();
}

const results: ({ heights: number } & Figures)[] = [];
for (const heights of SIZES) results.push({ heights, ...(await pages(heights)) });
if (results.length > 1) {
  const first = results[0]!;
  for (const r of results.slice(1)) {
    console.log(
      `growth ${first.heights} → ${r.heights} heights: block page ×${(r.block / first.block).toFixed(2)} (CPU ×${(r.blockCpu / first.blockCpu).toFixed(2)}), branch page ×${(r.branch / first.branch).toFixed(2)} (CPU ×${(r.branchCpu / first.branchCpu).toFixed(2)})`,
    );
  }
}
await stream();
agent.destroy();
