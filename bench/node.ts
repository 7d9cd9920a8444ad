/**
 * The node (`braid node`) as a developer runs it: a separate process, built `dist/` by default
 * (`npm run build` first; BRAID_BENCH_TSX=1 runs src/ through tsx instead), on-demand mining,
 * SQLite files in a temporary data directory. The shapes of work match the Hardhat peer's
 * scripts (../shared/peers/hardhat/) so a ratio can be taken in one sitting:
 * - start-up to ready: spawn → first answered `local` (polled every 10 ms), fresh data directory
 *   (genesis of 20 chains) and reopened, median of 3 each;
 * - idle RSS of the node process with 20 chains, 2 s after ready;
 * - cost of an empty block: in this process, a BraidNode in memory and on SQLite files, 500
 *   rounds of one block on every chain after 100 unmeasured ones, time / blocks;
 * - send → result visible in `poll`: 200 sequential transfers (sender00 → sender01 on chain 0,
 *   signed beforehand), `poll` every 1 ms until the result is there; median, p99; and 100 more
 *   with 20 ms of think time between them (the peer's `GAP_MS=20`);
 * - transfers/s through `send`: 10 concurrent loops (sender i = sender0i, chain 0), each
 *   send → poll until the result → next, 15 s, every command signed before the clock starts;
 * - `local` requests/s: `(coin.get-balance "sender01")`, 10 connections, 10 s (autocannon in a
 *   child process, after 2 s of warm-up).
 * BRAID_BENCH_PROFILE=dir makes the node process of the load runs write a CPU profile there;
 * BRAID_BENCH_NODE_ARGS adds flags to `braid node` (e.g. `--execution-threads 2`);
 * BRAID_BENCH_LOAD_ONLY=1 measures only the load runs (one start, no empty blocks), for sittings
 * alternated with the Hardhat and Anvil peers.
 * Prints a line per figure and, last, one JSON object with every figure.
 * Usage: npm run bench -- node
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { encodeCommandJson, encodeSubmitBatch, signCommand } from "../src/command/index.ts";
import type { CommandJson } from "../src/command/types.ts";
import { decodeHex, keyPairFromSeed } from "../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../src/node/genesis/accounts.ts";
import { makeLogger } from "../src/node/logger.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { ProgressLine } from "../src/node/progress.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const USE_TSX = process.env.BRAID_BENCH_TSX === "1";
const DIST_MAIN = join(ROOT, "dist", "cli", "main.js");
const STARTS = 3;
const LATENCY_TRANSFERS = 200;
const SENDERS = 10;
const THROUGHPUT_SECONDS = 15;
/** Commands signed per sender for the throughput run (more than a loop can send in time). */
const SIGNED_PER_SENDER = 1_500;
const LOCAL_CONNECTIONS = 10;
const LOCAL_SECONDS = 10;
const EMPTY_BLOCK_ROUNDS = 500;
/** When set, the node process of the load runs writes a CPU profile (--cpu-prof) there. */
const PROFILE_DIR = process.env.BRAID_BENCH_PROFILE;
const LOAD_ONLY = process.env.BRAID_BENCH_LOAD_ONLY === "1";
const THINK_TIME_MS = 20;
const THINK_TIME_TRANSFERS = 100;
/** Flags added to `braid node`, split at spaces. */
const NODE_ARGS = (process.env.BRAID_BENCH_NODE_ARGS ?? "").split(" ").filter((a) => a !== "");

const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");
const KEYS = DEV_ACCOUNTS.map((a) => keyPairFromSeed(decodeHex(a.secretKey, 32)));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const median = (values: readonly number[]) => pct(values, 50);
const r3 = (x: number) => Math.round(x * 1000) / 1000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", agent, headers: { "content-type": "application/json" } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
    req.end(body);
  });
}

function command(
  code: string,
  from: number,
  nonce: string,
  clist: readonly unknown[] | null,
): CommandJson {
  const sender = DEV_ACCOUNTS[from]!;
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    nonce,
    signers: clist === null ? [] : [{ pubKey: sender.publicKey, scheme: "ED25519", clist }],
    meta: {
      gasLimit: 2500,
      gasPrice: 1e-8,
      sender: sender.name,
      ttl: 3600,
      creationTime: Math.floor(Date.now() / 1000) - 60,
      chainId: "0",
    },
    networkId: "development",
  });
  return signCommand(cmd, clist === null ? [] : [KEYS[from]!], "blake2b");
}

/** A signed transfer of 1.0 from senderNN to senderMM on chain 0. */
function transfer(from: number, to: number, nonce: string): CommandJson {
  const [a, b] = [DEV_ACCOUNTS[from]!.name, DEV_ACCOUNTS[to]!.name];
  return command(`(coin.transfer "${a}" "${b}" 1.0)`, from, nonce, [
    { name: "coin.GAS", args: [] },
    { name: "coin.TRANSFER", args: [a, b, { decimal: "1.0" }] },
  ]);
}

