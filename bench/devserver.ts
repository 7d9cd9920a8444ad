/**
 * Development server throughput over loopback. The server runs in this process; the load comes
 * from autocannon in a child process, or, for send+poll, from a bounded loop of `fetch` calls in
 * this process. Each line gives the rate (wall clock; the load generator shares the machine's
 * cores, so it is a floor) and this process's CPU time per request, which is steadier on a busy
 * machine: 1,000,000 / (µs per request) is what one core serves.
 * - local `(+ 1 2)`: the same command (Blake2b-256 hash, as @kadena/client sends it, no
 *   signers — a dirty read) again and again;
 * - local table read: `(bench.get "k")`, one row read through a module, likewise;
 * - local `(+ 1 2)` signed by one key, so each request also verifies an ED25519 signature;
 * - send+poll: a new signed command sent, then its result polled, per round trip, with the
 *   state in memory and in SQLite files (`persistDir`).
 * Usage: npm run bench -- devserver   (or node --import tsx bench/devserver.ts [seconds])
 */

import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parseDevServerConfig,
  type RunningDevServer,
  startDevServer,
} from "../src/api/devserver/index.ts";
import { signCommand } from "../src/command/index.ts";
import type { CommandJson } from "../src/command/types.ts";
import { decodeHex, keyPairFromSeed } from "../src/crypto/index.ts";

/** Seconds each autocannon measurement runs. */
const SECONDS = Number(process.argv[2] ?? 5);
/** Seconds of unmeasured load first, so the JIT has compiled the hot paths. */
const WARM_UP_SECONDS = 3;
/** Open connections of the load generator. */
const CONNECTIONS = 16;
/** Round trips of each send+poll measurement, and how many run at once. */
const ROUND_TRIPS = 3_000;
const ROUND_TRIP_CONCURRENCY = 8;

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: { readonly p50: number; readonly p99: number };
  readonly non2xx: number;
  readonly errors: number;
}
const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon/autocannon.js");

/** Runs autocannon's command line against `url` and returns its JSON report. */
function autocannon(url: string, body: string, seconds = SECONDS): Promise<AutocannonResult> {
  const args = [AUTOCANNON, "-j", "-c", String(CONNECTIONS), "-d", String(seconds)];
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

/** This process's CPU time (user + system) in µs since `since`. */
function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

function report(name: string, rate: number, unit: string, cpuPerRequest: number, extra: string) {
  const shown = Math.round(rate).toLocaleString("en-US").padStart(7);
  console.log(
    `${name.padEnd(40)} ${shown} ${unit}  ${cpuPerRequest.toFixed(0).padStart(4)} µs CPU/request  ${extra}`,
  );
}

const SENDER00 = keyPairFromSeed(
  decodeHex("251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898", 32),
);
const SENDER00_PUBLIC = "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";

function command(code: string, nonce: string, signed: boolean): CommandJson {
  const cmd = JSON.stringify({
    payload: { exec: { code, data: null } },
    nonce,
    signers: signed ? [{ pubKey: SENDER00_PUBLIC, scheme: "ED25519" }] : [],
    meta: {
      gasLimit: 2500,
      gasPrice: 1e-8,
      sender: "sender00",
      ttl: 600,
      creationTime: 1_700_000_000,
      chainId: "0",
    },
    networkId: "development",
  });
  return signCommand(cmd, signed ? [SENDER00] : [], "blake2b");
}

const dir = mkdtempSync(join(tmpdir(), "braid-bench-devserver-"));

async function serve(extra = ""): Promise<RunningDevServer> {
  const config = `port: 0\nlogDir: ${join(dir, "log")}\n${extra}`;
  return startDevServer(parseDevServerConfig(config, join(dir, "config.yaml")));
}

async function post(server: RunningDevServer, path: string, body: string): Promise<string> {
  const response = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
  return text;
}

async function measureLocal(server: RunningDevServer, name: string, path: string, body: string) {
  const check = JSON.parse(await post(server, path, body));
  if (check.result.status !== "success") throw new Error(`${name}: ${JSON.stringify(check)}`);
  const cpu = process.cpuUsage();
  const result = await autocannon(`${server.url}${path}`, body);
  const cpuPerRequest = cpuMicros(cpu) / result.requests.total;
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx replies, ${result.errors} errors`);
  }
  const latency = `latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms`;
  report(name, result.requests.average, "req/s", cpuPerRequest, latency);
}

/**
 * The send+poll client, run as a child process so its work is not counted as the server's:
 * `ROUND_TRIP_CONCURRENCY` loops over keep-alive connections, each sending one command and
 * then polling for its result. Reads the bodies as JSON lines on standard input; prints the
 * elapsed seconds.
 */
const SEND_POLL_CLIENT = `
import http from "node:http";
const [url, concurrency] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true });
const post = (path, body) => new Promise((resolve, reject) => {
  const req = http.request(url + path, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (d) => { text += d; });
    res.on("end", () => res.statusCode === 200 ? resolve(text) : reject(new Error(path + ": " + res.statusCode + " " + text)));
  });
  req.on("error", reject);
  req.end(body);
});
let input = "";
for await (const chunk of process.stdin) input += chunk;
const trips = input.trim().split("\\n").map((line) => JSON.parse(line));
let next = 0;
const started = performance.now();
async function loop() {
  while (next < trips.length) {
    const { send, poll, key } = trips[next++];
    await post("/api/v1/send", send);
    const result = JSON.parse(await post("/api/v1/poll", poll))[key];
    if (result?.result.status !== "success") throw new Error("no result for " + key);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, loop));
