/**
 * A network of `braid node` processes on the network test harness (test/network/support: each
 * node in its own Linux network namespace, joined by veth pairs and a bridge; run as root, after
 * `npm run build`):
 * - block propagation: blocks mined on A (one height of the 20 chains at a time, by the
 *   development controls) → the `BlockHeader` event on C, read from both nodes' header streams
 *   by this process; median and p99 over every block;
 * - send on A → result on C: A and C follow B, which mines on demand; sequential transfers sent
 *   to A, C's `poll` asked every 2 ms; median, against send → poll on B alone in the same sitting;
 * - sync rate: a new node joins A after A made HEIGHTS heights of the 20 chains (default 10,000:
 *   200,000 blocks): time until its cut is A's, and blocks per second; meanwhile its `/info`,
 *   asked every 10 ms: p99 and slowest answer, and the most its thread ran during one;
 * - convergence: two `pow` nodes mine apart behind an `nft` partition for 3 s, then the partition
 *   heals: time until both name the same cut; median of 3.
 * Prints a line per figure and, last, one JSON object with every figure.
 * Usage: npm run bench -- network   (BRAID_BENCH_HEIGHTS=n for another network height,
 * BRAID_BENCH_ONLY=propagation,across,convergence for some parts only)
 */
import { signCommand } from "../src/command/index.ts";
import { decodeHex, keyPairFromSeed } from "../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../src/node/genesis/accounts.ts";
import { converged } from "../test/network/support/converge.ts";
import { infoWaitsUntil } from "../test/network/support/info-probe.ts";
import type { NetNode } from "../test/network/support/net-node.ts";
import { networkTestSkip, TestNetwork } from "../test/network/support/netns.ts";

const HEIGHTS = Number(process.env.BRAID_BENCH_HEIGHTS ?? 10_000);
const PROPAGATION_HEIGHTS = 50;
const TRANSFERS = 100;
const PARTITION_ROUNDS = 3;
const APART_MS = 3_000;
const CHAINS = Array.from({ length: 20 }, (_, c) => c);
const BASE = "/chainweb/0.0/development";

const skip = networkTestSkip();
if (skip !== false) {
  console.log(`network bench not run: ${skip}`);
  process.exit(0);
}

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};

