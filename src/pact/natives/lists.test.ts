import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call, testContext, testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import { type PactObject, type PactValue, UNIT } from "../values/types.ts";
import {
  AND_Q,
  AT,
  BIND,
  COMPOSE,
  DISTINCT,
  ENUMERATE,
  FILTER,
  FOLD,
  IDENTITY,
  MAKE_LIST,
  MAP,
  MAX_BUILT_LIST_LENGTH,
  NOT_Q,
  OR_Q,
  REMOVE,
  SORT,
  WHERE,
  ZIP,
} from "./lists.ts";

const fails = (message: string, native: NativeDef, ...args: RuntimeValue[]) =>
  assert.throws(
    () => call(native, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );
const d = (text: string) => Decimal.parseLiteral(text);
const obj = (entries: [string, PactValue][]): PactObject => new Map(entries);
const add = testFn("+", 2, (a) => (a[0] as bigint) + (a[1] as bigint));
const isEven = testFn("even", 1, (a) => (a[0] as bigint) % 2n === 0n);
const returnsFn = testFn("f", 1, () => add);
const returnsInt = testFn("g", 1, () => 1n);

describe("at", () => {
  it("indexes lists and looks up object fields", () => {
    assert.equal(call(AT, 1n, ["a", "b"]), "b");
    assert.equal(call(AT, "b", obj([["b", 2n]])), 2n);
    // The index wraps to 64 bits first, as the reference's Int conversion does.
    assert.equal(call(AT, 2n ** 64n + 1n, ["a", "b"]), "b");
  });
  it("reports a bad index or a missing field", () => {
    fails("Array index out of bounds. Length (2), Index (2)", AT, 2n, ["a", "b"]);
    fails("Array index out of bounds. Length (2), Index (-1)", AT, -1n, ["a", "b"]);
    fails(
      'Key "x" not found in object: {"a": 1,"b": "s"}',
      AT,
      "x",
      obj([
        ["b", "s"],
        ["a", 1n],
      ]),
    );
    fails(
      "Type error: failed to call native function at with argument(s) of type(s): string, list",
      AT,
      "a",
      [],
    );
  });
});

describe("make-list and enumerate", () => {
  it("build lists", () => {
    assert.deepEqual(call(MAKE_LIST, 3n, "x"), ["x", "x", "x"]);
    assert.deepEqual(call(MAKE_LIST, -1n, true), []);
    assert.deepEqual(call(ENUMERATE, 0n, 4n), [0n, 1n, 2n, 3n, 4n]);
    assert.deepEqual(call(ENUMERATE, 3n, 1n), [3n, 2n, 1n]);
    assert.deepEqual(call(ENUMERATE, 0n, 10n, 4n), [0n, 4n, 8n]);
    assert.deepEqual(call(ENUMERATE, -1n, -10n, -3n), [-1n, -4n, -7n, -10n]);
    assert.deepEqual(call(ENUMERATE, 10n, 10n), [10n]);
    assert.deepEqual(call(ENUMERATE, 0n, 10n, 0n), []);
    assert.deepEqual(call(ENUMERATE, 0n, 10n, 11n), [0n]);
  });
  it("reject diverging steps and oversized lists", () => {
    fails(
      "Enumeration error: enumerate: increment diverges below from interval bounds.",
      ENUMERATE,
      0n,
      10n,
      -1n,
    );
    fails(
      "Enumeration error: enumerate: increment diverges above from interval bounds.",
      ENUMERATE,
      10n,
      0n,
      1n,
    );
    fails(
      `native execution failure, make-list failed with message: list length ${MAX_BUILT_LIST_LENGTH + 1} exceeds the limit of ${MAX_BUILT_LIST_LENGTH}`,
      MAKE_LIST,
      BigInt(MAX_BUILT_LIST_LENGTH + 1),
      1n,
    );
    fails(
      "Type error: failed to call native function enumerate-step with argument(s) of type(s): integer, integer, decimal",
      ENUMERATE,
      0n,
      1n,
      d("1.0"),
    );
  });
});

describe("sort", () => {
  it("sorts literals by the reference's literal order and times", () => {
    assert.deepEqual(call(SORT, [3n, 1n, 2n]), [1n, 2n, 3n]);
    assert.deepEqual(call(SORT, ["second", "day", "minute"]), ["day", "minute", "second"]);
    assert.deepEqual(call(SORT, [true, false]), [false, true]);
    // strings before integers before decimals before unit before bools
    const t = new PactTime(0n);
    assert.deepEqual(call(SORT, [true, UNIT, t, d("1.0"), 2n, "s"]), [
      "s",
      2n,
      d("1.0"),
      UNIT,
      true,
      t,
    ]);
  });
  it("keeps its argument unchanged", () => {
    const l = [2n, 1n];
    call(SORT, l);
    assert.deepEqual(l, [2n, 1n]);
  });
  it("sorts objects by fields, the last field first", () => {
    const o = (name: string, age: bigint, city: string) =>
      obj([
        ["name", name],
        ["age", age],
        ["city", city],
      ]);
    const lin = o("Lin", 30n, "b");
    const val = o("Val", 25n, "a");
    const kai = o("Kai", 21n, "b");
    assert.deepEqual(call(SORT, ["age"], [lin, val, kai]), [kai, val, lin]);
    assert.deepEqual(call(SORT, ["age", "city"], [lin, val, kai]), [val, kai, lin]);
    assert.deepEqual(call(SORT, [], [lin, 1n]), [lin, 1n]);
  });
  it("rejects non-objects and non-string fields", () => {
    fails(
      "Type error: failed to call native function sort-object with argument(s) of type(s): integer",
      SORT,
      ["a"],
      [obj([]), 1n],
    );
    fails(
      "Type error: failed to call native function sort-object with argument(s) of type(s): integer",
      SORT,
      [1n],
      [obj([])],
    );
    fails(
      "Type error: failed to call native function sort with argument(s) of type(s): string",
      SORT,
      "abc",
    );
  });
});

describe("distinct", () => {
  it("keeps the first of equal values", () => {
    assert.deepEqual(call(DISTINCT, [3n, 1n, 3n, 2n, 2n, 1n, 3n]), [3n, 1n, 2n]);
    assert.deepEqual(call(DISTINCT, [d("1.0"), 1n, d("1.00"), [1n], [1n]]), [d("1.0"), 1n, [1n]]);
    assert.deepEqual(call(DISTINCT, []), []);
  });
});

describe("map filter fold zip", () => {
  it("apply the function in order", () => {
    const ctx = testContext();
    assert.deepEqual(MAP.impl(ctx, [testFn("inc", 1, (a) => (a[0] as bigint) + 1n), [1n, 2n]]), [
      2n,
      3n,
    ]);
    assert.deepEqual(
      ctx.applied.map((a) => a.args),
      [[1n], [2n]],
    );
    assert.deepEqual(call(FILTER, isEven, [1n, 2n, 3n, 4n]), [2n, 4n]);
    assert.equal(call(FOLD, add, 0n, [1n, 2n, 3n]), 6n);
    assert.deepEqual(call(ZIP, add, [1n, 2n, 3n], [4n, 5n]), [5n, 7n]);
  });
  it("require values, and booleans for filter", () => {
    fails("Expected Pact Value, got closure or table reference", MAP, returnsFn, [1n]);
    fails("expected bool value, got 1", FILTER, returnsInt, [1n]);
    fails(
      "Type error: failed to call native function map with argument(s) of type(s): integer, list",
      MAP,
      1n,
      [],
    );
    fails(
      "Type error: failed to call native function fold with argument(s) of type(s): closure, closure, list",
      FOLD,
      add,
      add,
      [],
    );
  });
});

describe("remove compose identity bind", () => {
  it("work on objects and functions", () => {
    assert.deepEqual(
      call(
        REMOVE,
        "a",
        obj([
          ["a", 1n],
          ["b", 2n],
        ]),
      ),
      obj([["b", 2n]]),
    );
    const inc = testFn("inc", 1, (a) => (a[0] as bigint) + 1n);
    const dbl = testFn("dbl", 1, (a) => (a[0] as bigint) * 2n);
    assert.equal(call(COMPOSE, inc, dbl, 3n), 8n);
    assert.deepEqual(call(IDENTITY, [1n]), [1n]);
    const getA = testFn("get", 1, (a) => (a[0] as PactObject).get("a")!);
    assert.equal(call(BIND, obj([["a", 5n]]), getA), 5n);
  });
  it("reject wrong argument types", () => {
    fails(
      "Type error: failed to call native function identity with argument(s) of type(s): closure",
      IDENTITY,
      add,
    );
    fails(
      "Type error: failed to call native function remove with argument(s) of type(s): string, list",
      REMOVE,
      "a",
      [],
    );
  });
});

describe("where and? or? not?", () => {
  const positive = testFn("pos", 1, (a) => (a[0] as bigint) > 0n);
  const never = testFn("never", 1, () => {
    throw new Error("must not be called");
  });
  it("test a field", () => {
    assert.equal(call(WHERE, "age", isEven, obj([["age", 46n]])), true);
    fails('Key "age" not found in object: {}', WHERE, "age", isEven, obj([]));
  });
  it("combine predicates, short-circuiting", () => {
    assert.equal(call(AND_Q, positive, isEven, 4n), true);
    assert.equal(call(AND_Q, positive, never, -4n), false);
    assert.equal(call(OR_Q, positive, never, 3n), true);
    assert.equal(call(OR_Q, positive, isEven, -3n), false);
    assert.equal(call(NOT_Q, positive, 3n), false);
    fails("expected bool value, got 1", NOT_Q, returnsInt, 3n);
  });
});
