/**
 * The node's time limit for one command (`commandTimeLimit`): `local` and preflight refuse a
 * command that runs longer, a block being made leaves it out (and drops it from the mempool),
 * and commands within the limit are untouched.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { JsonNumber } from "../pact/values/index.ts";
import { BLOCK_TIME_BUDGET_MS } from "./executor/block/block-executor.ts";
import { LocalRefusal } from "./executor/local.ts";
import type { BraidNode } from "./node.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "./test-support/dev-node.ts";

/** About 95,000 gas of arithmetic: about 100 ms here, far over the 20 ms limit below. */
const SLOW_CODE = "(fold (+) 0 (enumerate 1 400000))";
const LIMIT_MS = 20;
const TIMED_OUT = `Transaction timed out: it ran longer than this node's limit of ${LIMIT_MS} ms for one command`;

describe("the time limit for one command", () => {
  let node: BraidNode;
  before(() => {
    node = manualNode({ commandTimeLimit: LIMIT_MS });
  });
  after(() => node.close());

  const slow = (nonce: string) => devCommand({ code: SLOW_CODE, nonce, gasLimit: 100_000 });
  const refusal = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (e) {
      if (e instanceof LocalRefusal) return e.message;
      throw e;
    }
    assert.fail("not refused");
  };

  it("refuses a local call that runs longer, and answers one that does not", async () => {
    const local = (preflight: boolean, nonce: string) =>
      node.commands.local(0, slow(nonce), { preflight, rewindDepth: 0n });
    assert.equal(await refusal(() => local(false, "plain")), TIMED_OUT);
    assert.equal(await refusal(() => local(true, "preflight")), TIMED_OUT);
    const quick = devCommand({ code: "(+ 1 2)", nonce: "quick" });
    const answer = await node.commands.local(0, quick, {
      preflight: false,
      rewindDepth: 0n,
    });
    assert.match(answer, /"result":\{"status":"success","data":\{"int":3\}\}/);
  });

  it("leaves a command that runs longer out of the block it is making, with the others in", () => {
    const transfer = devCommand({
      code: '(coin.transfer "sender00" "sender01" 1.0)',
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
      nonce: "quick-transfer",
    });
    const long = slow("in-a-block");
    node.commands.submit(0, [long, transfer]);
    const block = node.producer.mine(0);
    assert.deepEqual(block.requestKeys, [transfer.hash]);
    assert.deepEqual(
      block.rejected.map((r) => [r.command.hash, r.reason]),
      [[long.hash, TIMED_OUT]],
    );
    assert.equal(node.chains[0]!.mempool.size, 0, "dropped from the mempool");
    assert.equal(node.commands.result(0, long.hashBytes), null);
    assert.match(node.commands.result(0, transfer.hashBytes)!, /"status":"success"/);
  });
});

describe("the time a block being made spends on commands", () => {
  it("stops taking commands after BLOCK_TIME_BUDGET_MS; the rest get the next block", () => {
    const node = manualNode({ commandTimeLimit: 5_000 }, BLOCK_TIME_BUDGET_MS);
    try {
      // Each runs to its gas limit (about 50 ms here), within the time limit: the first always
      // fits the budget, never all three.
      const commands = ["a", "b", "c"].map((nonce) =>
        devCommand({ code: SLOW_CODE, nonce, gasLimit: 48_000 }),
      );
      node.commands.submit(0, commands);
      const first = node.producer.mine(0);
      assert.ok(
        first.requestKeys.length >= 1 && first.requestKeys.length < 3,
        `${first.requestKeys.length}`,
      );
      assert.deepEqual(first.rejected, []);
      assert.equal(node.chains[0]!.mempool.size, 3 - first.requestKeys.length, "the rest wait");
      const rest: string[] = [];
      while (node.chains[0]!.mempool.size > 0) rest.push(...node.producer.mine(0).requestKeys);
      assert.deepEqual(
        [...first.requestKeys, ...rest],
        commands.map((c) => c.hash),
      );
    } finally {
      node.close();
    }
  });
});
