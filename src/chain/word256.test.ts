import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Random } from "./test-support/random.ts";
import {
  MAX_WORD256,
  Word256Error,
  word256FromBytes,
  word256Hex,
  word256ToBytes,
} from "./word256.ts";

describe("Word256", () => {
  it("writes little-endian bytes", () => {
    const bytes = word256ToBytes(0x0102n);
    assert.equal(bytes[0], 0x02);
    assert.equal(bytes[1], 0x01);
    assert.deepEqual(bytes.subarray(2), new Uint8Array(30));
    assert.deepEqual(word256ToBytes(MAX_WORD256), new Uint8Array(32).fill(0xff));
  });
  it("reads what it writes, at an offset", () => {
    const random = new Random(7);
    for (let i = 0; i < 200; i++) {
      const value = random.bigint(256);
      const out = new Uint8Array(40);
      word256ToBytes(value, out, 5);
      assert.equal(word256FromBytes(out, 5), value);
    }
  });
  it("formats as 64 hex digits", () => {
    assert.equal(word256Hex(255n), `${"0".repeat(62)}ff`);
    assert.equal(
      word256Hex(MAX_WORD256 / 100_000n),
      "0000a7c5ac471b4784230fcf80dc33721d53cddd6e04c059210385c67dfe32a0",
    );
  });
  it("rejects values and inputs that do not fit", () => {
    assert.throws(() => word256ToBytes(-1n), Word256Error);
    assert.throws(() => word256ToBytes(MAX_WORD256 + 1n), /does not fit in 256 unsigned bits/);
    assert.throws(
      () => word256FromBytes(new Uint8Array(31)),
      /a Word256 needs 32 bytes at offset 0, got 31/,
    );
  });
});
