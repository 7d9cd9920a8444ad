import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { FREE_GAS_CONFIG, TABLE_GAS_CONFIG } from "./config.ts";
import {
  applyLambdaCost,
  bitCount,
  concatCost,
  decimalCompareCost,
  expCost,
  intAddCost,
  integerBits,
  integerLogBase,
  intMulCost,
  intPowCost,
  intShiftCost,
  keccakCost,
  lnCost,
  logBaseCost,
  MAX_MILLIGAS,
  makeListCost,
  moduleLoadCost,
  objectLookupCost,
  objectRemoveCost,
  parseTimeCost,
  saturate,
  sortCost,
  sqrtCost,
  stringLengthCost,
  textListConcatCost,
} from "./costs.ts";

const T = TABLE_GAS_CONFIG;

describe("integer sizes", () => {
  it("counts the bits of |i|, with 0 taking one bit", () => {
    assert.equal(bitCount(0n), 1);
    assert.equal(bitCount(1n), 1);
    assert.equal(bitCount(-255n), 8);
    assert.equal(bitCount(256n), 9);
    assert.equal(bitCount(2n ** 40n), 41);
    assert.equal(bitCount(2n ** 52n - 1n), 52);
    assert.equal(bitCount(2n ** 53n), 54);
    assert.equal(bitCount(-(2n ** 300n)), 301);
  });

  it("counts machine-word integers as 64 bits in comparisons", () => {
    assert.equal(integerBits(1n), 64);
    assert.equal(integerBits(-(2n ** 63n)), 64);
    assert.equal(integerBits(2n ** 63n), 64);
    assert.equal(integerBits(2n ** 100n), 101);
  });
});

describe("integer arithmetic", () => {
  it("adds for a flat 30 up to 664 bits, then bits²/6400", () => {
    assert.equal(intAddCost(10n, 10n), 30);
    assert.equal(intAddCost(2n ** 663n, 1n), 30);
    assert.equal(intAddCost(2n ** 664n, 1n), 69); // 665² / 6400 = 69.09
    // The larger operand (by value, not size) decides.
    assert.equal(intAddCost(-(2n ** 1000n), 1n), 30);
  });

  it("multiplies and divides for 3·bits/20 + 26", () => {
    assert.equal(intMulCost(10n, 60n), 26); // 6 bits: 18/20 = 0
    assert.equal(intMulCost(1000n, 3n), 27); // 10 bits: 30/20 = 1
    assert.equal(intMulCost(2n ** 663n, 1n), 125); // 664 bits: 1992/20 = 99
    assert.equal(intMulCost(2n ** 700n, 1n), 76); // 701² / 6400 = 76.7
  });

  it("prices powers as exponentiation by squaring", () => {
    // (^ 1 100): 12 multiplications of 1·2^3 = 8 bits: 12 · 8² = 768
    assert.equal(intPowCost(1n, 100n), 768);
    // (^ 2 10): 6 multiplications of 2·⌈2^1.5⌉ = 6 bits: 6 · 36 = 216
    assert.equal(intPowCost(2n, 10n), 216);
    assert.equal(intPowCost(5n, 1n), 0);
  });

  it("prices left shifts as a power of two plus a multiplication", () => {
    assert.equal(intShiftCost(255n, 8n), 243); // 216 + (3·8)/20 + 26
    assert.equal(intShiftCost(255n, -1n), 0);
    assert.equal(intShiftCost(1n, 0n), 0);
  });
});

describe("transcendental functions", () => {
  it("prices exp, ln, log and sqrt by the bits of their argument", () => {
    assert.equal(expCost(1n), 0);
    assert.equal(expCost(10n), 534); // 6 · ⌈6^2.5⌉ = 6 · 89
    assert.equal(lnCost(10n), 8); // 4 · ⌈ln²4⌉ · ⌈ln ln 4⌉ = 4 · 2 · 1
    assert.equal(lnCost(1n), 0);
    assert.equal(lnCost(2n), 0);
    assert.equal(logBaseCost(2n, 256n), 45); // 0 + 9 · 5 · 1
    assert.equal(sqrtCost(10n), 8); // 4 · ⌈ln 4⌉ · ⌈ln ln 4⌉ = 4 · 2 · 1
    assert.equal(sqrtCost(100n), 14); // 7 · 2 · 1
    assert.equal(sqrtCost(0n), 0);
  });
});

