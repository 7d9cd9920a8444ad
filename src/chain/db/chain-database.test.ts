import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BlockHeader } from "../header/types.ts";
import { encodePayloadWithOutputsBinary } from "../payload/binary.ts";
import {
  braidedChild,
  braidedLayers,
  childBlock,
  EMPTY_PAYLOAD,
  forkedChain,
  payloadWithTransaction,
  testGenesis,
} from "../test-support/history.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import { type Block, CHAIN_CHECKPOINT_BLOCKS, ChainDatabase } from "./chain-database.ts";
import { blockPage } from "./pages.ts";

const history = forkedChain();
const block = (name: string) => history.get(name)!;
const hash = (name: string) => block(name).header.hash;
const nameOf = new Map([...history].map(([name, b]) => [encodeBase64Url(b.header.hash), name]));
const names = (headers: Iterable<BlockHeader>) =>
  [...headers].map((h) => nameOf.get(encodeBase64Url(h.hash)) ?? "?");

describe("chain database: storing blocks", () => {
  it("stores a block once; inserting it again changes nothing", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    assert.equal(db.insertBlock(block("G").header, block("G").payload), true);
    assert.equal(db.insertBlock(block("G").header, block("G").payload), false);
    assert.equal(db.insertBlocks(history.values()), history.size - 1);
    assert.equal(db.insertBlocks(history.values()), 0);
    assert.equal(blockPage(db, 0, {}).limit, history.size);
    db.close();
  });

  it("refuses a block whose parent is not stored, naming both", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlock(block("G").header, block("G").payload);
    assert.throws(() => db.insertBlock(block("A2").header, block("A2").payload), {
      name: "HeaderInsertError",
      message: `block ${encodeBase64Url(hash("A2"))} (chain 0, height 2): parent ${encodeBase64Url(hash("A1"))} is not in the database`,
    });
    db.close();
  });

  it("refuses a whole batch when one of its blocks is refused", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    assert.throws(() => db.insertBlocks([block("G"), block("A1"), block("A3")]), {
      name: "HeaderInsertError",
    });
    assert.equal(db.header(hash("G")), undefined);
    db.close();
  });

  it("accepts one genesis block per chain, at the genesis height with the genesis parent", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlock(block("G").header, block("G").payload);
    const other = testGenesis(0, payloadWithTransaction("other genesis"));
    assert.throws(() => db.insertBlock(other.header, other.payload), {
      name: "HeaderInsertError",
      message: `block ${encodeBase64Url(other.header.hash)} (chain 0, height 0) is a second genesis block of chain 0, which already has ${encodeBase64Url(hash("G"))}`,
    });
    const wrongHeight = childBlock({ ...testGenesis(1).header, height: 4 });
    assert.throws(() => db.insertBlock(wrongHeight.header, wrongHeight.payload), {
      message: /\(chain 1, height 5\): parent .* is not in the database$/,
    });
    db.close();
  });

  it("refuses a block that does not extend its parent", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlocks([block("G"), block("A1")]);
    const skipping = childBlock({ ...block("A1").header, height: 5 });
    const hopping = childBlock({ ...block("A1").header, chainId: 3 });
    for (const bad of [skipping, hopping]) {
      assert.throws(() => db.insertBlock(bad.header, bad.payload), {
        name: "HeaderInsertError",
        message: `block ${encodeBase64Url(bad.header.hash)} (chain ${bad.header.chainId}, height ${bad.header.height}) does not extend its parent ${encodeBase64Url(hash("A1"))} (chain 0, height 1)`,
      });
    }
    db.close();
  });

  it("refuses a payload other than the one the header names, and another version's header", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlock(block("G").header, block("G").payload);
    const other = payloadWithTransaction("x");
    assert.throws(() => db.insertBlock(block("A1").header, other), {
      name: "HeaderInsertError",
      message: `block ${encodeBase64Url(hash("A1"))} (chain 0, height 1) names payload ${encodeBase64Url(EMPTY_PAYLOAD.payloadHash)} but was given payload ${encodeBase64Url(other.payloadHash)}`,
    });
    const mainnet = testGenesis(0, EMPTY_PAYLOAD, MAINNET01);
    assert.throws(() => db.insertBlock(mainnet.header, mainnet.payload), {
      message: `block ${encodeBase64Url(mainnet.header.hash)} (chain 0, height 0) has version code 0x5, this database holds development (0x2)`,
    });
    db.close();
  });
});

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