console.log((performance.now() - started) / 1000);
`;

async function measureSendPoll(server: RunningDevServer, name: string) {
  const lines = Array.from({ length: ROUND_TRIPS }, (_, i) => {
    const c = command("(+ 1 2)", `${name} ${i}`, true);
    const send = JSON.stringify({ cmds: [c] });
    return JSON.stringify({ send, poll: JSON.stringify({ requestKeys: [c.hash] }), key: c.hash });
  });
  const cpu = process.cpuUsage();
  const seconds = await new Promise<number>((resolve, reject) => {
    const args = ["--input-type=module", "-e", SEND_POLL_CLIENT, server.url];
    const child = spawn(process.execPath, [...args, String(ROUND_TRIP_CONCURRENCY)], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Number(out));
      else reject(new Error(`the send+poll client exited with ${code}`));
    });
    child.stdin.end(lines.join("\n"));
  });
  const how = `${ROUND_TRIPS} × send one command, then poll it; ${ROUND_TRIP_CONCURRENCY} at a time`;
  report(name, ROUND_TRIPS / seconds, "trips/s", cpuMicros(cpu) / ROUND_TRIPS, how);
}

const TABLE_MODULE = `(module bench GOV
  (defcap GOV () true)
  (defschema row value:integer)
  (deftable rows:{row})
  (defun get:integer (k:string) (at "value" (read rows k))))
(create-table rows)
(insert rows "k" {"value": 42})`;

try {
  const memory = await serve();
  try {
    await post(
      memory,
      "/api/v1/send",
      JSON.stringify({ cmds: [command(TABLE_MODULE, "deploy", false)] }),
    );
    const add = JSON.stringify(command("(+ 1 2)", "local add", false));
    // Warm-up: compile the server's hot paths before anything is measured.
    await autocannon(`${memory.url}/api/v1/local`, add, WARM_UP_SECONDS);
    await measureLocal(memory, "local (+ 1 2)", "/api/v1/local", add);
    const read = JSON.stringify(command('(bench.get "k")', "local read", false));
    await measureLocal(memory, "local table read", "/api/v1/local", read);
    const signed = JSON.stringify(command("(+ 1 2)", "local add signed", true));
    await measureLocal(memory, "local (+ 1 2), one signature checked", "/api/v1/local", signed);
    await measureSendPoll(memory, "send+poll, state in memory");
  } finally {
    await memory.close();
  }
  const persistent = await serve(`persistDir: ${join(dir, "state")}\n`);
  try {
    await measureSendPoll(persistent, "send+poll, state in SQLite (persistDir)");
  } finally {
    await persistent.close();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
