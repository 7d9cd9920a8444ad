import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type Database from "better-sqlite3";
import { decodeBase64Url } from "../crypto/index.ts";
import { StorageUnavailable, type VersionedPactDb } from "../pact/db/index.ts";
import { JsonNumber } from "../pact/values/index.ts";
import { makeLogger } from "./logger.ts";
import { BraidNode } from "./node.ts";
import { resolveNodeOptions } from "./options.ts";
import { STORAGE_RETRY_MS } from "./storage-guard.ts";
import {
  blocksAfterGenesis,
  cap,
  devCommand,
  GAS_CAP,
  manualNode,
} from "./test-support/dev-node.ts";

/** The connection under a chain's state: to do what SQLite does after a failed write. */
const connectionOf = (state: VersionedPactDb) =>
  (state as unknown as { versions: { db: Database.Database } }).versions.db;

/** The chain database's connection: to give it no room to grow, as a full disk would. */
const chainDbConnection = (node: BraidNode) =>
  (node.chainDb as unknown as { db: Database.Database }).db;

const transfer = (nonce: string) =>
  devCommand({
    code: '(coin.transfer "sender00" "sender01" 1.0)',
    caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
    nonce,
  });

describe("the storage guard", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-storage-guard-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const open = () =>
    BraidNode.open(
      resolveNodeOptions({ dataDir: dir, mining: "none" }, {}),
      makeLogger("error", { write: () => {}, isTTY: false }),
    );

  it("stops writes when a state loses its batch, keeps reads, recovers, and restarts clean", async () => {
    const node = open();
    const chain = node.chains[0]!;
    const first = transfer("guard 1");
    node.commands.submit(0, [first]);
    node.producer.mine(0);
    const firstResult = node.commands.result(0, first.hashBytes);
    assert.notEqual(firstResult, null);
    const second = transfer("guard 2");
    node.commands.submit(0, [second]);
    node.producer.mine(0);
    const head = chain.head;

    // A full disk: SQLite rolls back chain 0's batch, the block above taken with it.
    connectionOf(chain.state.db).exec("ROLLBACK");
    assert.throws(() => node.ports.commands.submit(0, [transfer("guard 3")]), {
      name: "StorageUnavailable",
      message:
        /^disk write failed \(the contract state's blocks since its last flush were rolled back by a failed write\): the node makes no blocks and refuses writes until writes to .* work again \(reads still work\)$/,
    });
    assert.equal(node.storage.failed, true);
    assert.throws(() => node.producer.mine(0), StorageUnavailable);
    // The state was recovered and the stored blocks replayed: reads see the head.
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(chain.head, head);
    assert.equal(node.commands.result(0, first.hashBytes), firstResult);
    assert.notEqual(node.commands.result(0, second.hashBytes), null);

    // The retry finds the disk writable again: blocks are made again.
    await new Promise((resolve) => setTimeout(resolve, STORAGE_RETRY_MS + 200));
    assert.equal(node.storage.failed, false);
    node.commands.submit(0, [transfer("guard 3")]);
    assert.equal(node.producer.mine(0).requestKeys.length, 1);
    await node.close();

    const reopened = open();
    assert.equal(reopened.chains[0]!.head.height, head.height + 1);
    assert.notEqual(reopened.commands.result(0, decodeBase64Url(second.hash)), null);
    await reopened.close();
  });

  it("gives up the blocks a failed chain-database transaction lost, though the states took them", async () => {
    const source = manualNode();
    for (let i = 0; i < 30; i++) source.producer.mine(i % 20);
    const blocks = blocksAfterGenesis(source);
    const node = BraidNode.open(
      resolveNodeOptions({ dataDir: join(dir, "lost-batch"), mining: "none" }, {}),
      makeLogger("error", { write: () => {}, isTTY: false }),
    );
    const connection = chainDbConnection(node);
    const pages = connection.pragma("page_count", { simple: true }) as number;
    // A disk with room for a few more pages: the import's transaction fails part of the way.
    connection.pragma(`max_page_count = ${pages + 2}`);
    assert.throws(() => node.insertBlocks(blocks), {
      name: "StorageUnavailable",
    });
    await new Promise((resolve) => setImmediate(resolve));
    const stored = node.chains.filter((c) => c.head.height > 0).length;
    for (const chain of node.chains) {
      assert.ok(node.chainDb.has(chain.head.hash), `chain ${chain.chainId}'s head is stored`);
      assert.equal(chain.state.latestBlock()!.height, chain.head.height);
    }
    connection.pragma("max_page_count = 1073741823");
    await new Promise((resolve) => setTimeout(resolve, STORAGE_RETRY_MS + 200));
    assert.equal(node.storage.failed, false);
    node.insertBlocks(blocks);
    assert.deepEqual(
      node.chains.map((c) => c.head.hash),
      source.chains.map((c) => c.head.hash),
    );
    assert.ok(stored < 20, "the failure came before every chain had moved");
    await node.close();
    await source.close();
  });
});
