import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, JsonSyntaxError, jsonString, MAX_JSON_DEPTH, parseJson } from "./json-text.ts";
import { jsonNumberToDecimal, jsonNumberToInteger, readHaskellInteger } from "./scientific.ts";

describe("jsonString", () => {
  it("escapes like aeson", () => {
    assert.equal(jsonString('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(jsonString("line\nret\rtab\t"), '"line\\nret\\rtab\\t"');
    assert.equal(
      jsonString("\u0000\u0001\u0008\u000c\u001f"),
      '"\\u0000\\u0001\\u0008\\u000c\\u001f"',
    );
    assert.equal(jsonString("a/b"), '"a/b"');
    assert.equal(jsonString("héllo ✓ 😀 \u007f"), '"héllo ✓ 😀 \u007f"');
    assert.equal(jsonString(""), '""');
  });
});

describe("parseJson", () => {
  it("keeps numbers as their text", () => {
    const v = parseJson('{"a":[1.50,-0,2e-3,123456789012345678901234567890]}');
    assert.ok(v instanceof Map);
    assert.deepEqual(
      (v.get("a") as JsonNumber[]).map((n) => n.text),
      ["1.50", "-0", "2e-3", "123456789012345678901234567890"],
    );
  });
  it("reads strings, escapes and literals", () => {
    assert.equal(parseJson('"a\\u00e9\\n\\/\\"\\ud83d\\ude00"'), 'aé\n/"😀');
    assert.deepEqual(parseJson(" [true, false, null] "), [true, false, null]);
    const o = parseJson('{"__proto__":1,"a":{},"a":2}') as Map<string, unknown>;
    assert.deepEqual([...o.keys()], ["__proto__", "a"]);
    assert.equal((o.get("a") as JsonNumber).text, "2");
  });
  it("rejects invalid JSON", () => {
    for (const bad of [
      "",
      "01",
      "1.",
      ".5",
      "+1",
      "[1,]",
      '{"a"}',
      '"\u0001"',
      '"\\x"',
      "nul",
      "[1 2]",
      "{} x",
      '"abc',
      "-",
      "1e",
    ]) {
      assert.throws(() => parseJson(bad), JsonSyntaxError, bad);
    }
  });
  it("limits nesting", () => {
    assert.doesNotThrow(() => parseJson("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH)));
    assert.throws(
      () => parseJson("[".repeat(MAX_JSON_DEPTH + 2) + "]".repeat(MAX_JSON_DEPTH + 2)),
      /nesting/,
    );
  });
});

describe("JSON numbers as Pact values", () => {
  const dec = (t: string) => {
    const d = jsonNumberToDecimal(new JsonNumber(t));
    return [d.mantissa, d.places];
  };
  it("become normalized decimals rounded to 255 places", () => {
    assert.deepEqual(dec("1.50"), [15n, 1]);
    assert.deepEqual(dec("100"), [100n, 0]);
    assert.deepEqual(dec("1e3"), [1000n, 0]);
    assert.deepEqual(dec("-2.5E-3"), [-25n, 4]);
    assert.deepEqual(dec("0.000"), [0n, 0]);
    assert.deepEqual(dec("1e-300"), [0n, 0]);
    assert.deepEqual(dec("1e-99999999999999999999"), [0n, 0]);
    assert.deepEqual(dec(`0.${"0".repeat(254)}15`), [2n, 255]);
    assert.deepEqual(dec(`0.${"0".repeat(254)}25`), [2n, 255]);
    assert.deepEqual(dec("123456789012345678901234567890.5"), [
      1234567890123456789012345678905n,
      1,
    ]);
    assert.throws(() => dec("1e100001"), /exponent too large/);
  });
  it('become integers with banker\'s rounding in {"int":…}', () => {
    assert.equal(jsonNumberToInteger(new JsonNumber("2.5")), 2n);
    assert.equal(jsonNumberToInteger(new JsonNumber("3.5")), 4n);
    assert.equal(jsonNumberToInteger(new JsonNumber("-2.5")), -2n);
    assert.equal(jsonNumberToInteger(new JsonNumber("1e20")), 100000000000000000000n);
    assert.equal(jsonNumberToInteger(12), 12n);
  });
  it("JS numbers are read through their shortest text", () => {
    assert.deepEqual([jsonNumberToDecimal(0.1).mantissa, jsonNumberToDecimal(0.1).places], [1n, 1]);
    assert.deepEqual(
      [jsonNumberToDecimal(1e-7).mantissa, jsonNumberToDecimal(1e-7).places],
      [1n, 7],
    );
    assert.throws(() => jsonNumberToDecimal(Number.NaN), /not a finite number/);
  });
  it("readHaskellInteger follows Read Integer", () => {
    assert.equal(readHaskellInteger("123"), 123n);
    assert.equal(readHaskellInteger(" -123 "), -123n);
    assert.equal(readHaskellInteger("- 5"), -5n);
    assert.equal(readHaskellInteger("(7)"), 7n);
    assert.equal(readHaskellInteger("( -7 )"), -7n);
    assert.equal(readHaskellInteger("0x1F"), 31n);
    assert.equal(readHaskellInteger("0o17"), 15n);
    assert.equal(
      readHaskellInteger("123456789012345678901234567890"),
      123456789012345678901234567890n,
    );
    for (const bad of ["+5", "1.0", "1e3", "", "--5", "0x", "12abc", "0b101"])
      assert.equal(readHaskellInteger(bad), null, bad);
  });
});
