import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import { childBlock, forkedChain, testGenesis } from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { type Block, ChainDatabase } from "./chain-database.ts";
import { type Cursor, parseCursor } from "./cursor.ts";
import { MAX_BLOCK_PAGE_LIMIT, MAX_BRANCH_BOUNDS } from "./limits.ts";
import { type BranchBounds, blockPage, branchPage, type Page, type PageQuery } from "./pages.ts";

// The forked chain of test-support/history.ts. Within a height, blocks are ordered by hash bytes:
// A3 (1ec2…) < B3 (c2d4…); C4 (1cac…) < A4 (6c8c…) < B4 (8e11…); A5 (075f…) < B5 (a058…).
const ASCENDING = ["G", "A1", "A2", "A3", "B3", "C4", "A4", "B4", "A5", "B5", "A6", "A7"];

const history = forkedChain();
const hash = (name: string) => history.get(name)!.header.hash;
const text = (name: string) => encodeBase64Url(hash(name));
const nameOf = new Map(
  [...history].map(([name, block]) => [encodeBase64Url(block.header.hash), name]),
);

/** A page with its items replaced by block names, for exact comparison. */
function named(page: Page<Block>): { limit: number; items: string[]; next: string | null } {
  return {
    limit: page.limit,
    items: page.items.map((block) => nameOf.get(encodeBase64Url(block.header.hash)) ?? "?"),
    next: page.next,
  };
}

const inclusive = (name: string): Cursor => ({ kind: "inclusive", hash: hash(name) });
const exclusive = (name: string): Cursor => ({ kind: "exclusive", hash: hash(name) });

