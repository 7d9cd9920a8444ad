import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it } from "node:test";
import type { BraidNode } from "../node.ts";
import { manualNode } from "../test-support/dev-node.ts";
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
});
