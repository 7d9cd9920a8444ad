import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { encodeBase64Url } from "../../crypto/index.ts";
import { encodePayloadWithOutputsBinary } from "../payload/binary.ts";
import {
  childBlock,
  EMPTY_PAYLOAD,
  namedForkedChain,
  payloadWithTransaction,
  testGenesis,
} from "../test-support/history.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import { CHAIN_CHECKPOINT_BLOCKS, ChainDatabase } from "./chain-database.ts";
import { blockPage, HEADER_ITEMS } from "./pages.ts";

const { history, block, hash, names } = namedForkedChain();

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

  it("takes the parent's link from its caller when it names the header's parent, and looks it up otherwise", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    db.insertBlocks([block("G"), block("A1")]);
    // The link of a parent whose hash is not the header's parent is not taken: A2's is looked up.
    assert.equal(db.insertBlocks([{ ...block("A2"), parent: block("G").header }]), 1);
    // A held link is taken as it is: the caller vouches that its header is stored (here it is
    // not, and A4 is stored over it; only the importer passes one, its chain's head).
    assert.equal(db.insertBlocks([{ ...block("A4"), parent: block("A3").header }]), 1);
    assert.equal(db.header(hash("A3")), undefined);
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

  it("never writes the bytes a refused batch appended: the next batch's go where they would have", () => {
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
    // The refused batch's copy of `first` was held, then dropped with the batch.
    assert.deepEqual(
      logRows(path).map(([, offset]) => offset),
      [0, g!, g! + f!],
    );
    assert.equal(statSync(`${path}-payloads/0.log`).size, g! + 2 * f!);
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
    assert.equal(check.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get(), "5");
    check.close();
  });

  /** Overwrites `bytes` at `offset` of chain 0's payload log of the database at `path`. */
  const damageLog = (path: string, offset: number, bytes: string) => {
    const file = join(`${path}-payloads`, "0.log");
    const log = readFileSync(file);
    log.write(bytes, offset);
    writeFileSync(file, log);
  };

  it("refuses payload bytes changed on the disk, every time, telling its opener once", () => {
    const path = join(dir, "damaged.sqlite");
    const blocks = distinctPayloads(3);
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks(blocks);
    db.close();
    const [, offset, length] = logRows(path)[2]!;
    damageLog(path, offset + 20, "XXXXXXXX");
    const told: string[] = [];
    const reopened = new ChainDatabase(path, DEVELOPMENT, {
      onCorruption: (e) => told.push(e.message),
    });
    const message = `the stored payload at ${offset}..${offset + length} of chain 0's payload log is corrupted (their checksum does not match): the data directory is damaged; restore it from a backup`;
    const damaged = blocks[2]!;
    assert.throws(() => reopened.block(damaged.header.hash), {
      name: "CorruptPayloadError",
      message,
    });
    assert.throws(() => reopened.payload(damaged.payload.payloadHash), { message });
    assert.throws(() => reopened.commandOutput(damaged.header.hash, 0), { message });
    assert.throws(() => blockPage(reopened, 0, { limit: 10 }), { message });
    assert.deepEqual(told, [message]);
    // Header pages read no payload: they are whole.
    assert.deepEqual(
      blockPage(reopened, 0, { limit: 10 }, HEADER_ITEMS).items,
      blocks.slice(0, 10).map((b) => b.header),
    );
    // The blocks around it are whole.
    assert.deepEqual(reopened.block(blocks[1]!.header.hash), blocks[1]);
    assert.deepEqual(reopened.block(blocks[3]!.header.hash), blocks[3]);
    reopened.close();
  });

  it("reads a file of schema 4, checking its log rows without checksums by their payload hashes", () => {
    const path = join(dir, "schema4.sqlite");
    const blocks = distinctPayloads(4);
    const db = new ChainDatabase(path, DEVELOPMENT);
    db.insertBlocks(blocks.slice(0, 4));
    db.close();
    // What a schema-4 node left: log rows without checksums.
    const raw = new Database(path);
    raw.exec(`ALTER TABLE payloads DROP COLUMN log_crc;
      UPDATE meta SET value = '4' WHERE key = 'schema';`);
    raw.close();
    const [, offset, length] = logRows(path)[3]!;
    damageLog(path, offset + 20, "XXXXXXXX");

    const upgraded = new ChainDatabase(path, DEVELOPMENT);
    for (const b of blocks.slice(0, 3)) assert.deepEqual(upgraded.block(b.header.hash), b);
    assert.throws(() => upgraded.block(blocks[3]!.header.hash), {
      name: "CorruptPayloadError",
      message: new RegExp(
        `^the stored payload at ${offset}\\.\\.${offset + length} of chain 0's payload log is corrupted \\(they do not (match|decode)`,
      ),
    });
    upgraded.insertBlocks([blocks[4]!]);
    upgraded.close();
    const check = new Database(path, { readonly: true });
    assert.deepEqual(
      check.prepare("SELECT log_crc IS NOT NULL FROM payloads ORDER BY log_offset").pluck().all(),
      [0, 0, 0, 0, 1],
    );
    assert.equal(check.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get(), "5");
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
