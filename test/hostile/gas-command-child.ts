/**
 * Child process of gas-bounded-time.test.ts: runs one command through the interpreter's entry
 * point (`executeCommand`, as `local` runs it) under the gas limit given, and prints the CPU time
 * its thread spent on it (not the wall clock, which a busy machine stretches), the gas it reported
 * and its outcome as one JSON line.
 *
 *   echo '{"code": "...", "gasLimit": 100000, "data": …}' | node --import tsx test/hostile/gas-command-child.ts
 */
import { readFileSync } from "node:fs";
import { parseCommand, signCommand } from "../../src/command/index.ts";
import { executeCommand, FREE_GAS, gasMeterFor } from "../../src/execution/index.ts";
import { threadCpuMs } from "../../src/execution/thread-cpu.ts";
import { openMemoryPactDb } from "../../src/pact/db/index.ts";
import { PactTime } from "../../src/pact/values/index.ts";

const BLOCK = { height: 1n, time: new PactTime(1_700_000_000_000_000n), prevBlockHash: "prev" };

const { code, gasLimit, data } = JSON.parse(readFileSync(0, "utf8")) as {
  code: string;
  gasLimit: number;
  data?: unknown;
};
const cmd = JSON.stringify({
  payload: { exec: { code, data: data ?? null } },
  meta: {
    creationTime: 1700000000,
    ttl: 600,
    gasLimit,
    chainId: "0",
    gasPrice: 1e-8,
    sender: "sender00",
  },
  signers: [],
  networkId: "development",
  nonce: "gas-bounded-time",
});
const parsed = parseCommand(JSON.parse(JSON.stringify(signCommand(cmd, [], "blake2b"))));
if (!parsed.ok) throw new Error(parsed.problems.map((p) => p.message).join("; "));

const started = threadCpuMs();
const outcome = executeCommand(parsed.command, {
  db: openMemoryPactDb(),
  mode: "local",
  block: BLOCK,
  gas: FREE_GAS,
  meter: gasMeterFor({ kind: "metered", limit: gasLimit, perAction: null }),
  flags: new Set(),
});
const ms = threadCpuMs() - started;
const result =
  outcome.result.status === "success"
    ? { status: "success", data: String(outcome.result.data) }
    : { status: "failure", message: outcome.result.error.message };
console.log(JSON.stringify({ ms, gas: outcome.gas, ...result }));
