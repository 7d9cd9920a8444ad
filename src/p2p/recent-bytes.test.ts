/**
 * Bytes within a sliding interval: a burst counts whole however it falls across the interval's
 * tenths, and bytes drop out once an interval has passed since their tenth.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RecentBytes } from "./recent-bytes.ts";

describe("bytes within a sliding interval", () => {
  it("counts a burst whole across the moment a fixed window would restart", () => {
    const recent = new RecentBytes(10_000);
    assert.equal(recent.add(100, 5_000), 100);
    assert.equal(recent.add(60, 9_900), 160);
    assert.equal(recent.add(60, 10_100), 220);
    assert.equal(recent.add(1, 14_999), 221);
  });

  it("forgets bytes once an interval has passed since their tenth of it", () => {
    const recent = new RecentBytes(10_000);
    recent.add(100, 5_000);
    recent.add(50, 7_500);
    assert.equal(recent.add(0, 14_999), 150);
    assert.equal(recent.add(0, 15_000), 50);
    assert.equal(recent.add(0, 16_999), 50);
    assert.equal(recent.add(0, 17_000), 0);
    assert.equal(recent.add(7, 1_000_000), 7);
  });
});