async function post(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

const mine = (node: NetNode, blocks: number) =>
  post(`${node.url}/braid/dev/mine`, { blocks, chains: CHAINS });

/** When each block hash arrived on `node`'s header stream, until `stop` is called. */
function headerArrivals(node: NetNode): { arrivals: Map<string, number>; stop(): void } {
  const arrivals = new Map<string, number>();
  const controller = new AbortController();
  void (async () => {
    const response = await fetch(`${node.url}${BASE}/header/updates`, {
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffered = "";
    for await (const chunk of response.body!) {
      const now = performance.now();
      buffered += decoder.decode(chunk, { stream: true });
      const events = buffered.split("\n\n");
      buffered = events.pop()!;
      for (const event of events) {
        const hash = /"hash":"([A-Za-z0-9_-]{43})"/.exec(event)?.[1];
        if (hash !== undefined && !arrivals.has(hash)) arrivals.set(hash, now);
      }
    }
  })().catch(() => undefined);
  return { arrivals, stop: () => controller.abort() };
}

/** A signed transfer of 0.000001 from sender00 to sender01 on chain 0, unique by `n`. */
function transfer(n: number) {
  const sender = DEV_ACCOUNTS[0]!;
  const keys = keyPairFromSeed(decodeHex(sender.secretKey));
  const cmd = JSON.stringify({
    networkId: "development",
    payload: { exec: { code: '(coin.transfer "sender00" "sender01" 0.000001)', data: {} } },
    signers: [
      {
        pubKey: sender.publicKey,
        clist: [
          { name: "coin.GAS", args: [] },
          { name: "coin.TRANSFER", args: ["sender00", "sender01", 0.000001] },
        ],
      },
    ],
    meta: {
      chainId: "0",
      sender: "sender00",
      gasLimit: 1000,
      gasPrice: 1e-8,
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 30,
    },
    nonce: `network-bench-${n}-${Date.now()}`,
  });
  return signCommand(cmd, [keys], "blake2b");
}

/** ms from `send` on `to` until `poll` on `from` answers its result. */
async function sendToResult(to: NetNode, from: NetNode, n: number): Promise<number> {
  const command = transfer(n);
  const started = performance.now();
  await post(`${to.url}${BASE}/chain/0/pact/api/v1/send`, { cmds: [command] });
  for (;;) {
    const found = (await post(`${from.url}${BASE}/chain/0/pact/api/v1/poll`, {
      requestKeys: [command.hash],
    })) as Record<string, unknown>;
    if (found[command.hash] !== undefined) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

const figures: Record<string, number> = {};
const report = (name: string, value: number, unit: string) => {
  figures[name] = Math.round(value * 100) / 100;
  console.log(`${name.padEnd(32)} ${figures[name]} ${unit}`);
};

/** BRAID_BENCH_ONLY=propagation,across,convergence runs only those parts. */
const only = process.env.BRAID_BENCH_ONLY?.split(",");
const runs = (part: string) => only === undefined || only.includes(part);

// Propagation, and the catch-up that follows it.
if (runs("propagation")) {
  const net = await TestNetwork.create(["a", "c", "d"]);
  try {
    const a = await net.startNode("a", { args: ["--mining", "none", "--dev-controls"] });
    const c = await net.startNode("c", { args: ["--mining", "none", "--peer", a.peer] });
    await converged([a, c], 30_000);
    const onA = headerArrivals(a);
    const onC = headerArrivals(c);
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (let i = 0; i < PROPAGATION_HEIGHTS; i++) {
      await mine(a, 1);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await converged([a, c], 30_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    onA.stop();
    onC.stop();
    const delays = [...onA.arrivals]
      .filter(([hash]) => onC.arrivals.has(hash))
      .map(([hash, at]) => onC.arrivals.get(hash)! - at);
    report("propagation A → C median", quantile(delays, 0.5), `ms (${delays.length} blocks)`);
    report("propagation A → C p99", quantile(delays, 0.99), "ms");

    const started = performance.now();
    for (let done = PROPAGATION_HEIGHTS; done < HEIGHTS; done += 500) {
      await mine(a, Math.min(500, HEIGHTS - done));
    }
    report(
      "mining the network on A",
      (performance.now() - started) / 1000,
      `s (${HEIGHTS} heights)`,
    );
    await c.stop();
    const joined = performance.now();
    const d = await net.startNode("d", { args: ["--mining", "none", "--peer", a.peer] });
    const caughtUp = converged([a, d], 30 * 60_000, 200);
    const waits = await infoWaitsUntil(d, caughtUp);
    const seconds = (performance.now() - joined) / 1000;
    const blocks = (HEIGHTS + 1) * CHAINS.length - CHAINS.length;
    report("catch-up of a new node", seconds, `s (${blocks} blocks)`);
    report("catch-up blocks/s", blocks / seconds, "blocks/s");
    report("/info during the catch-up p99", quantile(waits.wallMs, 0.99), "ms");
    report(
      "/info during the catch-up slowest",
      Math.max(...waits.wallMs),
      `ms (${waits.wallMs.length} answers; the node ran at most ${Math.max(...waits.serverCpuMs)} ms during one)`,
    );
  } finally {
    await net.close();
  }
}

// Send on A → result on C, against one node's send → poll.
if (runs("across")) {
  const net = await TestNetwork.create(["a", "b", "c"]);
  try {
    const b = await net.startNode("b", { args: ["--mining", "on-demand"] });
    const a = await net.startNode("a", { args: ["--mining", "none", "--peer", b.peer] });
    const c = await net.startNode("c", { args: ["--mining", "none", "--peer", b.peer] });
    await converged([a, b, c], 30_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // discovery: A and C meet
    const single: number[] = [];
    const across: number[] = [];
    for (let i = 0; i < TRANSFERS; i++) {
      single.push(await sendToResult(b, b, 2 * i));
      across.push(await sendToResult(a, c, 2 * i + 1));
    }
    report("send → poll on one node median", quantile(single, 0.5), "ms");
    report("send on A → result on C median", quantile(across, 0.5), "ms");
    report("send on A → result on C p99", quantile(across, 0.99), "ms");
    report("across / one node", quantile(across, 0.5) / quantile(single, 0.5), "×");
  } finally {
    await net.close();
  }
}

// Convergence after a partition heals.
if (runs("convergence")) {
  const net = await TestNetwork.create(["p", "q"]);
  try {
    const p = await net.startNode("p", { args: ["--mining", "pow"] });
    const q = await net.startNode("q", { args: ["--mining", "pow", "--peer", p.peer] });
    await converged([p, q], 60_000);
    const rounds: number[] = [];
    for (let i = 0; i < PARTITION_ROUNDS; i++) {
      await net.partition(["p"], ["q"]);
      await new Promise((resolve) => setTimeout(resolve, APART_MS));
      await net.heal();
      rounds.push((await converged([p, q], 60_000, 20)).millis);
    }
    report(
      "convergence after healing",
      quantile(rounds, 0.5),
      `ms (${rounds.map(Math.round).join(", ")})`,
    );
  } finally {
    await net.close();
  }
}

console.log(JSON.stringify(figures));
