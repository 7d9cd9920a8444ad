import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { ParsedCommand } from "../../command/index.ts";
import { SMALL_COMMAND_GAS } from "../executor/node-executors.ts";
import type { BraidNode } from "../node.ts";
import { devCommand, GAS_CAP, manualNode } from "../test-support/dev-node.ts";
import { LEVEL_BLOCKS_PER_TURN } from "./producer.ts";

/** Chain 0's adjacent chains in the twenty-chain graph, and the chains two steps away. */
const NEIGHBOURS_OF_0 = [5, 10, 15];
const SECOND_RING_OF_0 = [7, 8, 11, 14, 16, 19];

describe("the block producer's catch-up for a busy chain", () => {
  let node: BraidNode;
  const heights = () => node.chains.map((c) => c.head.height);
  const chainsAt = (height: number) =>
    node.chains.filter((c) => c.head.height === height).map((c) => c.chainId);

  beforeEach(() => {
    node = manualNode();
  });
  afterEach(() => node.close());

  it("is ready on a level network, and waits for its neighbours after a block", () => {
    assert.equal(node.producer.isReady(0), true);
    node.producer.mine(0);
    assert.equal(node.producer.isReady(0), false);
    assert.equal(node.producer.isReady(1), true);
  });

  it("makes only the neighbours' blocks the next block needs", () => {
    node.producer.mine(0);
    node.producer.catchUpStep([0]);
    assert.deepEqual(chainsAt(1), [0, ...NEIGHBOURS_OF_0]);
    assert.equal(node.producer.isReady(0), true);
    assert.equal(
      heights().reduce((a, b) => a + b),
      4,
    );
  });

  it("two blocks ahead: a few blocks a turn, the lowest first, nothing else", () => {
    node.producer.mine(0);
    node.producer.catchUpStep([0]);
    node.producer.mine(0);
    const madeByTurn: number[] = [];
    while (!node.producer.isReady(0)) {
      const before = heights().reduce((a, b) => a + b);
      node.producer.catchUpStep([0]);
      madeByTurn.push(heights().reduce((a, b) => a + b) - before);
    }
    // 6 blocks on the second ring (to height 1) and 3 on the neighbours (to height 2), lowest
    // first: 4 of the ring; its last 2 with the one neighbour they made ready; the other 2.
    assert.deepEqual(madeByTurn, [LEVEL_BLOCKS_PER_TURN, 3, 2]);
    assert.deepEqual(chainsAt(2), [0, ...NEIGHBOURS_OF_0]);
    assert.deepEqual(chainsAt(1), SECOND_RING_OF_0);
  });

  it("levels the neighbours it waits for in the first turn, the others after", async () => {
    node.producer.mine(0);
    node.producer.level();
    await nextTurn();
    // One turn: the three neighbours, then the lowest-numbered chain no one waits for.
    assert.deepEqual(chainsAt(1), [0, 1, ...NEIGHBOURS_OF_0]);
    assert.equal(node.producer.isReady(0), true);
    while (chainsAt(0).length > 0) await nextTurn();
    assert.equal(chainsAt(1).length, 20);
  });
});

describe("the commands a block takes when another chain needs it", () => {
  let node: BraidNode;
  beforeEach(() => {
    node = manualNode();
    // Blocks of now, so that new commands are not too young for their parents (genesis is old).
    node.producer.mineAll();
  });
  afterEach(() => node.close());

  const onChain5 = (gasLimit: number, nonce: string) =>
    devCommand({
      code: "(+ 1 2)",
      caps: [GAS_CAP],
      chainId: "5",
      gasLimit,
      nonce,
    });
  const mined = (command: ParsedCommand) => node.commands.result(5, command.hashBytes) !== null;

  it("takes the small ones and leaves a large one for its own chain's block", async () => {
    const small = onChain5(SMALL_COMMAND_GAS, "small");
    const large = onChain5(SMALL_COMMAND_GAS + 1, "large");
    node.commands.submit(5, [small, large]);
    // Chain 0's block at height 3 needs chain 5 (its neighbour) at height 2.
    node.producer.ensureHeight(0, 3);
    assert.equal(node.chains[5]!.head.height, 2);
    assert.deepEqual([mined(small), mined(large)], [true, false]);
    assert.equal(node.producer.pending(5), 1);

    await node.producer.mineTo(5, 3);
    assert.deepEqual([mined(small), mined(large)], [true, true]);
    assert.equal(node.producer.pending(5), 0);
  });

  it("levelling leaves a large one too; the interval's round takes it", async () => {
    const large = onChain5(SMALL_COMMAND_GAS + 1, "large");
    node.commands.submit(5, [large]);
    node.producer.mine(0);
    node.producer.level();
    while (Math.min(...node.chains.map((c) => c.head.height)) < 2) await nextTurn();
    assert.equal(mined(large), false);

    await node.producer.mineRound();
    assert.equal(mined(large), true);
    assert.deepEqual(
      node.chains.map((c) => c.head.height),
      node.chains.map(() => 3),
    );
  });
});
