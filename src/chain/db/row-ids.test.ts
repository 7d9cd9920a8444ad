import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  clusteredIdBase,
  clusteredIdRange,
  newRowId,
  OVERFLOW_ID_BASE,
  SLOTS_PER_HEIGHT,
} from "./row-ids.ts";

/** `largestBetween` over a set of ids. */
const over = (ids: readonly number[]) => (low: number, high: number) => {
  const inside = ids.filter((id) => id >= low && id <= high);
  return inside.length === 0 ? null : Math.max(...inside);
};

describe("clustered row ids", () => {
  it("put a chain's heights in order, chains after one another", () => {
    assert.equal(clusteredIdBase(0, 0), 0);
    assert.equal(clusteredIdBase(0, 1), 256);
    assert.equal(clusteredIdBase(3, 120), 3 * 2 ** 44 + 120 * 256);
    assert.equal(clusteredIdBase(255, 2 ** 36 - 1), 2 ** 52 - 256);
  });
  it("leave chains from 256 and heights from 2^36 to the overflow range", () => {
    assert.equal(clusteredIdBase(256, 0), null);
    assert.equal(clusteredIdBase(0, 2 ** 36), null);
  });
  it("span a chain's heights, every slot, up to the last clustered height", () => {
    assert.deepEqual(clusteredIdRange(3, 10, 12), [3 * 2 ** 44 + 2560, 3 * 2 ** 44 + 13 * 256 - 1]);
    assert.deepEqual(clusteredIdRange(1, 5, Number.MAX_SAFE_INTEGER), [
      2 ** 44 + 5 * 256,
      2 * 2 ** 44 - 1,
    ]);
    assert.equal(clusteredIdRange(1, 5, 4), null);
    assert.equal(clusteredIdRange(256, 0, 10), null);
    assert.equal(clusteredIdRange(0, 2 ** 36, 2 ** 40), null);
  });
  it("take the next free slot of the height", () => {
    const base = clusteredIdBase(2, 7)!;
    assert.equal(newRowId(2, 7, over([])), base);
    assert.equal(newRowId(2, 7, over([base, base + 1, clusteredIdBase(2, 8)!])), base + 2);
  });
  it("go to the overflow range when a height's slots are taken, in order", () => {
    const base = clusteredIdBase(2, 7)!;
    const full = Array.from({ length: SLOTS_PER_HEIGHT }, (_, i) => base + i);
    assert.equal(newRowId(2, 7, over(full)), OVERFLOW_ID_BASE);
    assert.equal(newRowId(2, 7, over([...full, OVERFLOW_ID_BASE])), OVERFLOW_ID_BASE + 1);
    assert.equal(newRowId(300, 0, over([OVERFLOW_ID_BASE + 4])), OVERFLOW_ID_BASE + 5);
  });
});
