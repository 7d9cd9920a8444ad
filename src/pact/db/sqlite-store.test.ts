import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { openSqlitePactDb, type VersionedPactDb } from "./index.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-pact-db-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const COIN = { namespace: null, name: "coin" };

describe("sqlite pact db: files", () => {
  it("finds tables, rows, blocks, versions and the tx counter after reopening", () => {
    const path = join(dir, "reopen.sqlite");
    const first = openSqlitePactDb(path);
    first.beginBlock(1);
    first.beginTx();
    first.createTable(COIN, "accounts");
    first.writeRow("insert", "coin_accounts", "alice", new Map([["balance", 10n]]));
    first.commitTx();
    first.commitBlock(new Uint8Array([1, 2, 3]));
    first.beginTx();
    first.writeRow("update", "coin_accounts", "alice", new Map([["balance", 20n]]));
    first.writeModule("coin", { hash: "h", code: "c" }, null);
    first.commitTx();
    first.close();

    const again = openSqlitePactDb(path);
    assert.equal(again.txId, 2);
    assert.deepEqual(again.latestBlock(), {
      height: 1,
      endTxId: 1,
      hash: new Uint8Array([1, 2, 3]),
    });
    assert.equal(again.tableExists("coin_accounts"), true);
    assert.equal(again.readRow("coin_accounts", "alice")?.get("balance"), 20n);
    assert.equal(again.asOf(1).readRow("coin_accounts", "alice")?.get("balance"), 10n);
    assert.deepEqual(again.readModule("coin"), { hash: "h", code: "c" });
    again.beginTx();
    assert.throws(() => again.createTable(COIN, "accounts"), { code: "table-exists" });
    again.rollbackTx();
    again.close();
  });

  it("uses WAL and applies configured pragmas", () => {
    const path = join(dir, "pragmas.sqlite");
    openSqlitePactDb(path, { pragmas: ["user_version = 7"] }).close();
    const raw = new Database(path, { readonly: true });
    assert.equal(raw.pragma("journal_mode", { simple: true }), "wal");
    assert.equal(raw.pragma("user_version", { simple: true }), 7);
    raw.close();
  });

  it("refuses a file of another schema version", () => {
    const path = join(dir, "version.sqlite");
    openSqlitePactDb(path).close();
    const raw = new Database(path);
    raw.prepare("UPDATE meta SET value = '99' WHERE key = 'schema_version'").run();
    raw.close();
    assert.throws(() => openSqlitePactDb(path), {
      message: `${path}: contract state schema version 99, expected 1`,
    });
  });

  it("reports a stored row that does not decode, naming its key", () => {
    const path = join(dir, "corrupt.sqlite");
    const db = openSqlitePactDb(path);
    db.createTable(COIN, "accounts");
    db.writeRow("insert", "coin_accounts", "alice", new Map([["balance", 10n]]));
    db.writeRow("insert", "coin_accounts", "bob", new Map([["balance", 10n]]));
    db.close();
    const raw = new Database(path);
    raw.prepare("UPDATE history SET value = '[1]' WHERE key = 'alice'").run();
    raw.prepare("UPDATE history SET value = '{\"balance\":' WHERE key = 'bob'").run();
    raw.close();
    const again = openSqlitePactDb(path);
    for (const key of ["alice", "bob"])
      assert.throws(() => again.readRow("coin_accounts", key), {
        code: "decode-failure",
        message: `Failed to deserialize but found value at key:${key}`,
        onChainMessage: `Deserialization failed for the value at key: ${key}`,
      });
    again.close();
  });

  it("never turns table names or keys into SQL tables", () => {
    const path = join(dir, "injection.sqlite");
    const db = openSqlitePactDb(path);
    db.createTable({ namespace: null, name: "m" }, 't"; DROP TABLE history; --');
    db.writeRow("insert", 'm_t"; DROP TABLE history; --', "x');--", new Map([["v", "1"]]));
    db.close();
    const raw = new Database(path, { readonly: true });
    const tables = raw
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    assert.deepEqual(tables, ["blocks", "domains", "history", "meta"]);
    assert.deepEqual(raw.prepare("SELECT key FROM history").pluck().all(), ["x');--"]);
    raw.close();
  });
});

