import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { shouldSkip, skipHeight } from "./skip-height.ts";

/** Steps a walk takes from `from` down to `to` on a single chain whose pointers are skipHeight. */
function walkSteps(from: number, to: number): number {
  let height = from;
  let steps = 0;
  while (height > to) {
    height = shouldSkip(height, skipHeight(height), to) ? skipHeight(height) : height - 1;
    steps++;
  }
  assert.equal(height, to);
  return steps;
}

describe("skip heights", () => {
  it("point below the height, as the 32-bit bit-twiddling definition gives", () => {
    const clearLowest = (n: number) => n & (n - 1);
    const reference = (h: number) =>
      h < 2 ? 0 : h & 1 ? clearLowest(clearLowest(h - 1)) + 1 : clearLowest(h);
    assert.deepEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(skipHeight),
      [0, 0, 0, 1, 0, 1, 4, 1, 0, 1, 8, 1, 8],
    );
    for (let height = 0; height < 70_000; height++) {
      assert.equal(skipHeight(height), reference(height));
      if (height > 0) assert.ok(skipHeight(height) < height);
    }
  });

  it("work beyond 32-bit heights", () => {
    assert.equal(skipHeight(1_000_000), 999_936);
    assert.equal(skipHeight(1_000_001), 999_425);
    assert.equal(skipHeight(2 ** 40 + 2 ** 33), 2 ** 40);
    assert.equal(skipHeight(2 ** 40 + 7), 2 ** 40 + 1);
  });

  it("reach any ancestor within 7·log2(height) steps", () => {
    for (const from of [1_000, 65_537, 1_000_000, 4_194_303]) {
      let worst = 0;
      for (let to = 0; to <= from; to += Math.max(1, Math.floor(from / 997))) {
        worst = Math.max(worst, walkSteps(from, to));
      }
      assert.ok(worst <= 7 * Math.log2(from), `from ${from}: worst walk took ${worst} steps`);
    }
    assert.equal(walkSteps(1_000_000, 999_999), 1);
    assert.equal(walkSteps(1_000_000, 999_936), 1);
  });
});
