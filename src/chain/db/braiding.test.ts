import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { braidedChild, braidedLayers } from "../test-support/history.ts";
import { isBraided, mustStepBack } from "./braiding.ts";

const layers = braidedLayers(3);
const layer = (h: number) => [...layers[h]!.values()];

describe("braiding of a cut", () => {
  it("holds for chains advancing in step, and for the genesis blocks", () => {
    assert.equal(isBraided(layer(0)), true);
    assert.equal(isBraided(layer(3)), true);
  });

  it("holds when a chain is one block ahead of its neighbours", () => {
    const ahead = braidedChild(layers[3]!.get(0)!, layers[3]!).header;
    assert.equal(isBraided([...layer(3).filter((h) => h.chainId !== 0), ahead]), true);
    assert.equal(mustStepBack(ahead, layers[3]!.get(5)!), false);
    assert.equal(mustStepBack(layers[3]!.get(5)!, ahead), false);
  });

  it("fails when adjacent heads are two heights apart", () => {
    const heads = [...layer(3).filter((h) => h.chainId !== 5), layers[1]!.get(5)!];
    assert.equal(isBraided(heads), false);
    assert.equal(mustStepBack(layers[3]!.get(0)!, layers[1]!.get(5)!), true);
    assert.equal(mustStepBack(layers[1]!.get(5)!, layers[3]!.get(0)!), false);
  });

  it("fails when a higher head records another block than the lower neighbour's head", () => {
    // Chain 0 one ahead, but built on the height-2 blocks of its neighbours.
    const stale = braidedChild(layers[3]!.get(0)!, layers[2]!).header;
    assert.equal(mustStepBack(stale, layers[3]!.get(5)!), true);
    assert.equal(isBraided([...layer(3).filter((h) => h.chainId !== 0), stale]), false);
  });

  it("holds at equal heights when each records the other's parent", () => {
    // A competitor of chain 0's height-3 block, on the same parent and adjacent parents.
    const rival = braidedChild(layers[2]!.get(0)!, layers[2]!, { nonce: 9n }).header;
    assert.equal(isBraided([rival, layers[3]!.get(5)!]), true);
  });

  it("fails at equal heights when a head does not record the other's parent", () => {
    const neighbour = layers[3]!.get(5)!;
    // Chain 0 at height 3 recording chain 5's height-1 block instead of its height-2 block.
    const stale = braidedChild(layers[2]!.get(0)!, layers[1]!).header;
    assert.equal(mustStepBack(stale, neighbour), true);
    assert.equal(mustStepBack(neighbour, stale), false);
    assert.equal(isBraided([stale, neighbour]), false);
    // Chain 0 at height 3 on a fork from height 1: chain 5 recorded the other height-2 block.
    const fork2 = braidedChild(layers[1]!.get(0)!, layers[1]!, { nonce: 9n }).header;
    const fork3 = braidedChild(fork2, layers[2]!).header;
    assert.equal(mustStepBack(fork3, neighbour), false);
    assert.equal(mustStepBack(neighbour, fork3), true);
    assert.equal(isBraided([fork3, neighbour]), false);
  });

  it("fails for two heads of the same chain", () => {
    assert.equal(isBraided([layers[3]!.get(0)!, layers[2]!.get(0)!]), false);
  });
});
