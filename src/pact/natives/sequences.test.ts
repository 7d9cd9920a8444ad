import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call, testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import type { PactValue } from "../values/types.ts";
import { CONTAINS, DROP, LENGTH, REVERSE, TAKE } from "./sequences.ts";

const fails = (message: string, native: NativeDef, ...args: RuntimeValue[]) =>
  assert.throws(
    () => call(native, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );
const obj = (entries: [string, PactValue][]) => new Map<string, PactValue>(entries);
const list = [1n, 2n, 3n, 4n, 5n];
const INT64_MAX = 9223372036854775807n;

describe("length", () => {
  it("counts code points, elements and fields", () => {
    assert.equal(call(LENGTH, "abc"), 3n);
    assert.equal(call(LENGTH, "a\u{1f600}"), 2n);
    assert.equal(call(LENGTH, [1n, 2n]), 2n);
    assert.equal(call(LENGTH, obj([["a", 1n]])), 1n);
    fails(
      "Type error: failed to call native function length with argument(s) of type(s): integer",
      LENGTH,
      1n,
    );
  });
});

describe("take and drop", () => {
  it("take from the front, or from the back for negative counts", () => {
    assert.deepEqual(call(TAKE, 2n, list), [1n, 2n]);
    assert.deepEqual(call(TAKE, -2n, list), [4n, 5n]);
    assert.deepEqual(call(TAKE, 10n, list), list);
    assert.deepEqual(call(TAKE, -10n, list), list);
    assert.equal(call(TAKE, 2n, "12345"), "12");
    assert.equal(call(TAKE, -2n, "12345"), "45");
    assert.equal(call(TAKE, 2n, "\u{1f600}\u{1f601}x"), "\u{1f600}\u{1f601}");
    assert.equal(call(TAKE, -1n, "x\u{1f600}"), "\u{1f600}");
  });
  it("drop from the front, or from the back for negative counts", () => {
    assert.deepEqual(call(DROP, 2n, list), [3n, 4n, 5n]);
    assert.deepEqual(call(DROP, -2n, list), [1n, 2n, 3n]);
    assert.deepEqual(call(DROP, 10n, list), []);
    assert.deepEqual(call(DROP, -10n, list), []);
    assert.equal(call(DROP, 2n, "12345"), "345");
    assert.equal(call(DROP, -2n, "12345"), "123");
    assert.equal(call(DROP, 1n, "\u{1f600}x"), "x");
  });
  it("clamp counts beyond 64 bits", () => {
    assert.deepEqual(call(DROP, INT64_MAX + 1n, list), []);
    assert.deepEqual(call(TAKE, -(INT64_MAX + 2n), list), list);
    assert.equal(call(TAKE, INT64_MAX * 4n, "ab"), "ab");
  });
  it("keep or remove object fields", () => {
    const o = obj([
      ["a", 1n],
      ["b", 2n],
      ["c", 3n],
    ]);
    assert.deepEqual(
      call(TAKE, ["a", "c", "z"], o),
      obj([
        ["a", 1n],
        ["c", 3n],
      ]),
    );
    assert.deepEqual(call(DROP, ["a", "c"], o), obj([["b", 2n]]));
    fails(
      "Type error: failed to call native function take with argument(s) of type(s): integer",
      TAKE,
      ["a", 1n],
      o,
    );
  });
  it("reject other combinations", () => {
    fails(
      "Type error: failed to call native function drop with argument(s) of type(s): integer, object",
      DROP,
      1n,
      obj([]),
    );
    fails(
      "Type error: failed to call native function take with argument(s) of type(s): decimal, string",
      TAKE,
      Decimal.parseLiteral("1.0"),
      "abc",
    );
  });
});

describe("reverse", () => {
  it("reverses lists and strings by code point", () => {
    assert.deepEqual(call(REVERSE, [1n, 2n, 3n]), [3n, 2n, 1n]);
    assert.equal(call(REVERSE, "abc"), "cba");
    assert.equal(call(REVERSE, "a\u{1f600}b"), "b\u{1f600}a");
    fails(
      "Type error: failed to call native function reverse with argument(s) of type(s): object",
      REVERSE,
      obj([]),
    );
  });
  it("does not modify its argument", () => {
    const l = [1n, 2n];
    call(REVERSE, l);
    assert.deepEqual(l, [1n, 2n]);
  });
});

describe("contains", () => {
  it("finds fields, substrings and list elements", () => {
    assert.equal(call(CONTAINS, "a", obj([["a", 1n]])), true);
    assert.equal(call(CONTAINS, "b", obj([["a", 1n]])), false);
    assert.equal(call(CONTAINS, "ell", "hello"), true);
    assert.equal(call(CONTAINS, "x", "hello"), false);
    assert.equal(
      call(CONTAINS, Decimal.parseLiteral("2.00"), [1n, Decimal.parseLiteral("2.0")]),
      true,
    );
    assert.equal(call(CONTAINS, 2n, [1n, Decimal.parseLiteral("2.0")]), false);
    assert.equal(call(CONTAINS, [1n], [[1n]]), true);
  });
  it("rejects other combinations", () => {
    fails(
      "Type error: failed to call native function contains with argument(s) of type(s): integer, string",
      CONTAINS,
      1n,
      "1",
    );
    fails(
      "Type error: failed to call native function contains with argument(s) of type(s): closure, list",
      CONTAINS,
      testFn("f", 1, () => 1n),
      [],
    );
  });
});