describe("sqlite pact db: batched commits", () => {
  /** What another connection sees: the recorded block heights. */
  const heightsSeenFrom = (path: string) => {
    const other = new Database(path, { readonly: true });
    try {
      return other.prepare("SELECT height FROM blocks ORDER BY height").pluck().all();
    } finally {
      other.close();
    }
  };

  const writeBlock = (db: ReturnType<typeof openSqlitePactDb>, height: number, balance: bigint) => {
    db.beginBlock(height);
    db.beginTx();
    if (height === 1) db.createTable(COIN, "accounts");
    db.writeRow("write", "coin_accounts", "alice", new Map([["balance", balance]]));
    db.commitTx();
    db.commitBlock(new Uint8Array([height]));
  };

  it("keeps committed blocks in the file only from the next flush", () => {
    const path = join(dir, "batched.sqlite");
    const db = openSqlitePactDb(path, { batchCommits: true });
    writeBlock(db, 1, 10n);
    writeBlock(db, 2, 20n);
    assert.deepEqual(heightsSeenFrom(path), []);
    assert.equal(db.readRow("coin_accounts", "alice")?.get("balance"), 20n);
    db.flush();
    assert.deepEqual(heightsSeenFrom(path), [1, 2]);
    writeBlock(db, 3, 30n);
    db.close();
    assert.deepEqual(heightsSeenFrom(path), [1, 2, 3]);
  });

  it("aborts a block and rewinds inside the batch", () => {
    const path = join(dir, "batched-rewind.sqlite");
    const db = openSqlitePactDb(path, { batchCommits: true });
    writeBlock(db, 1, 10n);
    writeBlock(db, 2, 20n);
    db.beginBlock(3);
    db.beginTx();
    db.writeRow("write", "coin_accounts", "alice", new Map([["balance", 99n]]));
    db.commitTx();
    db.abortBlock();
    db.rewindTo(1);
    assert.equal(db.readRow("coin_accounts", "alice")?.get("balance"), 10n);
    db.flush();
    db.close();
    const again = openSqlitePactDb(path);
    assert.deepEqual(again.latestBlock(), { height: 1, endTxId: 1, hash: new Uint8Array([1]) });
    assert.equal(again.readRow("coin_accounts", "alice")?.get("balance"), 10n);
    again.close();
  });

  /** The connection under a state: to do what SQLite itself does after a failed write. */
  const connectionOf = (db: VersionedPactDb) =>
    (db as unknown as { versions: { db: Database.Database } }).versions.db;

  it("takes no write once SQLite threw its batch away, and recovers to what the file holds", () => {
    const path = join(dir, "batch-lost.sqlite");
    const db = openSqlitePactDb(path, { batchCommits: true });
    writeBlock(db, 1, 10n);
    db.flush();
    writeBlock(db, 2, 20n);
    // A full disk: SQLite rolls the whole transaction back, batched block 2 with it.
    connectionOf(db).exec("ROLLBACK");
    // A savepoint now would begin a new transaction, and block 3 would reach the file without 2.
    assert.throws(() => db.beginBlock(3), {
      name: "StateWriteLost",
      message:
        "the contract state's blocks since its last flush were rolled back by a failed write",
    });
    assert.throws(() => db.flush(), { name: "StateWriteLost" });
    assert.deepEqual(db.recover(), { height: 1, endTxId: 1, hash: new Uint8Array([1]) });
    assert.equal(db.readRow("coin_accounts", "alice")?.get("balance"), 10n);
    writeBlock(db, 2, 30n);
    db.close();
    const again = openSqlitePactDb(path);
    assert.deepEqual(again.latestBlock(), { height: 2, endTxId: 2, hash: new Uint8Array([2]) });
    assert.equal(again.readRow("coin_accounts", "alice")?.get("balance"), 30n);
    again.close();
  });

  it("recovers a block whose transaction SQLite threw away while it was open", () => {
    const path = join(dir, "block-lost.sqlite");
    const db = openSqlitePactDb(path, { batchCommits: true });
    writeBlock(db, 1, 10n);
    db.flush();
    db.beginBlock(2);
    db.beginTx();
    db.writeRow("write", "coin_accounts", "alice", new Map([["balance", 99n]]));
    connectionOf(db).exec("ROLLBACK");
    assert.throws(() => db.commitTx());
    assert.throws(() => db.abortBlock());
    assert.deepEqual(db.recover(), { height: 1, endTxId: 1, hash: new Uint8Array([1]) });
    assert.equal(db.blockHeight, null);
    assert.equal(db.readRow("coin_accounts", "alice")?.get("balance"), 10n);
    writeBlock(db, 2, 20n);
    db.close();
    const again = openSqlitePactDb(path);
    assert.equal(again.readRow("coin_accounts", "alice")?.get("balance"), 20n);
    again.close();
  });
});

describe("sqlite pact db: a reader's snapshot", () => {
  const writeBlock = (db: VersionedPactDb, height: number, balance: bigint) => {
    db.beginBlock(height);
    db.beginTx();
    if (height === 1) db.createTable(COIN, "accounts");
    db.writeRow("write", "coin_accounts", "alice", new Map([["balance", balance]]));
    db.writeModule("coin", { hash: `h${height}`, code: `c${height}` }, null);
    db.commitTx();
    db.commitBlock(new Uint8Array([height]));
  };

  it("holds the blocks it began with until it ends, whatever the writer commits meanwhile", () => {
    const path = join(dir, "snapshot.sqlite");
    const writer = openSqlitePactDb(path);
    writeBlock(writer, 1, 10n);
    const reader = openSqlitePactDb(path, { readOnly: true });
    reader.beginSnapshot();
    assert.equal(reader.blockAt(1)?.endTxId, 1);
    writeBlock(writer, 2, 20n);
    assert.equal(reader.blockAt(2), null);
    reader.endSnapshot();
    reader.endSnapshot();
    reader.beginSnapshot();
    assert.deepEqual(reader.blockAt(2), { height: 2, endTxId: 2, hash: new Uint8Array([2]) });
    reader.endSnapshot();
    reader.close();
    writer.close();
  });

  it("gives the scratch states made on one block's reads that block's state, each its own writes", () => {
    const path = join(dir, "block-reads.sqlite");
    const writer = openSqlitePactDb(path);
    writeBlock(writer, 1, 10n);
    writeBlock(writer, 2, 20n);
    const reader = openSqlitePactDb(path, { readOnly: true });
    reader.beginSnapshot();
    const reads = reader.blockReads(reader.blockAt(1)!);
    const first = reader.scratchOn(reads);
    assert.deepEqual(first.readModule("coin"), { hash: "h1", code: "c1" });
    first.beginTx();
    first.writeRow("update", "coin_accounts", "alice", new Map([["balance", 11n]]));
    first.commitTx();
    assert.equal(first.readRow("coin_accounts", "alice")?.get("balance"), 11n);
    const second = reader.scratchOn(reads);
    assert.equal(second.readRow("coin_accounts", "alice")?.get("balance"), 10n);
    assert.deepEqual(second.readModule("coin"), { hash: "h1", code: "c1" });
    assert.deepEqual(second.writes().rows, []);
    reader.endSnapshot();
    reader.close();
    writer.close();
  });
});
