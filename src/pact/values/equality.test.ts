import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "./decimal.ts";
import { compareForSort, comparePactValues, pactValueEquals } from "./equality.ts";
import { makeKeySet } from "./keyset.ts";
import { PactTime } from "./time.ts";
import type { PactValue, TableRef } from "./types.ts";
import { UNIT } from "./types.ts";

const d = (s: string) => Decimal.parseLiteral(s);
const o = (entries: [string, PactValue][]) => new Map(entries);
const table: TableRef = {
  kind: "table",
  module: { namespace: null, name: "m" },
  name: "t",
  moduleHash: "h",
  schema: { name: "m.s", fields: new Map() },
};

describe("pactValueEquals (Pact's =)", () => {
  it("compares literals by type and value", () => {
    assert.ok(pactValueEquals(1n, 1n));
    assert.ok(!pactValueEquals(1n, d("1.0")));
    assert.ok(pactValueEquals(d("1.0"), d("1.00")));
    assert.ok(!pactValueEquals(d("1.0"), d("1.01")));
    assert.ok(pactValueEquals("a", "a"));
    assert.ok(!pactValueEquals("a", "b"));
    assert.ok(pactValueEquals(true, true));
    assert.ok(!pactValueEquals(true, "true"));
    assert.ok(pactValueEquals(UNIT, UNIT));
    assert.ok(!pactValueEquals(UNIT, false));
  });
  it("compares lists and objects structurally", () => {
    assert.ok(pactValueEquals([1n, 2n, 3n], [1n, 2n, 3n]));
    assert.ok(!pactValueEquals([1n, 3n, 2n], [1n, 2n, 3n]));
    assert.ok(!pactValueEquals([1n], [1n, 2n]));
    assert.ok(
      pactValueEquals(
        o([
          ["a", 1n],
          ["b", d("2.0")],
        ]),
        o([
          ["b", d("2.00")],
          ["a", 1n],
        ]),
      ),
    );
    assert.ok(
      !pactValueEquals(
        o([["a", 1n]]),
        o([
          ["a", 1n],
          ["b", 2n],
        ]),
      ),
    );
    assert.ok(!pactValueEquals(o([["a", 1n]]), o([["b", 1n]])));
    assert.ok(!pactValueEquals(o([]), []));
  });
  it("compares guards, module references by module only, and tables never", () => {
    assert.ok(
      pactValueEquals(makeKeySet(["b", "a"], "keys-all"), makeKeySet(["a", "b"], "keys-all")),
    );
    assert.ok(!pactValueEquals(makeKeySet(["a"], "keys-all"), makeKeySet(["a"], "keys-any")));
    assert.ok(
      pactValueEquals(
        { kind: "user-guard", fun: "m.f", args: [d("1.0")] },
        { kind: "user-guard", fun: "m.f", args: [d("1.00")] },
      ),
    );
    assert.ok(
      !pactValueEquals(
        { kind: "capability-guard", name: "m.C", args: [], pactId: null },
        { kind: "capability-guard", name: "m.C", args: [], pactId: "p" },
      ),
    );
    assert.ok(
      pactValueEquals(
        { kind: "modref", module: { namespace: null, name: "coin" }, interfaces: [] },
        {
          kind: "modref",
          module: { namespace: null, name: "coin" },
          interfaces: [{ namespace: null, name: "i" }],
        },
      ),
    );
    assert.ok(
      !pactValueEquals(
        { kind: "cap-token", name: "m.C", moduleHash: "a", args: [] },
        { kind: "cap-token", name: "m.C", moduleHash: "b", args: [] },
      ),
    );
    assert.ok(!pactValueEquals(table, table));
    assert.ok(!pactValueEquals(makeKeySet([], "keys-all"), UNIT));
    assert.ok(pactValueEquals(new PactTime(5n), new PactTime(5n)));
  });
});

describe("comparePactValues (Pact's < family)", () => {
  it("orders same-type literals and times", () => {
    assert.equal(comparePactValues(1n, 2n), -1);
    assert.equal(comparePactValues(d("2.0"), d("1.99")), 1);
    assert.equal(comparePactValues("b", "a"), 1);
    assert.equal(comparePactValues("\ufffd", "😀"), -1);
    assert.equal(comparePactValues(false, true), -1);
    assert.equal(comparePactValues(UNIT, UNIT), 0);
    assert.equal(comparePactValues(new PactTime(1n), new PactTime(2n)), -1);
  });
  it("refuses mixed or structured values", () => {
    assert.equal(comparePactValues(1n, d("1.0")), null);
    assert.equal(comparePactValues([1n], [2n]), null);
    assert.equal(comparePactValues(o([]), o([])), null);
    assert.equal(comparePactValues(makeKeySet([], "keys-all"), makeKeySet([], "keys-all")), null);
  });
});

describe("compareForSort", () => {
  it("orders literals by type (string < integer < decimal < unit < bool), then times", () => {
    const values: PactValue[] = [new PactTime(0n), true, UNIT, d("1.5"), 2n, "s", 1n, "a"];
    const sorted = [...values].sort(compareForSort);
    assert.deepEqual(sorted.slice(0, 4), ["a", "s", 1n, 2n]);
    assert.ok(sorted[4] instanceof Decimal);
    assert.equal(sorted[5], UNIT);
    assert.equal(sorted[6], true);
    assert.ok(sorted[7] instanceof PactTime);
    assert.equal(compareForSort([1n], [2n]), 0);
  });
});
