import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ParsedCommand } from "../../command/index.ts";
import { BLOCK_TIME_BUDGET_MS } from "../executor/block/block-executor.ts";
import { devCommand, GAS_CAP, manualNode } from "../test-support/dev-node.ts";
import { LEVEL_AFTER_BLOCK_MS } from "./modes.ts";

/** How long the quick commands may wait for their block (ms): a block time, with room for load. */
const QUICK_WITHIN_MS = 3_000;

describe("on-demand mining", () => {
  it("mines the quick commands sent with one that times out, though nothing else arrives", async () => {
    // The node's own block time budget: the command that times out spends it, and the block
    // takes nothing more.
    const node = manualNode({ mining: "on-demand", commandTimeLimit: 20 }, BLOCK_TIME_BUDGET_MS);
    try {
      const slow = devCommand({
        code: "(length (map (lambda (x) (+ x 1)) (enumerate 1 400000)))",
        caps: [GAS_CAP],
        gasLimit: 150_000,
        nonce: "slow",
      });
      const quick = [1, 2, 3].map((i) =>
        devCommand({
          code: `(+ ${i} 1)`,
          caps: [GAS_CAP],
          nonce: `quick ${i}`,
        }),
      );
      node.commands.submit(0, [slow, ...quick]);
      node.commands.commandsArrived(0);
      const mined = (command: ParsedCommand) => node.commands.result(0, command.hashBytes) !== null;
      const due = Date.now() + QUICK_WITHIN_MS;
      while (!quick.every(mined) && Date.now() < due) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.deepEqual(quick.map(mined), [true, true, true], "every quick command was mined");
      assert.equal(mined(slow), false, "the slow one was left out");
      assert.equal(node.producer.pending(0), 0, "nothing stays in the mempool");
    } finally {
      node.close();
    }
  });

  it("begins catching up the other chains only LEVEL_AFTER_BLOCK_MS after a block, so the client's next request goes first", async () => {
    // The timers are the test's: however slow the machine, the catch-up's wait ends only when
    // the test says so.
    mock.timers.enable({ apis: ["setTimeout"] });
    const node = manualNode({ mining: "on-demand" });
    const heights = () => node.chains.map((chain) => chain.head.height);
    const turns = async (most: number, until: () => boolean) => {
      for (let turn = 0; turn < most && !until(); turn++) await nextTurn();
    };
    const mine = async (nonce: string) => {
      const command = devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce });
      node.commands.submit(0, [command]);
      node.commands.commandsArrived(0);
      await turns(1_000, () => node.commands.result(0, command.hashBytes) !== null);
      assert.notEqual(node.commands.result(0, command.hashBytes), null, `${nonce} was mined`);
    };
    const levelled = () => new Set(heights()).size === 1;
    const waitEndsThenLevel = async () => {
      mock.timers.tick(LEVEL_AFTER_BLOCK_MS);
      await turns(1_000, levelled);
    };
    try {
      await mine("first");
      await turns(100, () => false);
      await waitEndsThenLevel();
      const [top] = heights();
      assert.ok(levelled(), "the chains are level after the first block's wait");
      await mine("second");
      const grown = [top! + 1, ...Array(19).fill(top)];
      assert.deepEqual(heights(), grown, "chain 0 grew, the others not yet");
      await turns(100, () => false);
      assert.deepEqual(heights(), grown, "nothing was caught up before the wait ended");
      await waitEndsThenLevel();
      assert.deepEqual(heights(), Array(20).fill(top! + 1), "every chain caught up after it");
    } finally {
      node.close();
      mock.timers.reset();
    }
  });
});