describe("chain database: development snapshots", () => {
  const layers = braidedLayers(3);
  const store = (db: ChainDatabase) => {
    for (const layer of layers) {
      db.insertBlocks([...layer.values()].map((header) => ({ header, payload: EMPTY_PAYLOAD })));
    }
  };

  it("a revert abandons what ranks above the snapshot's heads; they stay stored, the cut is the snapshot", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    store(db);
    const first = db.saveSnapshot(layers[1]!);
    const later = db.saveSnapshot(layers[3]!);
    assert.deepEqual([first, later], [1, 2]);
    assert.deepEqual(db.snapshotHeads(first), layers[1]);
    const reverted = db.revertToSnapshot(first)!;
    assert.equal(reverted.abandoned, 40, "heights 2 and 3 of 20 chains");
    assert.deepEqual(reverted.heads, layers[1]);
    assert.deepEqual(db.cut(), layers[1]);
    assert.equal(db.isAbandoned(layers[3]!.get(7)!.hash), true);
    assert.equal(db.isAbandoned(layers[1]!.get(7)!.hash), false);
    assert.deepEqual(db.header(layers[3]!.get(7)!.hash), layers[3]!.get(7));
    assert.equal(db.snapshotHeads(later), undefined, "later snapshots are deleted");
    assert.equal(db.revertToSnapshot(later), undefined);
    assert.equal(db.saveSnapshot(layers[1]!), 3, "ids are never reused");
    db.close();
  });

  it("a block on an abandoned block is abandoned too; a lighter block on the snapshot's head is the best head", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    store(db);
    db.revertToSnapshot(db.saveSnapshot(layers[1]!));
    const onOrphan = braidedChild(layers[3]!.get(0)!, layers[3]!);
    const onSnapshot = braidedChild(layers[1]!.get(0)!, layers[1]!, { nonce: 9n });
    db.insertBlocks([onOrphan, onSnapshot]);
    assert.equal(db.isAbandoned(onOrphan.header.hash), true);
    assert.equal(db.isAbandoned(onSnapshot.header.hash), false);
    assert.deepEqual(db.bestHead(0), onSnapshot.header);
    db.close();
  });

  it("keeps abandoned blocks, snapshots and settings across close and reopen", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-chain-db-revert-"));
    try {
      const path = join(dir, "chain.sqlite");
      const db = new ChainDatabase(path, DEVELOPMENT);
      store(db);
      const id = db.saveSnapshot(layers[2]!);
      db.revertToSnapshot(id);
      assert.equal(db.setting("clock"), undefined);
      db.saveSetting("clock", "5");
      db.saveSetting("clock", "7");
      db.close();
      const reopened = new ChainDatabase(path, DEVELOPMENT);
      assert.deepEqual(reopened.cut(), layers[2]);
      assert.deepEqual(reopened.snapshotHeads(id), layers[2]);
      assert.equal(reopened.setting("clock"), "7");
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("chain database: scanning a chain's blocks", () => {
  /** Genesis, then `siblings` children of it at height 1, then a chain of 3 on the first. */
  function storeSiblings(db: ChainDatabase, siblings: number): Block[] {
    const genesis = testGenesis(0);
    const children = Array.from({ length: siblings }, (_, i) =>
      childBlock(genesis.header, { nonce: BigInt(i) }),
    );
    let top = children[0]!;
    const above: Block[] = [];
    for (let i = 0; i < 3; i++) {
      top = childBlock(top.header);
      above.push(top);
    }
    const all = [genesis, ...children, ...above];
    db.insertBlocks(all);
    return all;
  }

  /** What a scan must return: the blocks in (height, hash bytes) order from the cursor. */
  function expected(
    all: readonly Block[],
    from: { height: number; hash: Uint8Array; inclusive: boolean },
    maxHeight: number,
    count: number,
  ): string[] {
    return all
      .map((b) => b.header)
      .filter((h) => h.height <= maxHeight)
      .filter((h) => {
        if (h.height !== from.height) return h.height > from.height;
        const order = Buffer.compare(h.hash, from.hash);
        return order > 0 || (order === 0 && from.inclusive);
      })
      .sort((a, b) => a.height - b.height || Buffer.compare(a.hash, b.hash))
      .slice(0, count)
      .map((h) => encodeBase64Url(h.hash));
  }

  function checkScans(db: ChainDatabase, all: readonly Block[]) {
    const atOne = all.filter((b) => b.header.height === 1).map((b) => b.header.hash);
    const cursors = [
      { height: 0, hash: new Uint8Array(), inclusive: true },
      { height: 1, hash: new Uint8Array(), inclusive: true },
      ...atOne.slice(0, 3).flatMap((hash) => [
        { height: 1, hash, inclusive: true },
        { height: 1, hash, inclusive: false },
      ]),
    ];
    for (const from of cursors) {
      for (const count of [1, 2, 3, 5, 1000]) {
        for (const maxHeight of [1, 2, 4, Number.MAX_SAFE_INTEGER]) {
          const scanned = db
            .scanBlocks(0, from, maxHeight, count)
            .map((b) => encodeBase64Url(b.header.hash));
          assert.deepEqual(scanned, expected(all, from, maxHeight, count));
        }
      }
    }
    // Payloads come with their headers (all empty here but one per block is read).
    const [first] = db.scanBlocks(0, cursors[0]!, 4, 1);
    assert.deepEqual(first, all[0]);
  }

  it("returns blocks in height and hash order, whatever order they were stored in", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    const all = storeSiblings(db, 6);
    checkScans(db, all);
    db.close();
  });

  it("returns them in that order too past 256 blocks at one height (ids beyond the clusters)", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    const all = storeSiblings(db, 260);
    checkScans(db, all);
    db.close();
  });
});