interface Running {
  readonly child: ChildProcess;
  readonly api: string;
  readonly readyMs: number;
  readonly exited: Promise<void>;
}

const PROBE = encodeCommandJson(command("(+ 1 2)", 0, "probe", null));

/** Starts the node and times spawn → first answered `local`. */
async function startNode(dataDir: string, profileDir?: string): Promise<Running> {
  const port = await freePort();
  const main = USE_TSX ? ["--import", "tsx", join(ROOT, "src", "cli", "main.ts")] : [DIST_MAIN];
  if (profileDir !== undefined) main.unshift("--cpu-prof", "--cpu-prof-dir", profileDir);
  const args = [...main, "node", "--data-dir", dataDir, "--port", String(port), ...NODE_ARGS];
  const started = performance.now();
  const child = spawn(process.execPath, [...args, "--log-level", "warn"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const api = `http://127.0.0.1:${port}/chainweb/0.0/development/chain/0/pact/api/v1`;
  for (;;) {
    if (child.exitCode !== null) throw new Error("the node exited before it was ready");
    try {
      const answer = await post(`${api}/local`, PROBE);
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error("the node did not start in 60 s");
    await sleep(10);
  }
  return { child, api, readyMs: performance.now() - started, exited };
}

async function stopNode(node: Running): Promise<void> {
  node.child.kill("SIGTERM");
  await node.exited;
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** send, then poll every 1 ms until the result is there; the milliseconds it took. */
async function sendAndPoll(api: string, c: CommandJson): Promise<number> {
  const started = performance.now();
  const sent = await post(`${api}/send`, encodeSubmitBatch([c]));
  if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.text}`);
  const poll = JSON.stringify({ requestKeys: [c.hash] });
  for (;;) {
    const polled = await post(`${api}/poll`, poll);
    if (polled.status !== 200) throw new Error(`poll: ${polled.status} ${polled.text}`);
    if (polled.text.length > 2) {
      const elapsed = performance.now() - started;
      const result = (JSON.parse(polled.text) as Record<string, { result: { status: string } }>)[
        c.hash
      ];
      if (result?.result.status !== "success") throw new Error(`failed: ${polled.text}`);
      return elapsed;
    }
    await sleep(1);
  }
}

interface AutocannonResult {
  readonly requests: { readonly total: number };
  readonly duration: number;
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
}

function autocannon(url: string, body: string, seconds: number): Promise<AutocannonResult> {
  const args = [AUTOCANNON, "-j", "-c", String(LOCAL_CONNECTIONS), "-d", String(seconds)];
  args.push("-m", "POST", "-H", "content-type=application/json", "-b", body, url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out) as AutocannonResult);
      else reject(new Error(`autocannon exited with ${code}`));
    });
  });
}

/** Microseconds per empty block: rounds of one block on every chain, after a warm-up. */
function emptyBlockMicros(dataDir: string | null): number {
  const flags = dataDir === null ? { inMemory: true } : { dataDir };
  const node = BraidNode.open(resolveNodeOptions({}, flags), makeLogger("error"));
  try {
    const height = () => node.chains.reduce((sum, c) => sum + c.head.height, 0);
    for (let i = 0; i < 100; i++) node.producer.mineAll();
    const before = height();
    const started = performance.now();
    const progress = new ProgressLine(process.stderr);
    for (let i = 0; i < EMPTY_BLOCK_ROUNDS; i++) {
      node.producer.mineAll();
      progress.update(`empty blocks: round ${i + 1} of ${EMPTY_BLOCK_ROUNDS}`);
    }
    const elapsed = performance.now() - started;
    progress.done(`empty blocks: ${EMPTY_BLOCK_ROUNDS} rounds of ${node.chains.length} blocks`);
    return (elapsed * 1000) / (height() - before);
  } finally {
    node.close();
  }
}

const line = (name: string, value: string) => console.log(`${name.padEnd(44)} ${value}`);
const figures: Record<string, unknown> = { runtime: USE_TSX ? "tsx (src/)" : "node (dist/)" };
if (!USE_TSX && !existsSync(DIST_MAIN)) {
  throw new Error(`${DIST_MAIN} is missing: run npm run build first (or set BRAID_BENCH_TSX=1)`);
}
const dir = mkdtempSync(join(tmpdir(), "braid-bench-node-"));
try {
  // Start-up: fresh data directories, then the last one reopened.
  const fresh: number[] = [];
  const reopen: number[] = [];
  let dataDir = join(dir, "data-load");
  for (let i = 0; i < (LOAD_ONLY ? 0 : STARTS); i++) {
    dataDir = join(dir, `data-${i}`);
    const node = await startNode(dataDir);
    fresh.push(node.readyMs);
    await stopNode(node);
  }
  for (let i = 0; i < (LOAD_ONLY ? 0 : STARTS); i++) {
    const node = await startNode(dataDir);
    reopen.push(node.readyMs);
    await stopNode(node);
  }
  if (!LOAD_ONLY) {
    figures.startup_fresh_ms = r3(median(fresh));
    figures.startup_reopen_ms = r3(median(reopen));
    line("start-up to ready, fresh (median of 3)", `${median(fresh).toFixed(0)} ms`);
    line("start-up to ready, reopen (median of 3)", `${median(reopen).toFixed(0)} ms`);
  }

  const node = await startNode(dataDir, PROFILE_DIR);
  try {
    await sleep(2_000);
    figures.idle_rss_mib = r3(rssMiB(node.child.pid!));
    line("idle RSS, 20 chains", `${(figures.idle_rss_mib as number).toFixed(1)} MiB`);

    // send → poll, sequential.
    const warm = Array.from({ length: 20 }, (_, i) => transfer(0, 1, `warm ${i}`));
    for (const c of warm) await sendAndPoll(node.api, c);
    const sequential = Array.from({ length: LATENCY_TRANSFERS }, (_, i) =>
      transfer(0, 1, `latency ${i}`),
    );
    const latencies: number[] = [];
    for (const c of sequential) latencies.push(await sendAndPoll(node.api, c));
    figures.send_to_poll_ms = {
      p50: r3(pct(latencies, 50)),
      p99: r3(pct(latencies, 99)),
      mean: r3(latencies.reduce((a, b) => a + b, 0) / latencies.length),
    };
    line(
      `send → poll, ${LATENCY_TRANSFERS} sequential transfers`,
      `median ${pct(latencies, 50).toFixed(2)} ms, p99 ${pct(latencies, 99).toFixed(2)} ms`,
    );

    // The same with think time between transfers.
    const thoughtful = Array.from({ length: THINK_TIME_TRANSFERS }, (_, i) =>
      transfer(0, 1, `think ${i}`),
    );
    const thinking: number[] = [];
    for (const c of thoughtful) {
      await sleep(THINK_TIME_MS);
      thinking.push(await sendAndPoll(node.api, c));
    }
    figures.send_to_poll_think_ms = {
      p50: r3(pct(thinking, 50)),
      p99: r3(pct(thinking, 99)),
    };
    line(
      `send → poll, ${THINK_TIME_MS} ms between transfers`,
      `median ${pct(thinking, 50).toFixed(2)} ms, p99 ${pct(thinking, 99).toFixed(2)} ms`,
    );

    // Transfers/s, 10 concurrent senders, signed before the clock starts.
    const signed = Array.from({ length: SENDERS }, (_, s) =>
      Array.from({ length: SIGNED_PER_SENDER }, (_, i) =>
        transfer(s, (s + 1) % SENDERS, `throughput ${s} ${i}`),
      ),
    );
    const started = performance.now();
    const end = started + THROUGHPUT_SECONDS * 1000;
    let done = 0;
    let ranOut = 0;
    await Promise.all(
      signed.map(async (mine) => {
        for (const c of mine) {
          if (performance.now() >= end) return;
          await sendAndPoll(node.api, c);
          done++;
        }
        ranOut++;
      }),
    );
    const wall = (performance.now() - started) / 1000;
    figures.transfers_per_s = r3(done / wall);
    line(
      `transfers/s, ${SENDERS} concurrent senders`,
      `${(done / wall).toFixed(0)} /s (${done} in ${wall.toFixed(1)} s${ranOut > 0 ? `; ${ranOut} senders ran out of signed commands` : ""})`,
    );

    // local coin.get-balance.
    const local = encodeCommandJson(command('(coin.get-balance "sender01")', 0, "balance", null));
    const sample = await post(`${node.api}/local`, local);
    if (sample.status !== 200 || !sample.text.includes('"status":"success"')) {
      throw new Error(`local: ${sample.status} ${sample.text}`);
    }
    await autocannon(`${node.api}/local`, local, 2);
    const result = await autocannon(`${node.api}/local`, local, LOCAL_SECONDS);
    if (result.non2xx > 0 || result.errors > 0) {
      throw new Error(`local: ${result.non2xx} non-2xx replies, ${result.errors} errors`);
    }
    figures.local_rps = r3(result.requests.total / result.duration);
    line(
      `local coin.get-balance, ${LOCAL_CONNECTIONS} connections`,
      `${(figures.local_rps as number).toFixed(0)} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms)`,
    );
    figures.rss_after_load_mib = r3(rssMiB(node.child.pid!));
  } finally {
    await stopNode(node);
  }

  if (!LOAD_ONLY) {
    // Empty blocks, in this process.
    figures.empty_block_us_memory = r3(emptyBlockMicros(null));
    figures.empty_block_us_sqlite = r3(emptyBlockMicros(join(dir, "empty-blocks")));
    line(
      "empty block (in process)",
      `${figures.empty_block_us_memory} µs in memory, ${figures.empty_block_us_sqlite} µs on SQLite files`,
    );
  }
} finally {
  agent.destroy();
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(figures));
