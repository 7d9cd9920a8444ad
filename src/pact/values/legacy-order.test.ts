import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { legacyHash, legacyKeyOrder } from "./legacy-order.ts";
import { compareCodePoints } from "./text.ts";

describe("legacy HashMap key order", () => {
  it("hashes keys like pact-json's test vectors", () => {
    const inputs = ["", "a"];
    for (let i = 0; i <= 1000; i += 100) {
      inputs.push(`[${Array.from({ length: i }, (_, k) => k + 1).join(",")}]`);
    }
    const expected = [
      -2578643520546668380n,
      -7234408896080994505n,
      -6997694561424077354n,
      4219119192155343941n,
      4490691819985819348n,
      -2633759961541750241n,
      -7390682183909917138n,
      -4349854433322841223n,
      -6002586313296005752n,
      2857719091733616083n,
      3758582501661966194n,
      6453168825425917325n,
      8933568572060804037n,
    ];
    assert.deepEqual(inputs.map(legacyHash), expected);
  });
  it("orders keys by hash nibbles from the low end", () => {
    assert.deepEqual(legacyKeyOrder(["name", "language"]), ["name", "language"]);
    assert.deepEqual(legacyKeyOrder(["language", "name"]), ["name", "language"]);
    assert.deepEqual(legacyKeyOrder(["keys", "pred"]), ["pred", "keys"]);
    assert.deepEqual(legacyKeyOrder(["account", "balance", "guard"]), [
      "guard",
      "balance",
      "account",
    ]);
    assert.deepEqual(legacyKeyOrder([]), []);
  });
  it("hashes non-ASCII keys by their UTF-16 code units", () => {
    assert.equal(legacyHash("é"), legacyHash("\u00e9"));
    assert.notEqual(legacyHash("é"), legacyHash("e\u0301"));
    // one astral character is two code units, hashed as four bytes
    assert.equal(typeof legacyHash("😀"), "bigint");
  });
  it("compares strings by code point", () => {
    assert.equal(compareCodePoints("a", "b"), -1);
    assert.equal(compareCodePoints("b", "a"), 1);
    assert.equal(compareCodePoints("ab", "a") > 0, true);
    assert.equal(compareCodePoints("a", "a"), 0);
    // U+FFFD sorts before U+1F600 by code point, though its UTF-16 unit is larger
    assert.equal(compareCodePoints("\ufffd", "😀"), -1);
    assert.equal(compareCodePoints("😀", "\ufffd"), 1);
    assert.equal(compareCodePoints("😀", "😁"), -1);
  });
});
