import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { codePointLength, sliceCodePoints } from "./text.ts";

describe("code point strings", () => {
  it("counts code points", () => {
    assert.equal(codePointLength(""), 0);
    assert.equal(codePointLength("abc"), 3);
    assert.equal(codePointLength("a😀b"), 3);
    assert.equal(codePointLength("\ud800x"), 2); // a lone surrogate counts as one
  });
  it("slices by code point", () => {
    assert.equal(sliceCodePoints("a😀bc", 1, 3), "😀b");
    assert.equal(sliceCodePoints("abc", -5, 2), "ab");
    assert.equal(sliceCodePoints("abc", 1, 10), "bc");
  });
});
