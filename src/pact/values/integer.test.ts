import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { floorDiv, floorMod, integerPow, integerShift, integerSqrt } from "./integer.ts";

describe("integer helpers", () => {
  it("floorDiv rounds toward negative infinity", () => {
    assert.equal(floorDiv(-7n, 2n), -4n);
    assert.equal(floorDiv(7n, -2n), -4n);
    assert.equal(floorDiv(-7n, -2n), 3n);
    assert.equal(floorDiv(7n, 2n), 3n);
    assert.equal(floorDiv(-8n, 2n), -4n);
    assert.throws(() => floorDiv(1n, 0n), /integer division by zero/);
  });
  it("floorMod takes the divisor's sign", () => {
    assert.equal(floorMod(-7n, 2n), 1n);
    assert.equal(floorMod(7n, -2n), -1n);
    assert.equal(floorMod(-7n, -2n), -1n);
    assert.equal(floorMod(7n, 3n), 1n);
    assert.equal(floorMod(-6n, 3n), 0n);
    assert.throws(() => floorMod(1n, 0n), /integer modulo by zero/);
  });
  it("integerPow rejects negative exponents", () => {
    assert.equal(integerPow(2n, 100n), 1267650600228229401496703205376n);
    assert.equal(integerPow(0n, 0n), 1n);
    assert.equal(integerPow(-3n, 3n), -27n);
    assert.throws(() => integerPow(2n, -1n), /negative exponent in integer power/);
  });
  it("integerShift shifts left, or arithmetically right for negative amounts", () => {
    assert.equal(integerShift(1n, 10n), 1024n);
    assert.equal(integerShift(1024n, -3n), 128n);
    assert.equal(integerShift(-5n, -1n), -3n);
    assert.equal(integerShift(-1n, -100n), -1n);
    // the amount wraps to a 64-bit Int first: 2^64 + 3 shifts by 3
    assert.equal(integerShift(1n, 2n ** 64n + 3n), 8n);
  });
  it("integerSqrt is the floor square root", () => {
    assert.equal(integerSqrt(0n), 0n);
    assert.equal(integerSqrt(15n), 3n);
    assert.equal(integerSqrt(16n), 4n);
    assert.equal(integerSqrt(2n ** 52n - 1n), 2n ** 26n - 1n);
    assert.equal(integerSqrt(67108863n * 67108863n - 1n), 67108862n);
    const big = 10n ** 60n + 12345n;
    const r = integerSqrt(big);
    assert.equal(r, 10n ** 30n);
    const sq = (2n ** 80n + 1n) ** 2n;
    assert.equal(integerSqrt(sq), 2n ** 80n + 1n);
    assert.equal(integerSqrt(sq - 1n), 2n ** 80n);
    assert.throws(() => integerSqrt(-1n), /negative/);
  });
});
