import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isKeySetPredicate, makeKeySet } from "./keyset.ts";

describe("keysets", () => {
  it("sort and deduplicate keys", () => {
    assert.deepEqual(makeKeySet(["b", "a", "b", "😀", "\ufffd"], "keys-any"), {
      kind: "keyset",
      keys: ["a", "b", "\ufffd", "😀"],
      pred: "keys-any",
    });
  });
  it("accept built-in, bare and qualified predicate names", () => {
    for (const ok of ["keys-all", "keys-any", "keys-2", "my-pred", "m.p", "ns.m.p"])
      assert.ok(isKeySetPredicate(ok), ok);
    for (const bad of ["", "a b", "ns.m.p.q", "1abc", "m."])
      assert.ok(!isKeySetPredicate(bad), bad);
  });
});