describe("sizes of work", () => {
  it("charges concatenation per character or element", () => {
    assert.equal(concatCost(T, 16), 1600);
    assert.equal(concatCost(FREE_GAS_CONFIG, 16), 16);
    assert.equal(textListConcatCost(T, 3, 3), 420);
  });

  it("charges comparisons by size", () => {
    assert.equal(decimalCompareCost(T, 15n, 150n), 27 + 64 + 100);
  });

  it("charges object operations by key length and object size", () => {
    assert.equal(objectLookupCost(3, 2), 6);
    assert.equal(objectLookupCost(5, 1000), 50);
    assert.equal(objectRemoveCost(3, 2), 60);
  });

  it("charges strings by length", () => {
    assert.equal(stringLengthCost(8), 1);
    assert.equal(stringLengthCost(250), 3);
    assert.equal(parseTimeCost(2, 8), 82);
  });

  it("charges sorting n values of s bytes s·n²/1000", () => {
    assert.equal(sortCost(T, 12, 3), 0);
    assert.equal(sortCost(T, 18, 20), 7);
  });

  it("charges lists by length times element size, nothing for no elements", () => {
    assert.equal(makeListCost(5n, 5), 25);
    assert.equal(makeListCost(-3n, 5), 0);
  });

  it("charges keccak per started 100 bytes and per chunk", () => {
    assert.equal(keccakCost(T, [11]), 146 + 2120);
    assert.equal(keccakCost(T, [100, 1]), 2 * 146 + 2 * 2120);
  });

  it("charges applications, module loads", () => {
    assert.equal(applyLambdaCost(T, 0), 50);
    assert.equal(applyLambdaCost(T, 3), 125);
    assert.equal(moduleLoadCost(T, 6399), 41);
  });

  it("saturates like Pact's unsigned word", () => {
    assert.equal(saturate(-5), 0);
    assert.equal(saturate(Number.NaN), 0);
    assert.equal(saturate(2 ** 70), MAX_MILLIGAS);
  });
});

describe("integerLogBase", () => {
  /** The definition, one multiplication per step (quadratic in v's size). */
  function byMultiplying(base: bigint, v: bigint): number {
    let k = 0;
    for (let p = base; p <= v; p *= base) k++;
    return k;
  }

  it("agrees with repeated multiplication at and around every power, in every base int-to-str takes", () => {
    for (const base of [2n, 3n, 5n, 7n, 10n, 11n, 13n, 15n, 16n, 256n]) {
      for (const exponent of [0n, 1n, 2n, 20n, 33n, 34n, 60n, 61n, 100n, 333n, 1000n]) {
        const power = base ** exponent;
        for (const v of [power - 1n, power, power + 1n, power * 2n - 1n]) {
          if (v < 0n) continue;
          assert.equal(integerLogBase(base, v), byMultiplying(base, v), `${base} ${v}`);
        }
      }
    }
  });

  it("is 0 below the base", () => {
    assert.equal(integerLogBase(10n, 0n), 0);
    assert.equal(integerLogBase(10n, 9n), 0);
    assert.equal(integerLogBase(256n, 255n), 0);
  });

  it("takes milliseconds for a million-digit integer (the quadratic loop took minutes)", () => {
    const v = 3n ** 2_000_000n;
    const started = performance.now();
    assert.equal(integerLogBase(10n, v), 954_242);
    assert.equal(integerLogBase(10n, 10n ** 954_243n - 1n), 954_242);
    assert.equal(integerLogBase(10n, 10n ** 954_243n), 954_243);
    assert.equal(integerLogBase(256n, v), 396_240);
    assert.ok(performance.now() - started < 2_000);
  });
});
