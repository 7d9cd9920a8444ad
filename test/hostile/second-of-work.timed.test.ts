/**
 * Issue #34's Show list: a command that needs a second of CPU succeeds, in `local` and in a block
 * (`send`), and the same beside a CPU hog on every core. On the node's own thread such a command
 * was refused by the 100 ms `commandTimeLimit` (which kept the API answering); on an execution
 * thread `local` may run 2 s and a new block's command 12.5 µs per unit of the block gas limit,
 * as chainweb-node allows, and a limit passed on the wall clock counts the process's CPU time
 * instead, so a loaded machine does not refuse what a quiet one accepts. The same in the other
 * ways a block is asked for: interval mining, proof-of-work mining (its candidate block's
 * commands), and the development control `mine`.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { commandBody } from "../support/answer-probe.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

/** A block gas limit that lets one command do a second's work (its time limit: 12.5 s). */
const BLOCK_GAS_LIMIT = 1_000_000;
/** The sum of the squares of 1 … 1,500,000: about a second on the 2-core machine it was written on. */
const SECOND_OF_WORK = "(fold (lambda (a x) (+ a (* x x))) 0 (enumerate 1 1500000))";
const SUM_OF_SQUARES = "1125001125000250000";
/** The same over a tenth of the numbers. */
const WARM_UP = "(fold (lambda (a x) (+ a (* x x))) 0 (enumerate 1 150000))";
/** Its gas in `local`, and in a block (where its size is charged too). */
const LOCAL_GAS = 699_968;

/** How long a block made by interval mining or `braid dev mine` may take to hold the result. */
const RESULT_WITHIN_MS = 20_000;
/**
 * The same for proof-of-work mining, which makes the chains' blocks one at a time, lowest first,
 * each after a nonce search: the command's chain waits for its turn.
 */
const POW_RESULT_WITHIN_MS = 60_000;

/** One process per core that spins until killed. */
function startHogs(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
}

async function postJson(url: string, body: string): Promise<Record<string, unknown>> {
  const r = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await r.text();
  assert.equal(r.status, 200, text.slice(0, 300));
  return JSON.parse(text) as Record<string, unknown>;
}

describe("a command of a second's work (issue #34)", { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-second-"));
  let node: NodeProcess;
  before(async () => {
    node = await startNode({
      dataDir: dir,
      built: true,
      args: ["--block-gas-limit", String(BLOCK_GAS_LIMIT)],
    });
  });
  after(async () => {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const post = (path: string, body: string) => postJson(`${node.api(0)}/${path}`, body);

  /** Runs the command through `local` and through `send`; what each result was and took. */
  const both = async (label: string) => {
    const started = performance.now();
    const local = await post(
      "local",
      commandBody(SECOND_OF_WORK, `${label} local`, BLOCK_GAS_LIMIT),
    );
    const localMs = performance.now() - started;
    const sent = await post(
      "send",
      `{"cmds":[${commandBody(SECOND_OF_WORK, `${label} send`, BLOCK_GAS_LIMIT)}]}`,
    );
    const [requestKey] = sent.requestKeys as string[];
    // `send` waits for its block at most 2 s (SEND_MINING_WAIT_MS): `listen` for the result.
    const inBlock = (await post("listen", JSON.stringify({ listen: requestKey }))) as {
      gas: number;
      result: unknown;
    };
    console.log(
      `# ${label}: local ${localMs.toFixed(0)} ms, send → result ${(performance.now() - started - localMs).toFixed(0)} ms`,
    );
    assert.deepEqual(
      { gas: local.gas, result: local.result },
      { gas: LOCAL_GAS, result: { status: "success", data: { int: SUM_OF_SQUARES } } },
    );
    assert.deepEqual(inBlock.result, { status: "success", data: { int: SUM_OF_SQUARES } });
  };

  it("succeeds in local and in a block, on a quiet machine and beside a CPU hog", async () => {
    // The execution thread's first contract code runs cold (compiled as it goes): a tenth of the
    // work first, so that the second measured is the command's (cold, it passed the 2 s limit
    // once on CI, where it takes about 0.8 s of CPU warm).
    await post("local", commandBody(WARM_UP, "warm-up", BLOCK_GAS_LIMIT));
    await both("quiet");
    const hogs = startHogs();
    try {
      await both("beside a hog on every core");
    } finally {
      for (const hog of hogs) hog.kill("SIGKILL");
    }
  });
});

describe("a command of a second's work, mined by interval, pow or `braid dev mine` (issue #34)", {
  timeout: 180_000,
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-second-modes-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** Sends the command; the result of `poll` once a block holds it, and how long that took. */
  const sendAndAwait = async (
    node: NodeProcess,
    nonce: string,
    mine?: () => Promise<unknown>,
    withinMs = RESULT_WITHIN_MS,
  ) => {
    const started = performance.now();
    const sent = await postJson(
      `${node.api(0)}/send`,
      `{"cmds":[${commandBody(SECOND_OF_WORK, nonce, BLOCK_GAS_LIMIT)}]}`,
    );
    const [requestKey] = sent.requestKeys as string[];
    await mine?.();
    const poll = JSON.stringify({ requestKeys: [requestKey] });
    while (performance.now() - started < withinMs) {
      const polled = await postJson(`${node.api(0)}/poll`, poll);
      const found = polled[requestKey!] as { result: unknown } | undefined;
      if (found !== undefined) {
        console.log(`# ${nonce}: send → result ${(performance.now() - started).toFixed(0)} ms`);
        return found.result;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return `no result within ${withinMs} ms`;
  };

  it("succeeds in a block of interval mining", async () => {
    const node = await startNode({
      dataDir: join(dir, "interval"),
      built: true,
      args: [
        ...["--block-gas-limit", String(BLOCK_GAS_LIMIT)],
        ...["--mining", "interval", "--mining-interval", "1"],
      ],
    });
    try {
      assert.deepEqual(await sendAndAwait(node, "interval"), {
        status: "success",
        data: { int: SUM_OF_SQUARES },
      });
    } finally {
      await node.stop();
    }
  });

  it("succeeds in a block of proof-of-work mining", async () => {
    const node = await startNode({
      dataDir: join(dir, "pow"),
      built: true,
      args: ["--block-gas-limit", String(BLOCK_GAS_LIMIT), "--mining", "pow"],
    });
    try {
      assert.deepEqual(await sendAndAwait(node, "pow", undefined, POW_RESULT_WITHIN_MS), {
        status: "success",
        data: { int: SUM_OF_SQUARES },
      });
    } finally {
      await node.stop();
    }
  });

  it("succeeds in a block of `braid dev mine`", async () => {
    const node = await startNode({
      dataDir: join(dir, "dev-mine"),
      built: true,
      args: ["--block-gas-limit", String(BLOCK_GAS_LIMIT), "--mining", "none"],
    });
    try {
      const mine = () =>
        postJson(`${node.url}/braid/dev/mine`, JSON.stringify({ blocks: 1, chains: [0] }));
      assert.deepEqual(await sendAndAwait(node, "dev mine", mine), {
        status: "success",
        data: { int: SUM_OF_SQUARES },
      });
    } finally {
      await node.stop();
    }
  });
});
