import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ParsedCommand } from "../../command/index.ts";
import { BLOCK_TIME_BUDGET_MS } from "../executor/block/block-executor.ts";
import { devCommand, GAS_CAP, manualNode } from "../test-support/dev-node.ts";

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
});
