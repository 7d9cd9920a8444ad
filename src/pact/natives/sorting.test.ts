import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { heapSort, INSERTION_THRESHOLD, introSort } from "./sorting.ts";

interface Item {
  readonly key: number;
  readonly id: number;
}
const byKey = (a: Item, b: Item) => a.key - b.key;
const items = (keys: number[]): Item[] => keys.map((key, id) => ({ key, id }));
const ids = (a: Item[]) => a.map((x) => x.id);

/** A deterministic pseudo-random sequence (xorshift32). */
function randomInts(n: number, seed: number, range: number): number[] {
  const out: number[] = [];
  let x = seed;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out.push((x >>> 0) % range);
  }
  return out;
}

describe("introSort", () => {
  it("sorts arrays of every small size and larger ones", () => {
    for (let n = 0; n < 300; n += n < 40 ? 1 : 37) {
      const keys = randomInts(n, n + 1, 1000);
      const a = items(keys);
      introSort(a, byKey);
      assert.deepEqual(
        a.map((x) => x.key),
        [...keys].sort((x, y) => x - y),
      );
    }
  });
  it("keeps equal elements in order below 5 elements and below the quicksort threshold", () => {
    for (const n of [2, 3, 4, 5, INSERTION_THRESHOLD - 1]) {
      const a = items(new Array(n).fill(7));
      introSort(a, byKey);
      assert.deepEqual(ids(a), [...Array(n).keys()]);
    }
  });
  it("reorders equal elements as the reference's partition does from 18 elements on", () => {
    // Traced by hand through the reference algorithm: the median-of-three leaves the tie in
    // place, the partition swaps the ends pairwise inward, and the pivot moves to index 8.
    const a = items(new Array(18).fill(1));
    introSort(a, byKey);
    assert.deepEqual(ids(a), [10, 17, 16, 15, 14, 13, 12, 11, 0, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });
});

describe("heapSort", () => {
  it("sorts", () => {
    const keys = randomInts(100, 42, 50);
    const a = items(keys);
    heapSort(a, byKey, 0, a.length);
    assert.deepEqual(
      a.map((x) => x.key),
      [...keys].sort((x, y) => x - y),
    );
  });
  it("reorders equal elements as the reference's 4-ary heap does", () => {
    const five = items([1, 1, 1, 1, 1]);
    heapSort(five, byKey, 0, 5);
    assert.deepEqual(ids(five), [4, 1, 2, 3, 0]);
    const six = items([1, 1, 1, 1, 1, 1]);
    heapSort(six, byKey, 0, 6);
    assert.deepEqual(ids(six), [4, 1, 2, 3, 5, 0]);
  });
});
