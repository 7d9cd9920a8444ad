import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeModule, MODULE_DECODE_CACHE_SIZE } from "./codec.ts";

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
