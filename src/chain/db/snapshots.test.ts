import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { braidedChild, braidedLayers, EMPTY_PAYLOAD } from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { ChainDatabase } from "./chain-database.ts";

describe("chain database: development snapshots", () => {
  const layers = braidedLayers(3);
  const store = (db: ChainDatabase) => {
    for (const layer of layers) {
      db.insertBlocks([...layer.values()].map((header) => ({ header, payload: EMPTY_PAYLOAD })));
    }
  };

  it("a revert abandons what ranks above the snapshot's heads; they stay stored, the cut is the snapshot", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT, { devSnapshots: true });
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
    const db = new ChainDatabase(":memory:", DEVELOPMENT, { devSnapshots: true });
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
      const db = new ChainDatabase(path, DEVELOPMENT, { devSnapshots: true });
      store(db);
      const id = db.saveSnapshot(layers[2]!);
      db.revertToSnapshot(id);
      assert.equal(db.setting("clock"), undefined);
      db.saveSetting("clock", "5");
      db.saveSetting("clock", "7");
      db.close();
      const reopened = new ChainDatabase(path, DEVELOPMENT, { devSnapshots: true });
      assert.deepEqual(reopened.cut(), layers[2]);
      assert.deepEqual(reopened.snapshotHeads(id), layers[2]);
      assert.equal(reopened.setting("clock"), "7");
      reopened.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("are kept only when asked for", () => {
    const db = new ChainDatabase(":memory:", DEVELOPMENT);
    assert.throws(() => db.saveSnapshot(new Map()), {
      message: "this chain database keeps no development snapshots (devSnapshots)",
    });
    assert.equal(db.isAbandoned(new Uint8Array(32)), false);
    db.close();
  });
});
