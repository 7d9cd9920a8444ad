import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codePointLength, codePointOffset, codePointOffsetFromEnd } from "./text.ts";

describe("code point strings", () => {
  it("counts code points", () => {
    assert.equal(codePointLength(""), 0);
    assert.equal(codePointLength("abc"), 3);
    assert.equal(codePointLength("a😀b"), 3);
    assert.equal(codePointLength("\ud800x"), 2); // a lone surrogate counts as one
  });
  it("counts long strings with and without surrogates", () => {
    assert.equal(codePointLength("é".repeat(5000)), 5000);
    assert.equal(codePointLength(`${"a".repeat(5000)}😀`), 5001);
  });
  it("finds the UTF-16 index of a code point from either end, clamped to the string", () => {
    assert.equal(codePointOffset("a😀bc", 2), 3);
    assert.equal(codePointOffset("abc", 10), 3);
    assert.equal(codePointOffset("\ud800x", 1), 1); // a lone surrogate is one code point
    assert.equal(codePointOffsetFromEnd("a😀bc", 3), 1);
    assert.equal(codePointOffsetFromEnd("abc", 10), 0);
  });
});
