import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { encodePayloadWithOutputsBinary } from "../payload/binary.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../payload/constants.ts";
import { makePayloadWithOutputs } from "../payload/payload.ts";
import { childBlock, testGenesis } from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { blockActivity } from "./activity.ts";
import { ChainDatabase } from "./chain-database.ts";
import { ExplorerIndexes } from "./explorer-indexes.ts";

const utf8 = (text: string) => new TextEncoder().encode(text);
const KEY_A = "a".repeat(43);
const KEY_B = "b".repeat(43);

const transferEvent = (from: string, to: string, amount: string) =>
  `{"params":[${JSON.stringify(from)},${JSON.stringify(to)},${amount}],"name":"TRANSFER","module":{"namespace":null,"name":"coin"},"moduleHash":"h"}`;

/** A block with an exec command that moved coins and a `cont` continuing the defpact KEY_A. */
const payload = makePayloadWithOutputs(
  [
    {
      transaction: utf8(
        `{"hash":"${KEY_A}","sigs":[],"cmd":${JSON.stringify('{"payload":{"exec":{"code":"x","data":{}}}}')}}`,
      ),
      output: utf8(
        `{"gas":10,"result":{"status":"success","data":"Write succeeded"},"reqKey":"${KEY_A}","logs":null,"events":[${transferEvent("alice", "bob", '{"decimal":"1.5"}')},${transferEvent("alice", "miner", "0.0001")},{"params":["alice"],"name":"TRANSFER","module":{"namespace":"free","name":"coin"},"moduleHash":"h"}],"metaData":null,"continuation":null,"txId":1}`,
      ),
    },
    {
      transaction: utf8(
        `{"hash":"${KEY_B}","sigs":[],"cmd":${JSON.stringify(`{"payload":{"cont":{"pactId":"${KEY_A}","step":1,"rollback":false,"data":{},"proof":"p"}}}`)}}`,
      ),
      output: utf8(
        `{"gas":10,"result":{"status":"success","data":"ok"},"reqKey":"${KEY_B}","logs":null,"events":[${transferEvent("", "bob", "2.0")}],"metaData":null,"continuation":null,"txId":2}`,
      ),
    },
  ],
  NO_MINER_DATA,
  NO_COINBASE_OUTPUT,
);

describe("block activity: transfers and continuations of a payload", () => {
  it("finds each coin.TRANSFER once per non-empty account, and each cont with its pact id", () => {
    const activity = blockActivity(payload);
    assert.deepEqual(
      activity.transfers.map((t) => [t.account, t.requestKey, t.position, t.event, t.amount]),
      [
        ["alice", KEY_A, 0, 0, '{"decimal":"1.5"}'],
        ["bob", KEY_A, 0, 0, '{"decimal":"1.5"}'],
        ["alice", KEY_A, 0, 1, "0.0001"],
        ["miner", KEY_A, 0, 1, "0.0001"],
        ["bob", KEY_B, 1, 0, "2"],
      ],
    );
    assert.deepEqual(activity.continuations, [
      { pactId: KEY_A, requestKey: KEY_B, position: 1, step: 1 },
    ]);
  });

  it("finds nothing in transactions that are not commands", () => {
    const genesis = testGenesis(0);
    assert.deepEqual(blockActivity(genesis.payload), { transfers: [], continuations: [] });
    const madeUp = makePayloadWithOutputs(
      [{ transaction: utf8("not json"), output: utf8('{"events":"no"}') }],
      NO_MINER_DATA,
      NO_COINBASE_OUTPUT,
    );
    assert.deepEqual(blockActivity(madeUp), { transfers: [], continuations: [] });
  });
});

describe("chain database: transfer and continuation indexes", () => {
  const genesis = testGenesis(0);
  const block = childBlock(genesis.header, { payload });

  it("answers an account's transfers newest first and a defpact's continuations", () => {
    const indexes = new ExplorerIndexes();
    const db = new ChainDatabase(":memory:", DEVELOPMENT, { indexers: [indexes] });
    db.insertBlocks([genesis, block]);
    assert.deepEqual(
      indexes.recentTransfers("bob", 10).map((t) => [t.chainId, t.height, t.requestKey, t.sender]),
      [
        [0, 1, KEY_B, ""],
        [0, 1, KEY_A, "alice"],
      ],
    );
    assert.equal(indexes.recentTransfers("bob", 1).length, 1);
    assert.deepEqual(indexes.recentTransfers("nobody", 10), []);
    assert.deepEqual(
      indexes.continuations(KEY_A, 10).map((c) => [c.chainId, c.step, c.requestKey]),
      [[0, 1, KEY_B]],
    );
    db.close();
  });

  it("upgrades a data directory of schema 2: payload ids, then the indexes", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-upgrade-"));
    try {
      const path = join(dir, "chain.sqlite");
      const db = new ChainDatabase(path, DEVELOPMENT, { indexers: [new ExplorerIndexes()] });
      db.insertBlocks([genesis, block]);
      db.close();
      // What a schema-2 node left: no activity tables, payloads in the table found by their
      // hash alone, no payload logs.
      const raw = new Database(path);
      raw.exec(`DROP TABLE transfers; DROP TABLE continuations;
        CREATE TABLE payloads_v2 (payload_hash BLOB PRIMARY KEY, bytes BLOB NOT NULL);
        DROP TABLE payloads; ALTER TABLE payloads_v2 RENAME TO payloads;
        ALTER TABLE block_headers DROP COLUMN payload_id;`);
      const insert = raw.prepare("INSERT INTO payloads (payload_hash, bytes) VALUES (?, ?)");
      for (const b of [block, genesis]) {
        insert.run(b.payload.payloadHash, encodePayloadWithOutputsBinary(b.payload));
      }
      raw.prepare("UPDATE meta SET value = '2' WHERE key = 'schema'").run();
      raw.close();
      rmSync(`${path}-payloads`, { recursive: true });
      const refilled = new ExplorerIndexes();
      const reopened = new ChainDatabase(path, DEVELOPMENT, { indexers: [refilled] });
      assert.deepEqual(reopened.block(block.header.hash)?.payload, block.payload);
      assert.deepEqual(reopened.block(genesis.header.hash)?.payload, genesis.payload);
      assert.equal(refilled.recentTransfers("alice", 10).length, 2);
      assert.equal(refilled.continuations(KEY_A, 10).length, 1);
      reopened.close();
      const check = new Database(path);
      assert.equal(check.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get(), "5");
      check.exec("UPDATE meta SET value = '1' WHERE key = 'schema'");
      check.close();
      assert.throws(() => new ChainDatabase(path, DEVELOPMENT), {
        message: `chain database ${path} has schema "1", expected "5"`,
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
