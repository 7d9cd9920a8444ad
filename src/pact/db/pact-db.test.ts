/**
 * One suite, run on every backend: the memory store and SQLite (in memory; the file-specific
 * behaviour is in sqlite-store.test.ts).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../values/decimal.ts";
import type { KeySet, ModuleName, PactObject, PactValue } from "../values/types.ts";
import { DbError } from "./errors.ts";
import { openMemoryPactDb, openSqlitePactDb, userTableName } from "./index.ts";
import type { TxLogEntry, VersionedPactDb } from "./types.ts";

const backends: Array<[string, () => VersionedPactDb]> = [
  ["memory", openMemoryPactDb],
  ["sqlite", () => openSqlitePactDb(":memory:")],
];

const COIN: ModuleName = { namespace: null, name: "coin" };
const TOKEN: ModuleName = { namespace: "free", name: "token" };
const ACCOUNTS = "coin_accounts";

function row(fields: Record<string, PactValue>): PactObject {
  return new Map(Object.entries(fields));
}

function dec(text: string): Decimal {
  return Decimal.read(text) as Decimal;
}

/** A row as plain data, so assertions compare field values and not Map identity. */
function plain(r: PactObject | null): Record<string, PactValue> | null {
  return r === null ? null : Object.fromEntries([...r].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** A tx log with its values in hex, to compare with the bytes Pact 5 stores (stored-bytes.ts). */
function hexLog(log: readonly TxLogEntry[]): { domain: string; key: string; value: string }[] {
  return log.map(({ domain, key, value }) => ({ domain, key, value: hex(value) }));
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

/** The hex of a text's UTF-8 bytes. */
function textHex(text: string): string {
  return hex(new TextEncoder().encode(text));
}

function dbError(code: string, message: string, onChainMessage?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof DbError, `expected a DbError, got ${String(error)}`);
    assert.equal(error.code, code);
    assert.equal(error.message, message);
    if (onChainMessage !== undefined) assert.equal(error.onChainMessage, onChainMessage);
    return true;
  };
}

/** A database with the accounts table created (outside any transaction). */
function withAccounts(open: () => VersionedPactDb): VersionedPactDb {
  const db = open();
  db.createTable(COIN, "accounts");
  return db;
}

for (const [backend, open] of backends) {
  describe(`pact db (${backend}): tables`, () => {
    it("names user tables <module>_<table>", () => {
      assert.equal(userTableName(COIN, "accounts"), "coin_accounts");
      assert.equal(userTableName(TOKEN, "ledger"), "free.token_ledger");
    });

    it("creates a table once; a second create fails with Pact's texts", () => {
      const db = open();
      assert.equal(db.tableExists(ACCOUNTS), false);
      db.createTable(COIN, "accounts");
      assert.equal(db.tableExists(ACCOUNTS), true);
      assert.deepEqual(db.rowKeys(ACCOUNTS), []);
      assert.throws(
        () => db.createTable(COIN, "accounts"),
        dbError(
          "table-exists",
          "Table coin_accounts already exists",
          "Creation of user table coin_accounts failed because the table already exists.",
        ),
      );
      db.close();
    });

    it("refuses every row operation on a table that does not exist", () => {
      const db = open();
      const missing = dbError(
        "no-such-table",
        "Table coin_nope not found",
        "Table access failed because table coin_nope was not found.",
      );
      assert.throws(() => db.readRow("coin_nope", "k"), missing);
      assert.throws(() => db.rowKeys("coin_nope"), missing);
      assert.throws(() => db.rows("coin_nope"), missing);
      assert.throws(() => db.writeRow("write", "coin_nope", "k", row({ a: true })), missing);
      db.close();
    });
  });

  describe(`pact db (${backend}): insert, update, write`, () => {
    it("inserts a new row and reads it back with exact values", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "alice", row({ balance: dec("10.5"), n: 3n, ok: true }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "alice")), {
        balance: dec("10.5"),
        n: 3n,
        ok: true,
      });
      assert.equal(db.readRow(ACCOUNTS, "bob"), null);
      db.close();
    });

    it("fails to insert over an existing row and leaves it unchanged", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "alice", row({ balance: 1n }));
      assert.throws(
        () => db.writeRow("insert", ACCOUNTS, "alice", row({ balance: 2n })),
        dbError(
          "row-exists",
          'Value already found while in Insert mode in table coin_accounts at key "alice"',
          'Insert failed because the value already exists in the table: coin_accounts at key "alice"',
        ),
      );
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "alice")), { balance: 1n });
      db.close();
    });

    it("cuts long keys to 10 code points in on-chain messages", () => {
      const db = withAccounts(open);
      const key = "k:😀😀😀😀😀😀😀😀😀😀😀";
      assert.throws(
        () => db.writeRow("update", ACCOUNTS, key, row({ balance: 2n })),
        dbError(
          "row-missing",
          `No row found during update in table coin_accounts at key ${key}`,
          'Update failed because no row was found in table: coin_accounts at key "k:😀😀😀😀😀😀😀😀..."',
        ),
      );
      db.close();
    });

    it("updates only the given fields and keeps the others", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "alice", row({ balance: 1n, guard: "g" }));
      db.writeRow("update", ACCOUNTS, "alice", row({ balance: 5n }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "alice")), { balance: 5n, guard: "g" });
      db.close();
    });

    it("writes a missing row, and merges into an existing one", () => {
      const db = withAccounts(open);
      db.writeRow("write", ACCOUNTS, "bob", row({ balance: 1n, guard: "g" }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "bob")), { balance: 1n, guard: "g" });
      db.writeRow("write", ACCOUNTS, "bob", row({ balance: 7n, extra: "x" }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "bob")), { balance: 7n, extra: "x", guard: "g" });
      db.close();
    });

    it("keeps a row whose fields look like a keyset a row", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "k", row({ keys: ["ab"], pred: "keys-all" }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "k")), { keys: ["ab"], pred: "keys-all" });
      db.close();
    });
  });

  describe(`pact db (${backend}): keys and rows`, () => {
    it("lists keys in ascending code-point order", () => {
      const db = withAccounts(open);
      // UTF-16 order would put the emoji (a surrogate pair) before U+FFFD.
      for (const key of ["b", "😀", "a", "\uFFFD", "B", "aa", "é", "", "a\u0000"])
        db.writeRow("write", ACCOUNTS, key, row({ v: key }));
      const expected = ["", "B", "a", "a\u0000", "aa", "b", "é", "\uFFFD", "😀"];
      assert.deepEqual(db.rowKeys(ACCOUNTS), expected);
      assert.deepEqual(
        db.rows(ACCOUNTS).map(([key, r]) => [key, r.get("v")]),
        expected.map((key) => [key, key]),
      );
      db.close();
    });

    it("keeps tables apart", () => {
      const db = withAccounts(open);
      db.createTable(TOKEN, "ledger");
      db.writeRow("insert", ACCOUNTS, "a", row({ v: 1n }));
      db.writeRow("insert", "free.token_ledger", "b", row({ v: 2n }));
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["a"]);
      assert.deepEqual(db.rowKeys("free.token_ledger"), ["b"]);
      assert.equal(db.readRow(ACCOUNTS, "b"), null);
      db.close();
    });

    it("stores large keys and values", () => {
      const db = withAccounts(open);
      const key = "k".repeat(100_000);
      const text = "é".repeat(1_000_000);
      db.writeRow("insert", ACCOUNTS, key, row({ text }));
      assert.equal(db.readRow(ACCOUNTS, key)?.get("text"), text);
      assert.deepEqual(db.rowKeys(ACCOUNTS), [key]);
      db.close();
    });

    it("treats SQL in table names and keys as plain text", () => {
      const db = open();
      const evil = "x'); DROP TABLE history; --";
      db.createTable({ namespace: null, name: "m" }, evil);
      const table = `m_${evil}`;
      const key = "'; DELETE FROM history; --";
      db.writeRow("insert", table, key, row({ v: "1' OR '1'='1" }));
      db.writeRow("insert", table, "other", row({ v: "2" }));
      assert.deepEqual(db.rowKeys(table), [key, "other"]);
      assert.equal(db.readRow(table, key)?.get("v"), "1' OR '1'='1");
      assert.equal(db.readRow(table, "' OR '1'='1"), null);
      assert.equal(db.tableExists("m_x' OR '1'='1"), false);
      db.close();
    });
  });

  describe(`pact db (${backend}): system domains`, () => {
    const keySet: KeySet = { kind: "keyset", keys: ["ab12", "cd34"], pred: "keys-any" };

    it("stores modules, keysets, namespaces and defpact state", () => {
      const db = open();
      db.writeModule("free.token", { hash: "h1", code: '{"defs":[]}' }, null);
      db.writeModule("coin", { hash: "h0", code: "c" }, null);
      db.writeKeySet("free.admin", keySet);
      db.writeNamespace({
        name: "free",
        user: keySet,
        admin: { kind: "keyset-ref", namespace: null, name: "ns-admin" },
      });
      db.writeDefPact("pid-1", '{"step":0}');
      db.writeDefPact("pid-1", "null");

      assert.deepEqual(db.readModule("free.token"), { hash: "h1", code: '{"defs":[]}' });
      assert.deepEqual(db.moduleNames(), ["coin", "free.token"]);
      assert.equal(db.readModule("nope"), null);
      assert.deepEqual(db.readKeySet("free.admin"), keySet);
      assert.deepEqual(db.keySetNames(), ["free.admin"]);
      assert.deepEqual(db.readNamespace("free"), {
        name: "free",
        user: keySet,
        admin: { kind: "keyset-ref", namespace: null, name: "ns-admin" },
      });
      assert.deepEqual(db.namespaceNames(), ["free"]);
      assert.equal(db.readDefPact("pid-1"), "null");
      assert.deepEqual(db.defPactIds(), ["pid-1"]);
      assert.equal(db.readDefPact("pid-2"), null);
      db.close();
    });

    it("logs system writes under Pact's domain names", () => {
      const db = open();
      db.beginTx();
      db.writeKeySet("ks", keySet);
      db.writeModule("m", { hash: "h", code: "c" }, { source: "(module m g)", pactData: null });
      db.writeNamespace({ name: "ns", user: keySet, admin: keySet });
      db.writeDefPact("p", "null");
      // Pact 5's document: version 0, then the CBOR as a byte string. The keyset: [keys, pred],
      // the keys a sorted set, keys-any tag 2.
      const ks = "8282646162313264636433348102";
      assert.deepEqual(hexLog(db.commitTx()), [
        { domain: "SYS:KeySets", key: "ks", value: `004e${ks}` },
        { domain: "SYS:Modules", key: "m", value: textHex('{"hash":"h","code":"c"}') },
        { domain: "SYS:ModuleSources", key: "m{h}", value: `004c${textHex("(module m g)")}` },
        // [name, user guard, admin guard], each guard [0 (a keyset), keyset]
        { domain: "SYS:Namespaces", key: "ns", value: `00582483626e738200${ks}8200${ks}` },
        { domain: "SYS:Pacts", key: "p", value: textHex("null") },
      ]);
      db.close();
    });
  });

  describe(`pact db (${backend}): transactions`, () => {
    it("returns the tx log on commit and moves to the next tx id", () => {
      const db = open();
      assert.equal(db.beginTx(), 0);
      assert.equal(db.inTx, true);
      db.createTable(TOKEN, "ledger");
      db.writeRow("insert", "free.token_ledger", "a", row({ balance: 1n }));
      db.writeRow("update", "free.token_ledger", "a", row({ balance: dec("2.5") }));
      assert.deepEqual(hexLog(db.commitTx()), [
        {
          domain: "SYS:usertables",
          key: "ledger",
          value: textHex('{"utModule":{"namespace":"free","name":"token"}}'),
        },
        // {"balance": PLiteral (LInteger 1)}, then PLiteral (LDecimal (Decimal 1 25))
        { domain: "free.token_ledger", key: "a", value: "004ea16762616c616e63658200820101" },
        { domain: "free.token_ledger", key: "a", value: "0051a16762616c616e63658200820282011819" },
      ]);
      assert.equal(db.inTx, false);
      assert.equal(db.txId, 1);
      assert.equal(db.beginTx(), 1);
      assert.deepEqual(db.commitTx(), []);
      assert.equal(db.txId, 2);
      db.close();
    });

    it("rolls back every write of a transaction, tables included, and keeps the tx id", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "kept", row({ v: 1n }));
      db.beginTx();
      db.writeRow("update", ACCOUNTS, "kept", row({ v: 2n }));
      db.writeRow("insert", ACCOUNTS, "new", row({ v: 3n }));
      db.createTable(TOKEN, "ledger");
      db.writeRow("insert", "free.token_ledger", "x", row({ v: 4n }));
      db.writeKeySet("ks", { kind: "keyset", keys: [], pred: "keys-all" });
      assert.throws(() => db.writeRow("insert", ACCOUNTS, "kept", row({ v: 0n })), DbError);
      db.rollbackTx();
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "kept")), { v: 1n });
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["kept"]);
      assert.equal(db.tableExists("free.token_ledger"), false);
      assert.equal(db.readKeySet("ks"), null);
      assert.equal(db.txId, 0);
      // The table can be created again after the rollback.
      db.createTable(TOKEN, "ledger");
      assert.deepEqual(db.rowKeys("free.token_ledger"), []);
      db.close();
    });

    it("runs a local transaction and then discards it", () => {
      const db = withAccounts(open);
      assert.equal(db.beginTx("local"), 0);
      db.writeRow("insert", ACCOUNTS, "a", row({ v: 1n }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "a")), { v: 1n });
      assert.deepEqual(hexLog(db.commitTx()), [
        { domain: "coin_accounts", key: "a", value: "0048a161768200820101" },
      ]);
      assert.equal(db.readRow(ACCOUNTS, "a"), null);
      assert.equal(db.txId, 0);
      db.close();
    });

    it("applies writes outside a transaction at once, without a log", () => {
      const db = withAccounts(open);
      db.writeRow("insert", ACCOUNTS, "a", row({ v: 1n }));
      assert.equal(db.txId, 0);
      db.beginTx();
      assert.deepEqual(db.commitTx(), []);
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "a")), { v: 1n });
      db.close();
    });

    it("reports transaction misuse with Pact's texts", () => {
      const db = open();
      assert.throws(
        () => db.commitTx(),
        dbError(
          "not-in-tx",
          'No Transaction currently in progress, cannot execute "commit"',
          "Cannot execute commit because no transaction is currently in progress.",
        ),
      );
      assert.throws(
        () => db.rollbackTx(),
        dbError("not-in-tx", 'No Transaction currently in progress, cannot execute "rollback"'),
      );
      db.beginTx();
      assert.throws(
        () => db.beginTx(),
        dbError(
          "tx-already-begun",
          'Attempted to begin tx "TxId 0", but a tx already has been initiated',
          "Starting a new transaction failed because a transaction has already been initiated.",
        ),
      );
      db.rollbackTx();
      db.close();
    });
  });

  describe(`pact db (${backend}): blocks`, () => {
    it("keeps the writes of the good commands of a block and none of a failed one", () => {
      const db = withAccounts(open);
      db.beginBlock(1);
      assert.equal(db.blockHeight, 1);
      assert.equal(db.beginTx(), 0);
      db.writeRow("insert", ACCOUNTS, "a", row({ v: 1n }));
      db.commitTx();
      assert.equal(db.beginTx(), 1);
      db.writeRow("insert", ACCOUNTS, "b", row({ v: 2n }));
      db.writeRow("update", ACCOUNTS, "a", row({ v: 99n }));
      assert.throws(() => db.writeRow("update", ACCOUNTS, "zz", row({ v: 0n })), DbError);
      db.rollbackTx();
      assert.equal(db.beginTx(), 1);
      db.writeRow("insert", ACCOUNTS, "c", row({ v: 3n }));
      db.commitTx();
      const block = db.commitBlock(new Uint8Array([7, 8]));
      assert.deepEqual(block, { height: 1, endTxId: 2, hash: new Uint8Array([7, 8]) });
      assert.deepEqual(db.latestBlock(), block);
      assert.deepEqual(db.blockAt(1), block);
      assert.equal(db.blockAt(2), null);
      assert.equal(db.blockHeight, null);
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["a", "c"]);
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "a")), { v: 1n });
      assert.equal(db.txId, 2);
      db.close();
    });

    it("discards an aborted block and its transaction ids", () => {
      const db = withAccounts(open);
      db.beginBlock(5);
      db.beginTx();
      db.writeRow("insert", ACCOUNTS, "a", row({ v: 1n }));
      db.commitTx();
      db.beginTx();
      db.writeRow("insert", ACCOUNTS, "b", row({ v: 1n }));
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "b")), { v: 1n });
      db.abortBlock();
      assert.deepEqual(db.rowKeys(ACCOUNTS), []);
      assert.equal(db.readRow(ACCOUNTS, "a"), null);
      assert.equal(db.readRow(ACCOUNTS, "b"), null);
      assert.equal(db.txId, 0);
      assert.equal(db.inTx, false);
      assert.equal(db.latestBlock(), null);
      db.beginBlock(5);
      db.commitBlock();
      assert.deepEqual(db.latestBlock(), { height: 5, endTxId: 0, hash: new Uint8Array(0) });
      db.close();
    });

    it("enforces the block sequence", () => {
      const db = open();
      assert.throws(() => db.commitBlock(), dbError("block-sequence", "no block is open"));
      assert.throws(() => db.abortBlock(), dbError("block-sequence", "no block is open"));
      db.beginBlock(10);
      assert.throws(() => db.beginBlock(11), dbError("block-sequence", "block 10 is still open"));
      db.beginTx();
      assert.throws(
        () => db.commitBlock(),
        dbError("block-sequence", "a transaction of block 10 is open"),
      );
      db.commitTx();
      db.commitBlock();
      assert.throws(
        () => db.beginBlock(12),
        dbError("block-sequence", "block 12 does not follow the latest block 10; rewind first"),
      );
      db.beginTx();
      assert.throws(
        () => db.beginBlock(11),
        dbError("block-sequence", "a transaction is open outside any block"),
      );
      assert.throws(
        () => db.rewindTo(10),
        dbError("block-sequence", "cannot rewind while a block or transaction is open"),
      );
      db.rollbackTx();
      db.close();
    });
  });

  describe(`pact db (${backend}): versions`, () => {
    /** Three blocks: 1 creates and fills accounts, 2 changes them, 3 adds a table. */
    function history(): VersionedPactDb {
      const db = open();
      db.beginBlock(1);
      db.beginTx();
      db.createTable(COIN, "accounts");
      db.writeRow("insert", ACCOUNTS, "alice", row({ balance: 10n }));
      db.writeKeySet("ks", { kind: "keyset", keys: ["aa"], pred: "keys-all" });
      db.commitTx();
      db.commitBlock();
      db.beginBlock(2);
      db.beginTx();
      db.writeRow("update", ACCOUNTS, "alice", row({ balance: 20n }));
      db.writeRow("insert", ACCOUNTS, "bob", row({ balance: 1n }));
      db.commitTx();
      db.beginTx();
      db.writeRow("update", ACCOUNTS, "alice", row({ balance: 25n }));
      db.writeKeySet("ks", { kind: "keyset", keys: ["bb"], pred: "keys-all" });
      db.commitTx();
      db.commitBlock();
      db.beginBlock(3);
      db.beginTx();
      db.createTable(TOKEN, "ledger");
      db.writeRow("insert", "free.token_ledger", "x", row({ v: 1n }));
      db.writeRow("write", ACCOUNTS, "carol", row({ balance: 3n }));
      db.commitTx();
      db.commitBlock();
      return db;
    }

    it("reads the state as of each earlier block", () => {
      const db = history();
      const at1 = db.asOf(1);
      assert.deepEqual(plain(at1.readRow(ACCOUNTS, "alice")), { balance: 10n });
      assert.equal(at1.readRow(ACCOUNTS, "bob"), null);
      assert.deepEqual(at1.rowKeys(ACCOUNTS), ["alice"]);
      assert.deepEqual(at1.readKeySet("ks")?.keys, ["aa"]);
      assert.equal(at1.tableExists("free.token_ledger"), false);
      assert.throws(() => at1.readRow("free.token_ledger", "x"), DbError);

      const at2 = db.asOf(2);
      assert.deepEqual(plain(at2.readRow(ACCOUNTS, "alice")), { balance: 25n });
      assert.deepEqual(
        at2.rows(ACCOUNTS).map(([key, r]) => [key, r.get("balance")]),
        [
          ["alice", 25n],
          ["bob", 1n],
        ],
      );
      assert.deepEqual(at2.readKeySet("ks")?.keys, ["bb"]);

      const at3 = db.asOf(3);
      assert.deepEqual(at3.rowKeys(ACCOUNTS), ["alice", "bob", "carol"]);
      assert.deepEqual(at3.rowKeys("free.token_ledger"), ["x"]);
      assert.throws(
        () => db.asOf(4),
        dbError("no-such-block", "no state is recorded for block height 4"),
      );
      db.close();
    });

    it("rewinds to an earlier block and builds another fork on it", () => {
      const db = history();
      assert.equal(db.txId, 4);
      db.rewindTo(1);
      assert.deepEqual(db.latestBlock(), { height: 1, endTxId: 1, hash: new Uint8Array(0) });
      assert.equal(db.blockAt(2), null);
      assert.equal(db.txId, 1);
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "alice")), { balance: 10n });
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["alice"]);
      assert.deepEqual(db.readKeySet("ks")?.keys, ["aa"]);
      assert.equal(db.tableExists("free.token_ledger"), false);

      db.beginBlock(2);
      assert.equal(db.beginTx(), 1);
      db.createTable(TOKEN, "ledger");
      db.writeRow("insert", ACCOUNTS, "dave", row({ balance: 5n }));
      db.commitTx();
      db.commitBlock(new Uint8Array([2]));
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["alice", "dave"]);
      assert.deepEqual(db.rowKeys("free.token_ledger"), []);
      assert.deepEqual(db.asOf(1).rowKeys(ACCOUNTS), ["alice"]);
      assert.throws(
        () => db.rewindTo(7),
        dbError("no-such-block", "no state is recorded for block height 7"),
      );
      db.close();
    });

    it("rewinding to the latest block drops writes made after it", () => {
      const db = history();
      db.writeRow("insert", ACCOUNTS, "late", row({ balance: 0n }));
      db.rewindTo(3);
      assert.deepEqual(db.rowKeys(ACCOUNTS), ["alice", "bob", "carol"]);
      db.close();
    });

    it("runs scratch work on an earlier state without touching the database", () => {
      const db = history();
      const scratch = db.scratchAt(1);
      assert.equal(scratch.txId, 1);
      assert.deepEqual(scratch.rowKeys(ACCOUNTS), ["alice"]);
      scratch.beginTx();
      scratch.writeRow("update", ACCOUNTS, "alice", row({ balance: 11n }));
      scratch.writeRow("insert", ACCOUNTS, "zed", row({ balance: 1n }));
      scratch.createTable(TOKEN, "ledger");
      assert.deepEqual(hexLog(scratch.commitTx()), [
        { domain: "coin_accounts", key: "alice", value: "004ea16762616c616e6365820082010b" },
        { domain: "coin_accounts", key: "zed", value: "004ea16762616c616e63658200820101" },
        {
          domain: "SYS:usertables",
          key: "ledger",
          value: textHex('{"utModule":{"namespace":"free","name":"token"}}'),
        },
      ]);
      assert.deepEqual(scratch.rowKeys(ACCOUNTS), ["alice", "zed"]);
      assert.deepEqual(plain(scratch.readRow(ACCOUNTS, "alice")), { balance: 11n });
      scratch.beginTx();
      scratch.writeRow("insert", ACCOUNTS, "amy", row({ balance: 1n }));
      scratch.rollbackTx();
      assert.deepEqual(scratch.rowKeys(ACCOUNTS), ["alice", "zed"]);

      assert.deepEqual(db.rowKeys(ACCOUNTS), ["alice", "bob", "carol"]);
      assert.deepEqual(plain(db.readRow(ACCOUNTS, "alice")), { balance: 25n });
      assert.deepEqual(db.rowKeys("free.token_ledger"), ["x"]);
      db.close();
    });
  });
}
