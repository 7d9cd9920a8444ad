/**
 * The parts of `braid dev` that need no node: reading durations. (`braid dev …` run for real
 * against a node process is tested in `test/cli/braid-dev.test.ts`.)
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseDuration } from "./dev.ts";

describe("braid dev", () => {
  it("reads durations in seconds, minutes, hours and days", () => {
    assert.equal(parseDuration("+1d"), 86_400);
    assert.equal(parseDuration("2h"), 7_200);
    assert.equal(parseDuration("+30m"), 1_800);
    assert.equal(parseDuration("90s"), 90);
    assert.equal(parseDuration("3600"), 3_600);
  });
});
