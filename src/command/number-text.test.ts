import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { exactInteger, isDecimalInRange, numberParts, readSafeInteger } from "./number-text.ts";

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

  it("reads safe integers, telling fractions from numbers too large", () => {
    assert.equal(readSafeInteger("9007199254740991"), 9007199254740991);
    assert.equal(readSafeInteger("-1.0e3"), -1000);
    assert.equal(readSafeInteger("9007199254740992"), "out-of-range");
    assert.equal(readSafeInteger("1e400"), "out-of-range");
    assert.equal(readSafeInteger("1.5"), "not-integer");
    assert.equal(readSafeInteger("x"), "not-integer");
  });

  it("bounds decimal fields by their integer digits only", () => {
    assert.equal(isDecimalInRange("1e-300"), true);
    assert.equal(isDecimalInRange(`1${"0".repeat(254)}`), true);
    assert.equal(isDecimalInRange("1e255"), false);
  });
});
