import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import { childBlock, testGenesis } from "../test-support/history.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import type { Block } from "./block-store.ts";
import { ChainDatabase } from "./chain-database.ts";

describe("chain database: scanning a chain's blocks, or their headers alone", () => {
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
          const headers = db
            .scanHeaders(0, from, maxHeight, count)
            .map((h) => encodeBase64Url(h.hash));
          assert.deepEqual(headers, scanned, "the headers alone, the same ones");
        }
      }
    }
    // Payloads come with their headers (all empty here but one per block is read).
    const [first] = db.scanBlocks(0, cursors[0]!, 4, 1);
    assert.deepEqual(first, all[0]);
    assert.deepEqual(db.scanHeaders(0, cursors[0]!, 4, 1), [all[0]!.header]);
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
