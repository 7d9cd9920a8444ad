/**
 * Binary floating-point numbers with a 53-bit significand and an unbounded exponent — the values
 * MPFR holds at its default precision, which Pact's transcendental functions use. Rounding is
 * always to nearest, ties to even (MPFR_RNDN). Conversions to and from Decimal are exact
 * (decimal → float rounds once; float → decimal is Haskell's `fromRational`, which rounds to 255
 * places).
 */
import { Decimal, MAX_DECIMAL_PLACES, pow10 } from "./decimal.ts";

/** Significand bits, as in an IEEE double and MPFR's default precision. */
export const FLOAT_PRECISION = 53;

/** ±mantissa·2^exponent with 0 ≤ mantissa < 2^53; zero has mantissa 0. */
export interface BinaryFloat {
  readonly negative: boolean;
  readonly mantissa: bigint;
  readonly exponent: number;
}

export const FLOAT_ZERO: BinaryFloat = Object.freeze({
  negative: false,
  mantissa: 0n,
  exponent: 0,
});
export const FLOAT_ONE: BinaryFloat = Object.freeze({ negative: false, mantissa: 1n, exponent: 0 });

/** The number of bits of n > 0. */
export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  if (n === 0n) return 0;
  const hex = n.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0] as string, 16)));
}

/** The float with trailing zero bits moved into the exponent (odd mantissa, or zero). */
export function oddForm(f: BinaryFloat): BinaryFloat {
  if (f.mantissa === 0n || (f.mantissa & 1n) === 1n) return f;
  let m = f.mantissa;
  let e = f.exponent;
  while ((m & 0xffffffffn) === 0n) {
    m >>= 32n;
    e += 32;
  }
  while ((m & 1n) === 0n) {
    m >>= 1n;
    e++;
  }
  return { negative: f.negative, mantissa: m, exponent: e };
}

/**
 * Rounds ±(n + δ)·2^e to 53 bits, ties to even, where δ is 0 when `inexact` is false and lies
 * strictly between 0 and 1 otherwise. An inexact value must come with at least 54 bits of n, so
 * that δ only ever adds to the dropped bits and never decides a tie by itself.
 */
export function roundToFloat(
  negative: boolean,
  n: bigint,
  e: number,
  inexact = false,
): BinaryFloat {
  if (n < 0n) throw new RangeError("roundToFloat expects a non-negative magnitude");
  const bits = bitLength(n);
  if (inexact && bits <= FLOAT_PRECISION) {
    throw new RangeError("roundToFloat needs 54 bits to round an inexact value");
  }
  if (bits <= FLOAT_PRECISION) {
    if (n === 0n) return FLOAT_ZERO;
    return { negative, mantissa: n, exponent: e };
  }
  const shift = bits - FLOAT_PRECISION;
  const big = BigInt(shift);
  let q = n >> big;
  const rest = n - (q << big);
  const half = 1n << (big - 1n);
  if (rest > half || (rest === half && (inexact || (q & 1n) === 1n))) q += 1n;
  if (q === 1n << BigInt(FLOAT_PRECISION))
    return { negative, mantissa: q >> 1n, exponent: e + shift + 1 };
  return { negative, mantissa: q, exponent: e + shift };
}

/** The float nearest to the rational ±num/den (num ≥ 0, den > 0). */
export function roundRational(negative: boolean, num: bigint, den: bigint): BinaryFloat {
  if (num === 0n) return FLOAT_ZERO;
  // Scale so that the integer quotient has at least 56 bits.
  const s = FLOAT_PRECISION + 3 + bitLength(den) - bitLength(num);
  if (s > 0) num <<= BigInt(s);
  else if (s < 0) den <<= BigInt(-s);
  const q = num / den;
  return roundToFloat(negative, q, -s, q * den !== num);
}

/** The float nearest to a decimal (MPFR's `mpfr_set_q` with round-to-nearest). */
export function decimalToFloat(d: Decimal): BinaryFloat {
  const negative = d.mantissa < 0n;
  const m = negative ? -d.mantissa : d.mantissa;
  if (d.places === 0) return roundToFloat(negative, m, 0);
  return roundRational(negative, m, pow10(d.places));
}

/**
 * The exact value of a float as a Decimal, rounded to 255 places (banker's) and normalized —
 * Haskell's `fromRational`, which Pact applies to MPFR results.
 */
export function floatToDecimal(f: BinaryFloat): Decimal {
  const odd = oddForm(f);
  const m = odd.negative ? -odd.mantissa : odd.mantissa;
  if (odd.exponent >= 0) return Decimal.fromInteger(m << BigInt(odd.exponent));
  const places = -odd.exponent;
  // m odd: m·5^places ends in no decimal zero, so this is already normalized
  if (places <= MAX_DECIMAL_PLACES) return new Decimal(m * 5n ** BigInt(places), places);
  return Decimal.fromRational(m, 1n << BigInt(places));
}

/** log2 |f| approximately (|f| > 0), finite even where the value is not. */
export function floatLog2(f: BinaryFloat): number {
  const bits = bitLength(f.mantissa);
  const top = bits > 60 ? Number(f.mantissa >> BigInt(bits - 60)) : Number(f.mantissa);
  return Math.log2(top) + f.exponent + (bits > 60 ? bits - 60 : 0);
}

export function floatEquals(a: BinaryFloat, b: BinaryFloat): boolean {
  if (a.mantissa === 0n || b.mantissa === 0n) return a.mantissa === b.mantissa;
  const x = oddForm(a);
  const y = oddForm(b);
  return x.negative === y.negative && x.mantissa === y.mantissa && x.exponent === y.exponent;
}
