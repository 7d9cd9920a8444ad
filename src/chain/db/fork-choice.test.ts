import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  braidedChild,
  braidedLayers,
  childBlock,
  EMPTY_PAYLOAD,
  testGenesis,
} from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { ChainDatabase } from "./chain-database.ts";

describe("chain database: best head", () => {
  it("prefers weight, then height, then the smaller hash", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    const genesis = testGenesis(2);
    const a = childBlock(genesis.header, { nonce: 1n });
    const b = childBlock(genesis.header, { nonce: 2n });
    db.insertBlocks([genesis, a, b]);
    const [smaller, larger] = Buffer.compare(a.header.hash, b.header.hash) < 0 ? [a, b] : [b, a];
    assert.deepEqual(db.bestHead(2), smaller.header);
    // Equal weight: a height-1 block of half the target against a height-2 block.
    const heavy = childBlock(genesis.header, { nonce: 3n, target: genesis.header.target / 2n });
    const onLarger = childBlock(larger.header);
    db.insertBlocks([onLarger, heavy]);
    assert.equal(heavy.header.weight, onLarger.header.weight);
    assert.deepEqual(db.bestHead(2), onLarger.header);
    // More weight wins even when lower.
    const heavier = childBlock(genesis.header, { nonce: 4n, target: genesis.header.target / 3n });
    db.insertBlock(heavier.header, heavier.payload);
    assert.deepEqual(db.bestHead(2), heavier.header);
    db.close();
  });
});

describe("chain database: the cut", () => {
  const layers = braidedLayers(3);

  it("is empty without blocks, and the genesis blocks when only they are stored", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    assert.deepEqual(db.cut(), new Map());
    db.insertBlocks([...layers[0]!.values()].map((header) => ({ header, payload: EMPTY_PAYLOAD })));
    assert.deepEqual(db.cut(), layers[0]);
    db.close();
  });

  it("takes each chain's heaviest head when they are braided", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    for (const layer of layers) {
      db.insertBlocks([...layer.values()].map((header) => ({ header, payload: EMPTY_PAYLOAD })));
    }
    assert.deepEqual(db.cut(), layers[3]);
    const ahead = braidedChild(layers[3]!.get(0)!, layers[3]!);
    db.insertBlock(ahead.header, ahead.payload);
    assert.deepEqual(db.cut(), new Map([...layers[3]!, [0, ahead.header]]));
    db.close();
  });

  it("steps back a head that is not braided with a heavier neighbour's head", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    for (const layer of layers) {
      db.insertBlocks([...layer.values()].map((header) => ({ header, payload: EMPTY_PAYLOAD })));
    }
    // Chain 5 moves to height 4 on chain 0's height-3 block; then chain 0 switches to a heavier
    // rival height-3 block. Chain 5's head no longer fits and steps back to height 3.
    const chain5 = braidedChild(layers[3]!.get(5)!, layers[3]!);
    const rival = braidedChild(layers[2]!.get(0)!, layers[2]!, {
      nonce: 1n,
      target: layers[2]!.get(0)!.target / 2n,
    });
    db.insertBlocks([chain5, rival]);
    assert.deepEqual(db.bestHead(0), rival.header);
    assert.deepEqual(db.bestHead(5), chain5.header);
    assert.deepEqual(db.cut(), new Map([...layers[3]!, [0, rival.header]]));
    db.close();
  });
});
