/**
 * Issue 24, item 1 (honest gas): the worst commands known finish — with a result or a gas error —
 * in time proportionate to their gas limit: at most 20 µs of one core's time (the CPU time of the
 * thread running it, so that the test holds on a loaded machine) per unit of the limit, plus a
 * fixed margin. Each runs through the interpreter's entry point in a child process
 * (gas-command-child.ts), killed when it overruns, so a command that freezes (the `int-to-str`
 * of a power took 225 s) fails the test at once instead of holding it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const CHILD = fileURLToPath(new URL("./gas-command-child.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");

/** The aim: one gas unit buys at most this much time of one core. */
const US_PER_GAS = 20;
/** The fixed part of the bound: parsing, the command's data, a busy machine. */
const MARGIN_MS = 1_000;
/** Starting the child (Node and its TypeScript loader) is not part of the command's time. */
const STARTUP_MS = 15_000;

interface Finished {
  readonly ms: number;
  readonly gas: number;
  readonly status: "success" | "failure";
  readonly data?: string;
  readonly message?: string;
}

/** Runs `code` under `gasLimit`; fails when the command takes longer than its bound. */
async function runBounded(code: string, gasLimit: number, data?: unknown): Promise<Finished> {
  const boundMs = (gasLimit * US_PER_GAS) / 1000 + MARGIN_MS;
  const child = spawn(process.execPath, ["--import", TSX, CHILD]);
  child.stdin.end(JSON.stringify({ code, gasLimit, data }));
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), boundMs + STARTUP_MS);
  const exitCode = await new Promise<number | null>((resolve) => child.on("close", resolve));
  clearTimeout(killer);
  assert.equal(exitCode, 0, `the command did not finish within ${boundMs} ms: ${stderr}`);
  const finished = JSON.parse(stdout) as Finished;
  assert.ok(
    finished.ms <= boundMs,
    `took ${Math.round(finished.ms)} ms, more than ${boundMs} ms for a gas limit of ${gasLimit}`,
  );
  return finished;
}

describe("a command's time is bounded by its gas limit", { timeout: 120_000 }, () => {
  it("int-to-str of a power of 3 with a million digits stops at the gas limit (it froze 225 s)", async () => {
    const run = await runBounded("(length (int-to-str 10 (^ 3 1000000)))", 100_000);
    assert.deepEqual([run.status, run.message], ["failure", 'Gas limit "100000" exceeded: 127608']);
  });

  it("int-to-str 64 of the same power answers its length", async () => {
    const run = await runBounded("(length (int-to-str 64 (^ 3 1000000)))", 150_000);
    assert.deepEqual([run.status, run.data, run.gas], ["success", "264162", 106315]);
  });

  it("distinct over a million integers stops at the gas limit", async () => {
    const run = await runBounded("(length (distinct (enumerate 1 1000000)))", 150_000);
    assert.deepEqual([run.status, run.message], ["failure", 'Gas limit "150000" exceeded: 150001']);
  });

  it("sort of a million integers stops at its charge", async () => {
    const run = await runBounded("(length (sort (enumerate 1 1000000)))", 150_000);
    assert.deepEqual(
      [run.status, run.message],
      ["failure", 'Gas limit "150000" exceeded: 12008001'],
    );
  });

  it("folds nested three deep run to the gas limit", async () => {
    const run = await runBounded(
      "(let ((l (enumerate 1 100))) (fold (lambda (a i) (fold (lambda (b j) (fold (lambda (c k) (+ c k)) b l)) a l)) 0 l))",
      150_000,
    );
    assert.deepEqual([run.status, run.message], ["failure", 'Gas limit "150000" exceeded: 150001']);
  });

  it("dropping one element of a long list in a loop stops at the work gas does not price", async () => {
    const run = await runBounded(
      "(let ((l (enumerate 1 100000))) (fold (lambda (a i) (+ a (length (drop 1 l)))) 0 (enumerate 1 100000)))",
      150_000,
    );
    assert.equal(run.status, "failure");
    assert.match(
      run.message ?? "",
      /^Work that gas does not price exceeded: copying the 99999 elements drop keeps/,
    );
  });

  it("taking the length of slices of a long string with surrogates stops at the work gas does not price", async () => {
    const run = await runBounded(
      '(let ((s (read-msg "s"))) (fold (lambda (a i) (+ a (length (drop i s)))) 0 (enumerate 1 100000)))',
      150_000,
      { s: "abcd😀fghi".repeat(50_000) },
    );
    assert.equal(run.status, "failure");
    assert.match(run.message ?? "", /^Work that gas does not price exceeded: /);
  });
});
