import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../values/decimal.ts";
import { makeKeySet } from "../values/keyset.ts";
import { PactTime } from "../values/time.ts";
import { type PactValue, UNIT } from "../values/types.ts";
import { keysetStoredSize, namespaceSize, objectSize, sizeOf } from "./size-of.ts";

const obj = (entries: [string, PactValue][]) => new Map<string, PactValue>(entries);

describe("sizeOf (Pact's SizeOfV0)", () => {
  it("sizes literals: two variant tags and the payload", () => {
    assert.equal(sizeOf(1n), 12); // 2 + 2 + 8 (at least 64 bits)
    assert.equal(sizeOf(2n ** 100n), 2 + 2 + 12); // 101 bits / 8
    assert.equal(sizeOf("ab"), 10); // 2 + 2 + (2 + 4)
    assert.equal(sizeOf("é"), 10); // UTF-8 bytes: 2
    assert.equal(sizeOf(true), 5);
    assert.equal(sizeOf(UNIT), 4);
    assert.equal(sizeOf(new Decimal(15n, 1)), 14); // 2 + 2 + (1 + 1 + 8)
  });

  it("sizes times, lists and objects", () => {
    assert.equal(sizeOf(new PactTime(0n)), 10);
    assert.equal(sizeOf([1n, 2n]), 2 + 5 + 24);
    // {'foo: 1}: 2 + 5 + (1 + (3 + 4) + 12)
    assert.equal(sizeOf(obj([["foo", 1n]])), 27);
  });

  it("sizes a table row", () => {
    // {"col1": 1, "col2": "a"}: 5 + (1 + 8 + 12) + (1 + 8 + 9)
    assert.equal(
      objectSize(
        obj([
          ["col1", 1n],
          ["col2", "a"],
        ]),
      ),
      44,
    );
  });

  it("sizes guards", () => {
    const ks = makeKeySet(["key1"], "keys-all");
    assert.equal(keysetStoredSize(ks), 16); // 1 + (5 + 8) + 2
    assert.equal(sizeOf(ks), 2 + 2 + 16);
    // a user predicate `m.p`: the keys, then 2 + 2 + (1 + (1 + 4) + 1 + (1 + 4) + 2)
    assert.equal(keysetStoredSize(makeKeySet(["key1"], "m.p")), 1 + 13 + (2 + 2 + 14));
    assert.equal(
      sizeOf({ kind: "keyset-ref", namespace: "ns", name: "k" }),
      2 + 2 + (1 + 5 + (2 + 6)),
    );
    assert.equal(
      sizeOf({ kind: "user-guard", fun: "ns.m.f", args: [1n] }),
      2 + 2 + 1 + (1 + 5 + 1 + 5 + (2 + 6)) + (5 + 12),
    );
    assert.equal(
      sizeOf({ kind: "capability-guard", name: "m.CAP", args: [], pactId: null }),
      2 + 2 + 1 + (1 + 7 + 1 + 5 + 2) + 5 + 2,
    );
    assert.equal(sizeOf({ kind: "pact-guard", pactId: "abc", name: "g" }), 2 + 2 + 1 + 7 + 5);
  });

  it("sizes a namespace: its name and two guards", () => {
    const ks = makeKeySet(["key1"], "keys-all");
    assert.equal(namespaceSize("ns", ks, ks), 1 + 6 + 18 + 18);
  });

  it("sizes capability tokens with their module hash", () => {
    const token: PactValue = {
      kind: "cap-token",
      name: "m.CAP",
      moduleHash: "A".repeat(43), // 32 bytes
      args: ["a"],
    };
    // 2 + token (1) + name (1 + module (1 + 5 + 2) + 7 + hash 36) + args (5 + 9)
    assert.equal(sizeOf(token), 2 + 1 + 1 + 8 + 7 + 36 + 14);
  });
});
