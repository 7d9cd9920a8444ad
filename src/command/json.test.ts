import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { JsonNumber, JsonSyntaxError, MAX_JSON_NESTING, parseJson, stringifyJson } from "./json.ts";
import { exactInteger, numberParts } from "./number-text.ts";

describe("parseJson", () => {
  it("keeps every number exactly as written", () => {
    const value = parseJson("[1e-8, 1.0e-8, 0.00000001, 12345678901234567890123, -0, 2E+3]");
    assert.deepEqual(value, [
      new JsonNumber("1e-8"),
      new JsonNumber("1.0e-8"),
      new JsonNumber("0.00000001"),
      new JsonNumber("12345678901234567890123"),
      new JsonNumber("-0"),
      new JsonNumber("2E+3"),
    ]);
  });

  it("keeps object keys in order, in a Map, including __proto__", () => {
    const value = parseJson('{"z":1,"a":{"__proto__":true},"m":null}');
    assert.ok(value instanceof Map);
    assert.deepEqual([...value.keys()], ["z", "a", "m"]);
    assert.deepEqual(value.get("a"), new Map([["__proto__", true]]));
    assert.equal(value.get("m"), null);
  });

  it("decodes string escapes and keeps non-ASCII text", () => {
    assert.equal(parseJson('"a\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00 ü"'), 'a"b\\c/d\n\té😀 ü');
    assert.equal(parseJson('"plain"'), "plain");
  });

  it("accepts surrounding whitespace and literals", () => {
    assert.deepEqual(parseJson(' \n[true, false, null, "", [], {}]\t'), [
      true,
      false,
      null,
      "",
      [],
      new Map(),
    ]);
  });

  it("rejects malformed input with the position", () => {
    const cases: [string, string][] = [
      ["", "unexpected end of JSON at position 0"],
      ['{"a":1,"a":2}', 'duplicate object key "a" at position 7'],
      ["[1] x", "unexpected text after the JSON value at position 4"],
      ['"abc', "unterminated string at position 4"],
      ['"a\nb"', "unescaped control character in string at position 2"],
      ['"\\x"', "invalid escape \\x at position 1"],
      ['"\\u12g4"', "malformed \\u escape at position 1"],
      ["01", "unexpected text after the JSON value at position 1"],
      ["-", "malformed number at position 0"],
      ["[1 2]", "expected ',' or ']' in array at position 3"],
      ['{"a" 1}', "expected ':' after object key at position 5"],
      ["{a:1}", "expected a string key in object at position 1"],
      ["tru", 'unexpected character "t" at position 0'],
    ];
    for (const [text, message] of cases) {
      assert.throws(() => parseJson(text), { name: "JsonSyntaxError", message }, text);
    }
  });

  it("refuses nesting deeper than the limit instead of overflowing the stack", () => {
    const ok = `${"[".repeat(MAX_JSON_NESTING)}${"]".repeat(MAX_JSON_NESTING)}`;
    assert.doesNotThrow(() => parseJson(ok));
    const deep = `${"[".repeat(MAX_JSON_NESTING + 1)}${"]".repeat(MAX_JSON_NESTING + 1)}`;
    assert.throws(() => parseJson(deep), JsonSyntaxError);
    assert.throws(() => parseJson("[".repeat(100_000)), /nesting deeper than 512/);
  });
});

describe("stringifyJson", () => {
  it("writes compact JSON with numbers and key order unchanged", () => {
    const text = '{"b":1.0e-8,"a":[true,null,"x\\"y"],"c":{}}';
    assert.equal(stringifyJson(parseJson(text)), text);
    assert.equal(stringifyJson(parseJson(' { "k" : [ 1 , 2 ] } ')), '{"k":[1,2]}');
  });
});

describe("number text", () => {
  it("splits numbers into digits and a power of ten", () => {
    assert.deepEqual(numberParts("1.0e-8"), { negative: false, digits: "1", exponent: -8 });
    assert.deepEqual(numberParts("-12.50"), { negative: true, digits: "125", exponent: -1 });
    assert.deepEqual(numberParts("1000"), { negative: false, digits: "1", exponent: 3 });
    assert.deepEqual(numberParts("-0.0"), { negative: false, digits: "", exponent: 0 });
    assert.equal(numberParts("1.5x"), undefined);
  });

  it("reads exact integers and refuses fractions and huge exponents", () => {
    assert.equal(exactInteger("1e3", 17), 1000n);
    assert.equal(exactInteger("1.50e2", 17), 150n);
    assert.equal(exactInteger("-42", 17), -42n);
    assert.equal(exactInteger("1.5", 17), undefined);
    assert.equal(exactInteger("1e999999999", 17), undefined);
    assert.equal(exactInteger("123456789012345678", 17), undefined);
  });
});
