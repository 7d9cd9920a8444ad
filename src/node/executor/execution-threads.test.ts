import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { threadCpuMs } from "../../execution/thread-cpu.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import { devCommand, devTransfer, GAS_CAP } from "../test-support/dev-node.ts";
import { LocalRefusal } from "./local.ts";
import { SMALL_COMMAND_GAS } from "./node-executors.ts";

/** A node on a data directory of its own, mining only when told. */
function nodeOn(dir: string, executionThreads: number, localTimeLimit = 2_000): BraidNode {
  const options = resolveNodeOptions(
    { dataDir: dir, mining: "none", executionThreads, localTimeLimit },
    {},
  );
  return BraidNode.open(options, makeLogger("error"));
}

describe("local on execution threads", { timeout: 60_000 }, () => {
  let dir: string;
  let threaded: BraidNode;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "braid-threads-"));
    threaded = nodeOn(join(dir, "threads"), 1);
    for (let i = 0; i < 3; i++) threaded.producer.mineAll();
    const transfer = devTransfer("2.5", "moved");
    threaded.commands.submit(0, [transfer]);
    threaded.producer.mine(0);
    await threaded.executionThreadsStarted();
  });
  after(async () => {
    await threaded.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const balance = (rewindDepth: bigint) =>
    devCommand({
      code: '(coin.get-balance "sender01")',
      nonce: `b-${rewindDepth}`,
    });

  it("answers from the chain's latest blocks: plain, rewound and preflight", async () => {
    const calls = [
      { command: balance(0n), options: { preflight: false, rewindDepth: 0n } },
      { command: balance(1n), options: { preflight: false, rewindDepth: 1n } },
      { command: balance(0n), options: { preflight: true, rewindDepth: 0n } },
    ];
    const fromThread = [];
    for (const { command, options } of calls) {
      fromThread.push(JSON.parse(await threaded.commands.local(0, command, options)));
    }
    assert.deepEqual(fromThread[0].result, {
      status: "success",
      data: 110000002.5,
    });
    assert.deepEqual(fromThread[1].result, {
      status: "success",
      data: 110000000,
    });
    assert.deepEqual(fromThread[2].preflightResult.result, {
      status: "success",
      data: 110000002.5,
    });
    assert.equal(fromThread[1].metaData.blockHeight, threaded.chains[0]!.head.height);
  });

  it("runs a call of a second's work to its end while the node's thread goes on", async () => {
    const long = devCommand({
      code: "(length (map (lambda (x) (+ x 1)) (enumerate 1 400000)))",
      nonce: "long",
      gasLimit: 150_000,
    });
    // This thread's own CPU time, not the wall clock: a busy machine delays timers too.
    const before = threadCpuMs();
    const started = performance.now();
    const answer = JSON.parse(
      await threaded.commands.local(0, long, {
        preflight: false,
        rewindDepth: 0n,
      }),
    );
    const tookMs = performance.now() - started;
    const heldMs = threadCpuMs() - before;
    assert.deepEqual(answer.result, {
      status: "success",
      data: { int: 400_000 },
    });
    assert.ok(tookMs > 100, `the call took ${tookMs.toFixed(0)} ms: too little to tell`);
    assert.ok(heldMs < 50, `the node's thread ran ${heldMs} ms of the call's ${tookMs.toFixed(0)}`);
  });

  it("makes a new block before the local calls that wait for the thread", async () => {
    const finished: string[] = [];
    const locals = [0, 1, 2, 3].map((i) => {
      const long = devCommand({
        code: "(length (map (lambda (x) (+ x 1)) (enumerate 1 200000)))",
        nonce: `queued ${i}`,
        gasLimit: 150_000,
      });
      return threaded.commands
        .local(0, long, { preflight: false, rewindDepth: 0n })
        .then(() => finished.push(`local ${i}`));
    });
    // A command large enough for its block to be made on the thread.
    const heavy = devCommand({
      code: "(+ 1 2)",
      caps: [GAS_CAP],
      gasLimit: SMALL_COMMAND_GAS + 1,
      nonce: "heavy",
    });
    threaded.commands.submit(0, [heavy]);
    const height = threaded.chains[0]!.head.height;
    const block = threaded.producer.mineTo(0, height + 1).then(() => finished.push("block"));
    await Promise.all([...locals, block]);
    assert.notEqual(threaded.commands.result(0, heavy.hashBytes), null);
    // Behind the call running and the one posted after it (WORK_POSTED_AHEAD), ahead of the rest.
    assert.deepEqual(finished, ["local 0", "local 1", "block", "local 2", "local 3"]);
  });

  it("refuses a call past its time limit with the limit's message", async () => {
    const slow = nodeOn(join(dir, "slow"), 1, 20);
    try {
      await slow.executionThreadsStarted();
      const long = devCommand({
        code: "(length (map (lambda (x) (+ x 1)) (enumerate 1 400000)))",
        nonce: "too-long",
        gasLimit: 150_000,
      });
      await assert.rejects(
        slow.commands.local(0, long, { preflight: false, rewindDepth: 0n }),
        (e) =>
          e instanceof LocalRefusal &&
          e.message ===
            "Transaction timed out: it ran longer than this node's limit of 20 ms for one command",
      );
    } finally {
      await slow.close();
    }
  });
});
