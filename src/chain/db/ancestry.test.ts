import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  childBlock,
  EMPTY_PAYLOAD,
  namedForkedChain,
  testGenesis,
} from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { ChainDatabase } from "./chain-database.ts";

const { history, block, hash, names } = namedForkedChain();

describe("chain database: lookups", () => {
  let db: ChainDatabase;
  before(() => {
    db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlocks(history.values());
  });
  after(() => db.close());

  it("finds headers, blocks and payloads by hash", () => {
    assert.deepEqual(db.header(hash("C4")), block("C4").header);
    assert.deepEqual(db.block(hash("B5")), block("B5"));
    assert.deepEqual(db.payload(block("B5").payload.payloadHash), block("B5").payload);
    assert.deepEqual(db.payload(EMPTY_PAYLOAD.payloadHash), EMPTY_PAYLOAD);
    assert.equal(db.header(new Uint8Array(32)), undefined);
    assert.equal(db.block(new Uint8Array(32)), undefined);
    assert.deepEqual(db.link(hash("B4")), {
      hash: hash("B4"),
      chainId: 0,
      height: 4,
      parent: hash("B3"),
    });
  });

  it("lists children and the headers of a height, ordered by hash bytes", () => {
    assert.deepEqual(names(db.children(hash("A2"))), ["A3", "B3"]);
    assert.deepEqual(names(db.children(hash("A3"))), ["C4", "A4"]);
    assert.deepEqual(names(db.children(hash("A7"))), []);
    assert.deepEqual(names(db.headersAtHeight(0, 4)), ["C4", "A4", "B4"]);
    assert.deepEqual(names(db.headersAtHeight(0, 8)), []);
  });

  it("walks ancestors down to genesis", () => {
    assert.deepEqual(names(db.ancestors(hash("B5"))), ["B5", "B4", "B3", "A2", "A1", "G"]);
    assert.deepEqual(names(db.ancestors(new Uint8Array(32))), []);
  });

  it("finds the ancestor at a height", () => {
    assert.deepEqual(names([db.ancestorAt(hash("B5"), 3)!]), ["B3"]);
    assert.deepEqual(names([db.ancestorAt(hash("B5"), 5)!]), ["B5"]);
    assert.deepEqual(names([db.ancestorAt(hash("C4"), 1)!]), ["A1"]);
    assert.equal(db.ancestorAt(hash("B5"), 6), undefined);
    assert.equal(db.ancestorAt(new Uint8Array(32), 0), undefined);
  });

  it("decides ancestry, a block counting as its own ancestor", () => {
    assert.equal(db.isAncestor(hash("A2"), hash("B5")), true);
    assert.equal(db.isAncestor(hash("B3"), hash("B5")), true);
    assert.equal(db.isAncestor(hash("B5"), hash("B5")), true);
    assert.equal(db.isAncestor(hash("G"), hash("A7")), true);
    assert.equal(db.isAncestor(hash("A3"), hash("B5")), false);
    assert.equal(db.isAncestor(hash("A4"), hash("C4")), false);
    assert.equal(db.isAncestor(hash("B5"), hash("B4")), false);
    assert.equal(db.isAncestor(new Uint8Array(32), hash("B5")), false);
  });

  it("knows each chain's maximum height and heaviest head", () => {
    assert.equal(db.maxHeight(0), 7);
    assert.equal(db.maxHeight(1), undefined);
    assert.deepEqual(names([db.bestHead(0)!]), ["A7"]);
    assert.equal(db.bestHead(1), undefined);
    assert.deepEqual(db.chainIds(), [0]);
  });
});

describe("chain database: ancestry on long forked chains", () => {
  it("agrees with a parent-by-parent walk at every height", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    const main = [testGenesis(4)];
    const blocks = [main[0]!];
    for (let h = 1; h <= 700; h++) {
      main.push(childBlock(main[h - 1]!.header));
      // A sibling at every height, so no height has a single block and skip pointers are used.
      blocks.push(main[h]!, childBlock(main[h - 1]!.header, { nonce: 1n }));
    }
    db.insertBlocks(blocks);
    const tip = main[700]!.header.hash;
    for (let h = 0; h <= 700; h++) {
      assert.deepEqual(db.ancestorAt(tip, h), main[h]!.header);
    }
    const sibling = blocks[2 * 350]!.header;
    assert.equal(sibling.height, 350);
    assert.equal(db.isAncestor(sibling.hash, tip), false);
    assert.equal(db.isAncestor(main[350]!.header.hash, tip), true);
    db.close();
  });
});
