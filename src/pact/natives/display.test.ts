import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blake2b256 } from "../../crypto/hash.ts";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call, testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import { parseIsoTime } from "../values/time-format.ts";
import type { PactValue } from "../values/types.ts";
import { FORMAT, HASH, SHOW } from "./display.ts";

const fails = (message: string, native: NativeDef, ...args: RuntimeValue[]) =>
  assert.throws(
    () => call(native, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );
const d = (text: string) => Decimal.parseLiteral(text);

describe("format", () => {
  it("writes strings raw and other values in show form", () => {
    assert.equal(call(FORMAT, "Hello {}, {}!", ["Pact", 5n]), "Hello Pact, 5!");
    assert.equal(call(FORMAT, "{}", [d("123.0")]), "123.0");
    assert.equal(call(FORMAT, "{}", [d("123.456")]), "123.456");
    assert.equal(call(FORMAT, "{}", [[1n, 2n, d("4.567")]]), "[1, 2, 4.567]");
    assert.equal(call(FORMAT, "{}", [["a", true]]), '["a", true]');
    const o = new Map<string, PactValue>([
      ["hello", 1n],
      ["goodbye", "bob"],
    ]);
    assert.equal(call(FORMAT, "{}", [o]), '{"goodbye": "bob","hello": 1}');
    assert.equal(
      call(FORMAT, "{}", [parseIsoTime("2024-07-22T12:00:00Z")!]),
      '"2024-07-22T12:00:00Z"',
    );
  });
  it("ignores extra values and returns a template without holes as it is", () => {
    assert.equal(call(FORMAT, "{}{}", [1n, 2n, 3n]), "12");
    assert.equal(call(FORMAT, "no holes", []), "no holes");
    assert.equal(call(FORMAT, "{{}}", ["x"]), "{x}");
  });
  it("rejects too few values and wrong argument types", () => {
    fails(
      "native execution failure, format failed with message: not enough arguments for template",
      FORMAT,
      "{} {}",
      ["a"],
    );
    fails(
      "Type error: failed to call native function format with argument(s) of type(s): string, string",
      FORMAT,
      "{}",
      "a",
    );
  });
});

describe("show", () => {
  it("writes the show form, strings quoted", () => {
    assert.equal(call(SHOW, "a"), '"a"');
    assert.equal(call(SHOW, Decimal.fromInteger(2n)), "2.0");
    assert.equal(call(SHOW, d("2.0")), "2.0");
    assert.equal(call(SHOW, d("2.50")), "2.50");
    assert.equal(call(SHOW, [1n, [2n]]), "[1, [2]]");
    fails(
      "Type error: failed to call native function show with argument(s) of type(s): closure",
      SHOW,
      testFn("f", 1, () => 1n),
    );
  });
});

describe("hash", () => {
  it("hashes a string's UTF-8 bytes", () => {
    assert.equal(call(HASH, "hello"), "Mk3PAn3UowqTLEQfNlol6GsXPe-kuOWJSCU0cbgbcs8");
  });
  it("hashes any other value's JSON encoding", () => {
    const expected = (json: string) => Buffer.from(blake2b256(json)).toString("base64url");
    assert.equal(call(HASH, 1n), expected('{"int":1}'));
    assert.equal(call(HASH, [true, d("1.5")]), expected("[true,1.5]"));
  });
});
