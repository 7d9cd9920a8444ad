import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { joinSpans } from "./span.ts";

describe("joinSpans", () => {
  it("takes the start of the first span and the end of the last", () => {
    assert.deepEqual(
      joinSpans(
        { line: 1, col: 2, endLine: 1, endCol: 5, start: 10, end: 13 },
        { line: 3, col: 0, endLine: 4, endCol: 1, start: 30, end: 41 },
      ),
      { line: 1, col: 2, endLine: 4, endCol: 1, start: 10, end: 41 },
    );
  });
});
