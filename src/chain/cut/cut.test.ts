import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha512_256 } from "@noble/hashes/sha2.js";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BlockHeader } from "../header/types.ts";
import { Random } from "../test-support/random.ts";
import { randomHeader } from "../test-support/random-header.ts";
import { cutHeight, cutId, cutWeight, encodeCutHashes, limitCutHeight } from "./cut.ts";

const random = new Random(7);

/** A head of `chainId` at `height` with `weight`, its parent the previous height's head. */
function head(chainId: number, height: number, weight: bigint): BlockHeader {
  return { ...randomHeader(random), chainId, height, weight };
}

describe("a cut", () => {
  const heads = [head(1, 5, 300n), head(0, 4, 200n), head(2, 6, (1n << 256n) - 1n)];
  const cut = new Map(heads.map((h) => [h.chainId, h]));

  it("has the sum of the heights, the weights modulo 2^256, and the hash of its heads in chain order", () => {
    assert.equal(cutHeight(cut), 15);
    assert.equal(cutWeight(cut), 499n);
    const ordered = [heads[1]!.hash, heads[0]!.hash, heads[2]!.hash];
    const joined = new Uint8Array(96);
    for (const [i, hash] of ordered.entries()) joined.set(hash, i * 32);
    assert.deepEqual(cutId(cut), sha512_256(joined));
  });

  it("is written as CutHashes, chains in order", () => {
    const json = JSON.parse(encodeCutHashes(cut, "development", null));
    assert.deepEqual(Object.keys(json), ["hashes", "origin", "weight", "height", "instance", "id"]);
    assert.deepEqual(Object.keys(json.hashes), ["0", "1", "2"]);
    assert.deepEqual(json.hashes["1"], { height: 5, hash: encodeBase64Url(heads[0]!.hash) });
    assert.equal(json.origin, null);
    assert.equal(json.weight, `8wE${"A".repeat(40)}`);
    assert.equal(json.height, 15);
    assert.equal(json.instance, "development");
    assert.equal(json.id, encodeBase64Url(cutId(cut)));
  });

  it("steps back, highest head first, to a height bound", () => {
    const parents = new Map<number, BlockHeader>([
      [2, head(2, 5, 0n)],
      [1, head(1, 4, 0n)],
    ]);
    const parentOf = (h: BlockHeader) =>
      h.height === 6 || h.height === 5 ? parents.get(h.chainId) : undefined;
    const limited = limitCutHeight(cut, 13, parentOf);
    assert.deepEqual(
      [...limited.entries()].map(([c, h]) => [c, h.height]).sort((a, b) => a[0]! - b[0]!),
      [
        [0, 4],
        [1, 4],
        [2, 5],
      ],
    );
    assert.equal(cutHeight(limitCutHeight(cut, 100, parentOf)), 15, "within the bound: unchanged");
  });
});
