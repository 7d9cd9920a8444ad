import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { compareText } from "./text-order.ts";

describe("compareText", () => {
  it("orders by code point, shorter prefixes first", () => {
    assert.ok(compareText("KEY", "get") < 0); // uppercase before lowercase
    assert.ok(compareText("a", "ab") < 0);
    assert.ok(compareText("ab", "a") > 0);
    assert.equal(compareText("same", "same"), 0);
  });

  it("puts code points above U+FFFF after every BMP character, unlike UTF-16 order", () => {
    const astral = "😀"; // U+1F600, surrogates D83D DE00
    const highBmp = "\uff5e"; // U+FF5E
    assert.ok(highBmp > astral); // JavaScript compares UTF-16 units: FF5E > D83D
    assert.ok(compareText(highBmp, astral) < 0);
    assert.ok(compareText(astral, highBmp) > 0);
    assert.ok(compareText("a", astral) < 0);
    assert.ok(compareText("😀", "😁") < 0);
  });
});
