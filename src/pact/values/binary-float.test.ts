import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bitLength,
  decimalToFloat,
  floatToDecimal,
  oddForm,
  roundRational,
  roundToFloat,
} from "./binary-float.ts";
import { Decimal } from "./decimal.ts";

/** mantissa·2^exponent of a JS double, read from its bits (odd mantissa). */
function parts(v: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(v));
  const bits = view.getBigUint64(0);
  let m = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  let e = Number(bits >> 52n) - 1075;
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return [m, e];
}

describe("binary floats", () => {
  it("bitLength", () => {
    assert.equal(bitLength(1n), 1);
    assert.equal(bitLength(255n), 8);
    assert.equal(bitLength(256n), 9);
    assert.equal(bitLength(-256n), 9);
    assert.equal(bitLength(0n), 0);
  });
  it("rounds to 53 bits, ties to even", () => {
    const two53 = 1n << 53n;
    assert.deepEqual(roundToFloat(false, two53 + 1n, 0), {
      negative: false,
      mantissa: 1n << 52n,
      exponent: 1,
    });
    assert.deepEqual(roundToFloat(false, two53 + 3n, 0), {
      negative: false,
      mantissa: (1n << 52n) + 2n,
      exponent: 1,
    });
    assert.deepEqual(roundToFloat(false, two53 + 1n, 0, true), {
      negative: false,
      mantissa: (1n << 52n) + 1n,
      exponent: 1,
    });
    assert.deepEqual(roundToFloat(true, (1n << 54n) - 1n, 0), {
      negative: true,
      mantissa: 1n << 52n,
      exponent: 2,
    });
    assert.throws(() => roundToFloat(false, 5n, 0, true), /54 bits/);
  });
  it("rounds decimals like V8 rounds decimal strings", () => {
    let seed = 99;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed;
    };
    for (let i = 0; i < 2000; i++) {
      const digits = String(rand()) + String(rand()) + String(rand());
      const places = rand() % 40;
      const text =
        places > 0
          ? `${digits.slice(0, -places) || "0"}.${digits.slice(-places).padStart(places, "0")}`
          : digits;
      const d = Decimal.read(text) as Decimal;
      const f = oddForm(decimalToFloat(d));
      const [m, e] = parts(Number(text));
      assert.deepEqual([f.mantissa, f.exponent], [m, e], text);
    }
  });
  it("rounds rationals and converts floats to exact decimals", () => {
    const third = roundRational(false, 1n, 3n);
    assert.deepEqual([oddForm(third).mantissa, oddForm(third).exponent], parts(1 / 3));
    assert.equal(
      floatToDecimal({ negative: false, mantissa: 3n, exponent: -2 }).toString(),
      "0.75",
    );
    assert.equal(floatToDecimal({ negative: true, mantissa: 5n, exponent: 3 }).toString(), "-40");
    // 2^-900 ≈ 1.3e-271 rounds to 0 at 255 places; 2^-800 ≈ 1.5e-241 keeps 255 places
    assert.equal(floatToDecimal({ negative: false, mantissa: 1n, exponent: -900 }).toString(), "0");
    const tiny = floatToDecimal({ negative: false, mantissa: 1n, exponent: -800 });
    assert.equal(tiny.places, 255);
  });
});
