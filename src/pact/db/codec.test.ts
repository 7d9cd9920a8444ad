import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../values/decimal.ts";
import type { PactValue } from "../values/types.ts";
import { decodeModule, decodeRow, encodeRow, MODULE_DECODE_CACHE_SIZE } from "./codec.ts";

const dec = (text: string) => Decimal.read(text) as Decimal;

/** A value's decimals as their places and digits, so 1.1 and 1.10 tell apart. */
function shown(v: PactValue): unknown {
  if (v instanceof Decimal) return `${v.toString()}/${v.places}`;
  if (Array.isArray(v)) return v.map(shown);
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, shown(x)]));
  return v;
}

describe("row storage", () => {
  it("keeps every decimal's places: a JSON number when it has no trailing zero, else its text", () => {
    const row = new Map<string, PactValue>([
      ["a", dec("1.0")],
      ["b", dec("1.10")],
      ["c", dec("100000000.0")],
      ["d", dec("0.0")],
      ["e", dec("1.5")],
      ["f", dec("7")],
      ["g", [dec("2.50"), new Map<string, PactValue>([["h", dec("-0.10")]])]],
    ]);
    const text = encodeRow(row);
    assert.equal(
      text,
      // keys in Pact's legacy HashMap order, as every object
      '{"g":[{"decimal":"2.50"},{"h":{"decimal":"-0.10"}}],"a":{"decimal":"1.0"},"d":{"decimal":"0.0"},"b":{"decimal":"1.10"},"e":1.5,"c":{"decimal":"100000000.0"},"f":7}',
    );
    assert.deepEqual(shown(decodeRow(text, "k")), shown(row));
    assert.equal(encodeRow(decodeRow(text, "k")), text);
  });

  it("wraps an object that looks like another value, and only such an object", () => {
    const obj = (fields: Record<string, PactValue>) => new Map(Object.entries(fields));
    const row = obj({
      i: obj({ int: "5" }),
      k: obj({ keys: ["aa"], pred: "keys-all" }),
      t: obj({ time: "2020-01-01T00:00:00Z" }),
      w: obj({ "#object": obj({ int: "6" }) }),
      p: obj({ plain: true }),
    });
    const text = encodeRow(row);
    assert.equal(
      text,
      // keys in Pact's legacy HashMap order
      '{"w":{"#object":{"#object":{"#object":{"int":"6"}}}},"p":{"plain":true},"k":{"#object":{"pred":"keys-all","keys":["aa"]}},"t":{"#object":{"time":"2020-01-01T00:00:00Z"}},"i":{"#object":{"int":"5"}}}',
    );
    assert.deepEqual(decodeRow(text, "k"), row);
  });
});

const record = (n: number) => JSON.stringify({ hash: `h${n}`, code: `(module m${n} g)` });

describe("module record decoding", () => {
  it("reads the hash and code of a stored module record", () => {
    assert.deepEqual(decodeModule(record(1), "m1"), { hash: "h1", code: "(module m1 g)" });
  });

  it("decodes a record it has seen once and returns the same object again", () => {
    assert.equal(decodeModule(record(2), "m2"), decodeModule(record(2), "m2"));
  });

  it("keeps at most MODULE_DECODE_CACHE_SIZE records, forgetting the oldest first", () => {
    const first = decodeModule(record(1000), "m");
    for (let i = 1; i <= MODULE_DECODE_CACHE_SIZE; i++) decodeModule(record(1000 + i), "m");
    const again = decodeModule(record(1000), "m");
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
  });

  it("refuses a record without a hash or code", () => {
    assert.throws(() => decodeModule('{"hash":"h"}', "m3"), { code: "decode-failure" });
    assert.throws(() => decodeModule("not json", "m3"), { code: "decode-failure" });
  });
});