describe("chain database: files", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-chain-db-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps blocks across close and reopen", () => {
    const path = join(dir, "chain.sqlite");
    const first = new ChainDatabase(path, DEVELOPMENT);
    first.insertBlocks(history.values());
    const page = blockPage(first, 0, { limit: 4 });
    first.close();

    const second = new ChainDatabase(path, DEVELOPMENT);
    assert.deepEqual(blockPage(second, 0, { limit: 4 }), page);
    assert.deepEqual(second.block(hash("B5")), block("B5"));
    assert.equal(second.isAncestor(hash("A1"), hash("B5")), true);
    assert.equal(second.insertBlocks(history.values()), 0);
    second.close();
  });

  it("drops the index by parent that earlier files have, and still finds children", () => {
    const path = join(dir, "older.sqlite");
    new ChainDatabase(path, DEVELOPMENT).close();
    const raw = new Database(path);
    raw.exec("CREATE INDEX block_headers_by_parent ON block_headers (parent)");
    raw.close();
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks(history.values());
    db.close();
    const check = new Database(path, { readonly: true });
    const indexes = check
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%parent%'")
      .pluck()
      .all();
    check.close();
    assert.deepEqual(indexes, []);
    const reopened = new ChainDatabase(path, DEVELOPMENT);
    assert.deepEqual(names(reopened.children(hash("A3"))), ["C4", "A4"]);
    reopened.close();
  });

  /** A chain of `count` blocks on chain 0 after genesis, each with its own payload. */
  const distinctPayloads = (count: number) => {
    const blocks = [testGenesis(0)];
    for (let i = 1; i <= count; i++) {
      blocks.push(childBlock(blocks[i - 1]!.header, { payload: payloadWithTransaction(`p${i}`) }));
    }
    return blocks;
  };
  const logRows = (path: string) => {
    const raw = new Database(path, { readonly: true });
    const rows = raw
      .prepare(
        "SELECT chain, log_offset, log_length, length(bytes) FROM payloads ORDER BY log_offset",
      )
      .raw()
      .all() as [number, number, number, number][];
    raw.close();
    return rows;
  };

  it("keeps payload bytes in the chain's log, one after another, and reads them back", () => {
    const path = join(dir, "logs.sqlite");
    const blocks = distinctPayloads(5);
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks(blocks);
    db.close();
    const sizes = blocks.map((b) => encodePayloadWithOutputsBinary(b.payload).length);
    const offsets = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
    assert.deepEqual(
      logRows(path),
      sizes.map((size, i) => [0, offsets[i], size, 0]),
    );
    assert.equal(
      statSync(join(`${path}-payloads`, "0.log")).size,
      sizes.reduce((a, b) => a + b),
    );
    const reopened = new ChainDatabase(path, DEVELOPMENT);
    for (const b of blocks) assert.deepEqual(reopened.block(b.header.hash), b);
    assert.deepEqual(reopened.payload(blocks[3]!.payload.payloadHash), blocks[3]!.payload);
    reopened.close();
  });

  it("checkpoints off the inserting thread: the file grows only after the background syncs", async () => {
    const path = join(dir, "checkpoints.sqlite");
    const blocks = distinctPayloads(CHAIN_CHECKPOINT_BLOCKS + 1);
    const db = new ChainDatabase(path, DEVELOPMENT);
    const fileSize = () => statSync(path).size;
    db.insertBlocks(blocks.slice(0, CHAIN_CHECKPOINT_BLOCKS - 1));
    const before = fileSize();
    // The insert that reaches the checkpoint distance returns before any page is copied back.
    assert.equal(db.insertBlocks(blocks.slice(CHAIN_CHECKPOINT_BLOCKS - 1)), 3);
    assert.equal(fileSize(), before);
    await db.checkpointsSettled();
    assert.ok(fileSize() > before + 100 * 4096, `${fileSize()} bytes after the checkpoint`);
    db.close();
    const reopened = new ChainDatabase(path, DEVELOPMENT);
    for (const b of [blocks[1]!, blocks.at(-1)!])
      assert.deepEqual(reopened.block(b.header.hash), b);
    reopened.close();
  });

  it("never reads the bytes a refused batch appended, and appends after them", () => {
    const path = join(dir, "refused.sqlite");
    const [genesis, first, second] = distinctPayloads(2);
    const stranger = childBlock(testGenesis(1).header);
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks([genesis!]);
    assert.throws(() => db.insertBlocks([first!, stranger]), /parent/);
    assert.equal(db.block(first!.header.hash), undefined);
    db.insertBlocks([first!, second!]);
    assert.deepEqual(db.block(first!.header.hash), first);
    assert.deepEqual(db.block(second!.header.hash), second);
    db.close();
    const [g, f] = [genesis!, first!].map((b) => encodePayloadWithOutputsBinary(b.payload).length);
    // The refused batch's copy of `first` stays in the log, unnamed, before the stored one.
    assert.deepEqual(
      logRows(path).map(([, offset]) => offset),
      [0, g! + f!, g! + 2 * f!],
    );
  });

  it("reads a file of schema 3, whose payloads are in the table, and logs new ones", () => {
    const path = join(dir, "schema3.sqlite");
    const blocks = distinctPayloads(4);
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks(blocks.slice(0, 3));
    db.close();
    // What a schema-3 node left: payload bytes in the table, no log columns, no logs.
    const raw = new Database(path);
    const setBytes = raw.prepare("UPDATE payloads SET bytes = ? WHERE payload_hash = ?");
    for (const b of blocks.slice(0, 3)) {
      setBytes.run(encodePayloadWithOutputsBinary(b.payload), b.payload.payloadHash);
    }
    raw.exec(`ALTER TABLE payloads DROP COLUMN chain; ALTER TABLE payloads DROP COLUMN log_offset;
      ALTER TABLE payloads DROP COLUMN log_length;
      UPDATE meta SET value = '3' WHERE key = 'schema';`);
    raw.close();
    rmSync(`${path}-payloads`, { recursive: true });

    const upgraded = new ChainDatabase(path, DEVELOPMENT);
    upgraded.insertBlocks(blocks);
    upgraded.close();
    const reopened = new ChainDatabase(path, DEVELOPMENT);
    for (const b of blocks) assert.deepEqual(reopened.block(b.header.hash), b);
    assert.deepEqual(
      blockPage(reopened, 0, { limit: 10 }).items.map((b) => b.payload),
      blocks.map((b) => b.payload),
    );
    reopened.close();
    // The blocks stored before the upgrade keep their bytes in the table; the two after it are
    // in the log.
    const size = encodePayloadWithOutputsBinary(blocks[3]!.payload).length;
    assert.deepEqual(
      logRows(path).map(([chain, offset, length, bytes]) => [chain, offset, length, bytes > 0]),
      [
        [null, null, null, true],
        [null, null, null, true],
        [null, null, null, true],
        [0, 0, size, false],
        [0, size, size, false],
      ],
    );
    const check = new Database(path, { readonly: true });
    assert.equal(check.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get(), "4");
    check.close();
  });

  it("refuses to open a file of another network version", () => {
    const path = join(dir, "dev.sqlite");
    new ChainDatabase(path, DEVELOPMENT).close();
    assert.throws(() => new ChainDatabase(path, MAINNET01), {
      message: `chain database ${path} has version "development", expected "mainnet01"`,
    });
  });
});