describe("block pages", () => {
  let db: ChainDatabase;
  before(() => {
    db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlocks(history.values());
    db.insertBlock(testGenesis(1).header, testGenesis(1).payload);
  });
  after(() => db.close());
  const page = (query: PageQuery = {}) => named(blockPage(db, 0, query));

  it("list every block, orphans included, ascending by height then hash bytes", () => {
    assert.deepEqual(page(), {
      limit: 12,
      items: ASCENDING,
      next: null,
    });
  });

  it("serve the full block: header and payload", () => {
    const b5 = blockPage(db, 0, { next: inclusive("B5"), limit: 1 }).items[0]!;
    assert.deepEqual(b5, history.get("B5"));
  });

  it("end with an empty page and next null after the last block", () => {
    assert.deepEqual(page({ next: exclusive("A7") }), { limit: 0, items: [], next: null });
  });

  it("page through with inclusive cursors", () => {
    assert.deepEqual(page({ limit: 5 }), {
      limit: 5,
      items: ["G", "A1", "A2", "A3", "B3"],
      next: `inclusive:${text("C4")}`,
    });
    assert.deepEqual(page({ limit: 5, next: parseCursor(`inclusive:${text("C4")}`) }), {
      limit: 5,
      items: ["C4", "A4", "B4", "A5", "B5"],
      next: `inclusive:${text("A6")}`,
    });
    assert.deepEqual(page({ limit: 5, next: inclusive("A6") }), {
      limit: 2,
      items: ["A6", "A7"],
      next: null,
    });
  });

  it("start after an exclusive cursor", () => {
    assert.deepEqual(page({ limit: 3, next: exclusive("C4") }), {
      limit: 3,
      items: ["A4", "B4", "A5"],
      next: `inclusive:${text("B5")}`,
    });
  });

  it("keep to the minheight/maxheight window", () => {
    assert.deepEqual(page({ minheight: 3, maxheight: 4 }), {
      limit: 5,
      items: ["A3", "B3", "C4", "A4", "B4"],
      next: null,
    });
    assert.deepEqual(page({ minheight: 4, maxheight: 4, limit: 2 }), {
      limit: 2,
      items: ["C4", "A4"],
      next: `inclusive:${text("B4")}`,
    });
    assert.deepEqual(page({ minheight: 8 }), { limit: 0, items: [], next: null });
    assert.deepEqual(page({ minheight: 5, maxheight: 4 }), { limit: 0, items: [], next: null });
  });

  it("give an empty page when the cursor position is below minheight, as Chainweb does", () => {
    assert.deepEqual(page({ minheight: 3, next: inclusive("A1") }), {
      limit: 0,
      items: [],
      next: null,
    });
    // Exclusive of the last block at height 2, the position is the first block at height 3.
    assert.deepEqual(page({ minheight: 3, maxheight: 3, next: exclusive("A2") }), {
      limit: 2,
      items: ["A3", "B3"],
      next: null,
    });
  });

  it("answer limit 0 with no items and a cursor to the first block", () => {
    assert.deepEqual(page({ limit: 0 }), { limit: 0, items: [], next: `inclusive:${text("G")}` });
  });

  it("refuse a cursor that is not a block of this chain", () => {
    assert.throws(() => page({ next: { kind: "inclusive", hash: new Uint8Array(32) } }), {
      name: "BlockNotFoundError",
      message:
        "block AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA is not in the database of chain 0",
      key: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    const otherChain = testGenesis(1).header.hash;
    assert.throws(() => blockPage(db, 0, { next: { kind: "exclusive", hash: otherChain } }), {
      name: "BlockNotFoundError",
    });
  });

  it("refuse a negative or fractional limit or height", () => {
    assert.throws(() => page({ limit: -1 }), {
      name: "PageQueryError",
      message: "limit must be an integer >= 0, got -1",
    });
    assert.throws(() => page({ maxheight: 1.5 }), {
      message: "maxheight must be an integer >= 0, got 1.5",
    });
  });

  it("list only the requested chain", () => {
    assert.deepEqual(
      blockPage(db, 1, {}).items.map((block) => block.header.chainId),
      [1],
    );
    assert.deepEqual(blockPage(db, 2, {}), { limit: 0, items: [], next: null });
  });
});

describe("branch pages", () => {
  let db: ChainDatabase;
  before(() => {
    db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlocks(history.values());
    db.insertBlock(testGenesis(1).header, testGenesis(1).payload);
  });
  after(() => db.close());
  const bounds = (upper: string[], lower: string[] = []): BranchBounds => ({
    upper: upper.map(hash),
    lower: lower.map(hash),
  });
  const branch = (upper: string[], lower: string[] = [], query: PageQuery = {}) =>
    named(branchPage(db, 0, bounds(upper, lower), query));

  it("return every ancestor of an upper bound, descending, ending with next null", () => {
    assert.deepEqual(branch(["A7"]), {
      limit: 8,
      items: ["A7", "A6", "A5", "A4", "A3", "A2", "A1", "G"],
      next: null,
    });
  });

  it("leave out the ancestors of the lower bounds, the bounds themselves included", () => {
    assert.deepEqual(branch(["B5"], ["A7"]).items, ["B5", "B4", "B3"]);
    assert.deepEqual(branch(["B4"], ["B4"]).items, []);
    assert.deepEqual(branch(["A3"], ["A7"]).items, []);
    assert.deepEqual(branch(["A7"], ["B5"]).items, ["A7", "A6", "A5", "A4", "A3"]);
  });

  it("merge several upper bounds, ordering a height by descending hash bytes", () => {
    assert.deepEqual(branch(["B5", "C4"], ["A7"]).items, ["B5", "B4", "C4", "B3"]);
    assert.deepEqual(branch(["A7", "B5", "C4"], ["A2"]).items, [
      "A7",
      "A6",
      "B5",
      "A5",
      "B4",
      "A4",
      "C4",
      "B3",
      "A3",
    ]);
    assert.deepEqual(branch(["A7", "B5"], ["A4", "C4"]).items, [
      "A7",
      "A6",
      "B5",
      "A5",
      "B4",
      "B3",
    ]);
  });

  it("keep to the minheight/maxheight window", () => {
    assert.deepEqual(branch(["A7"], [], { minheight: 2, maxheight: 5 }).items, [
      "A5",
      "A4",
      "A3",
      "A2",
    ]);
    assert.deepEqual(branch(["A7", "B5", "C4"], ["A2"], { minheight: 4, maxheight: 4 }).items, [
      "B4",
      "A4",
      "C4",
    ]);
    // A maximum above every upper bound does not drop them (Chainweb's node would).
    assert.deepEqual(branch(["A3"], [], { maxheight: 10 }).items, ["A3", "A2", "A1", "G"]);
    assert.deepEqual(branch(["A3"], [], { minheight: 4 }).items, []);
  });

  it("page with inclusive cursors to the next block", () => {
    const all = ["A7", "B5", "C4"];
    assert.deepEqual(branch(all, ["A2"], { limit: 4 }), {
      limit: 4,
      items: ["A7", "A6", "B5", "A5"],
      next: `inclusive:${text("B4")}`,
    });
    assert.deepEqual(branch(all, ["A2"], { limit: 4, next: inclusive("B4") }), {
      limit: 4,
      items: ["B4", "A4", "C4", "B3"],
      next: `inclusive:${text("A3")}`,
    });
    assert.deepEqual(branch(all, ["A2"], { limit: 4, next: inclusive("A3") }), {
      limit: 1,
      items: ["A3"],
      next: null,
    });
    assert.deepEqual(branch(all, ["A2"], { limit: 1, next: exclusive("A4") }), {
      limit: 1,
      items: ["C4"],
      next: `inclusive:${text("B3")}`,
    });
    assert.deepEqual(branch(all, ["A2"], { limit: 0 }), {
      limit: 0,
      items: [],
      next: `inclusive:${text("A7")}`,
    });
  });

  it("give an empty page for a cursor outside the branch or the window", () => {
    assert.deepEqual(branch(["A7"], [], { next: inclusive("C4") }), {
      limit: 0,
      items: [],
      next: null,
    });
    assert.deepEqual(branch(["A7"], [], { next: inclusive("A6"), maxheight: 5 }).items, []);
    assert.deepEqual(branch(["A7"], [], { next: inclusive("A2"), minheight: 3 }).items, []);
    assert.deepEqual(branch(["A7"], ["A4"], { next: inclusive("A3") }).items, []);
  });

  it("refuse an unknown upper bound, lower bound or cursor", () => {
    const unknown = new Uint8Array(32).fill(7);
    assert.throws(() => branchPage(db, 0, { upper: [hash("A7"), unknown], lower: [] }, {}), {
      name: "BlockNotFoundError",
      key: encodeBase64Url(unknown),
    });
    assert.throws(
      () => branchPage(db, 0, bounds(["A7"]), { next: { kind: "inclusive", hash: unknown } }),
      {
        name: "BlockNotFoundError",
      },
    );
    const chain1 = testGenesis(1).header.hash;
    assert.throws(() => branchPage(db, 0, { upper: [chain1], lower: [] }, {}), {
      name: "BlockNotFoundError",
    });
    assert.throws(() => branchPage(db, 0, { upper: [hash("A2")], lower: [unknown] }, {}), {
      name: "BlockNotFoundError",
      key: encodeBase64Url(unknown),
    });
    assert.throws(() => branchPage(db, 0, { upper: [hash("A2")], lower: [chain1] }, {}), {
      name: "BlockNotFoundError",
    });
  });

  it("answer no upper bounds with an empty page", () => {
    assert.deepEqual(branch([], ["A7"]), { limit: 0, items: [], next: null });
  });

  it(`refuse more than ${MAX_BRANCH_BOUNDS} distinct bounds on either side`, () => {
    const many = Array.from({ length: MAX_BRANCH_BOUNDS + 1 }, (_, i) =>
      new Uint8Array(32).fill(i),
    );
    assert.throws(() => branchPage(db, 0, { upper: many, lower: many }, {}), {
      name: "BranchBoundsError",
      message: "upper branch bound limit exceeded. Only 32 values are supported.",
    });
    assert.throws(() => branchPage(db, 0, { upper: [hash("A7")], lower: many }, {}), {
      name: "BranchBoundsError",
      message: "lower branch bound limit exceeded. Only 32 values are supported.",
    });
    const repeated = Array.from({ length: 40 }, () => hash("A1"));
    assert.deepEqual(named(branchPage(db, 0, { upper: repeated, lower: repeated }, {})).items, []);
  });
});

describe("page limits", () => {
  it(`clamp a larger limit to ${MAX_BLOCK_PAGE_LIMIT} and default to it`, () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    const blocks = [testGenesis(3)];
    for (let i = 0; i < MAX_BLOCK_PAGE_LIMIT + 8; i++) blocks.push(childBlock(blocks[i]!.header));
    db.insertBlocks(blocks);
    const tip = blocks[blocks.length - 1]!.header.hash;
    const cursorTo = (index: number) => `inclusive:${encodeBase64Url(blocks[index]!.header.hash)}`;

    const listed = blockPage(db, 3, { limit: 100_000 });
    assert.equal(listed.limit, MAX_BLOCK_PAGE_LIMIT);
    assert.equal(listed.items[359]!.header.height, 359);
    assert.equal(listed.next, cursorTo(360));
    assert.equal(blockPage(db, 3, {}).next, cursorTo(360));

    const branched = branchPage(db, 3, { upper: [tip], lower: [] }, { limit: 1000 });
    assert.equal(branched.limit, MAX_BLOCK_PAGE_LIMIT);
    assert.equal(branched.items[0]!.header.height, 368);
    assert.equal(branched.next, cursorTo(8));
    db.close();
  });
});
