/**
 * Pact's `exp`, `ln`, `log`, `sqrt` and decimal `^`, bit-for-bit.
 *
 * Pact computes them with MPFR at 53-bit precision, rounding to nearest: the decimal argument
 * is first rounded to a 53-bit binary float, the function result is rounded correctly to 53
 * bits, and that binary value is turned back into a decimal by Haskell's `fromRational`
 * (255 places, banker's rounding). `log b x` is ln(x)/ln(b) with all three steps rounded.
 * MPFR's exponent range is practically unbounded, so, unlike IEEE doubles, there are no
 * subnormals and no overflow at 1e308.
 *
 * Method (no JS Math result is trusted): every function is evaluated in fixed-point bigint
 * arithmetic as a rigorous interval — each operation rounds its lower bound down and its upper
 * bound up, and every truncated series adds a bound on its tail. If both ends of the interval
 * round to the same 53-bit float, that float is the correctly rounded result (rounding is
 * monotone); otherwise the working precision is doubled and the evaluation repeated (Ziv's
 * strategy). This terminates because the true value is never exactly halfway between two
 * floats: exp and ln of binary rationals other than exp(0) and ln(1) are transcendental, square
 * roots are computed exactly with an integer square root, and the powers x^y that are binary
 * rationals are detected and computed exactly.
 *
 * - exp: x = k·ln2 + r with 0 ≤ r, exp(r) by Taylor series on r/2^s, squared s times.
 * - ln: x = 2^j·f with 2/3 ≤ f < 4/3, ln f = 2·atanh((f−1)/(f+1)) by its series.
 * - ln2 = 2·atanh(1/3), computed to the precision needed and cached.
 * - x^y = exp(y·ln x) on intervals, after the exact cases.
 */
import {
  type BinaryFloat,
  bitLength,
  decimalToFloat,
  FLOAT_ONE,
  FLOAT_PRECISION,
  FLOAT_ZERO,
  floatEquals,
  floatLog2,
  floatToDecimal,
  oddForm,
  roundRational,
  roundToFloat,
} from "./binary-float.ts";
import type { Decimal } from "./decimal.ts";
import { integerSqrt } from "./integer.ts";

/** Raised where MPFR yields NaN or ±Infinity; Pact reports it as a FloatingPointError. */
export class NanOrInfinityError extends Error {
  constructor() {
    super("Floating operation resulted in Infinity or NaN");
    this.name = "NanOrInfinityError";
  }
}

/**
 * The largest binary exponent of a result we compute. MPFR's own limit (2^30 bits) would mean
 * decimals with hundreds of millions of digits; past this limit (about 315,000 digits) we raise
 * {@link ResultTooLargeError} instead of spending minutes building one.
 */
export const MAX_RESULT_BINARY_EXPONENT = 2 ** 20;

/** MPFR's default largest exponent: values of 2^(2^30 − 1) and beyond are +Infinity. */
const MPFR_MAX_EXPONENT = 2 ** 30 - 1;

export class ResultTooLargeError extends Error {
  constructor(what: string) {
    super(`${what}: result too large (beyond 2^${MAX_RESULT_BINARY_EXPONENT})`);
    this.name = "ResultTooLargeError";
  }
}

/** The working precision (fraction bits) the Ziv loop starts with. */
const INITIAL_PRECISION = 96;
/** The loop gives up here; reaching it would mean an undetected exact case (a bug). */
const MAX_PRECISION = 1 << 16;

/**
 * Below 2^-849 a float becomes 0 as a 255-place decimal (0.5·10^-255 ≈ 2^-848.09), so results
 * known to be that small are returned as 0 without rounding them exactly.
 */
const DECIMAL_ZERO_LOG2 = -849;

const LN2 = Math.LN2;

/** Lower and upper bounds of a value, as integers scaled by 2^-precision. */
interface Interval {
  lo: bigint;
  hi: bigint;
}

function ceilShift(n: bigint, bits: number): bigint {
  if (bits <= 0) return n << BigInt(-bits);
  return -(-n >> BigInt(bits));
}

function floorShift(n: bigint, bits: number): bigint {
  if (bits <= 0) return n << BigInt(-bits);
  return n >> BigInt(bits);
}

/** ⌈a/b⌉ for b > 0. */
function ceilDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a > 0n && q * b !== a ? q + 1n : q;
}

// ---------------------------------------------------------------------------------------------
// ln 2

let ln2Cache: { precision: number; lo: bigint; hi: bigint } = { precision: 0, lo: 0n, hi: 0n };

/** Bounds of ln 2 at the given precision: ln2 = Σ 2 / ((2k+1)·3^(2k+1)). */
function ln2Bounds(precision: number): Interval {
  if (ln2Cache.precision < precision) {
    const p = Math.max(precision, 2 * ln2Cache.precision) + 8;
    const two = 2n << BigInt(p);
    let lo = 0n;
    let terms = 0n;
    let power = 3n;
    for (let k = 0n; ; k++) {
      const term = two / ((2n * k + 1n) * power); // rounded down
      if (term === 0n) break;
      lo += term;
      terms++;
      power *= 9n;
    }
    // each term lost less than 1; the omitted tail is below 9/8 of the first zero term
    ln2Cache = { precision: p, lo, hi: lo + terms + 2n };
  }
  const drop = ln2Cache.precision - precision;
  return { lo: floorShift(ln2Cache.lo, drop), hi: ceilShift(ln2Cache.hi, drop) };
}

// ---------------------------------------------------------------------------------------------
// exp

/**
 * Bounds of exp(r) for 0 ≤ rLo ≤ rHi (scaled by 2^-precision). Returns bounds scaled by
 * 2^-resultPrecision.
 */
function expSmall(rLo: bigint, rHi: bigint, precision: number): Interval & { precision: number } {
  // Halve r s times so that r/2^s ≤ 1/2, sum the series, then square s times.
  const s = Math.max(Math.ceil(Math.sqrt(precision) / 2), bitLength(rHi) - precision + 1, 1);
  const p = precision + s + 16;
  const align = BigInt(p - precision - s);
  const xLo = rLo << align;
  const xHi = rHi << align;
  const one = 1n << BigInt(p);
  const bigP = BigInt(p);
  let lo = one;
  let term = one;
  for (let n = 1n; ; n++) {
    term = ((term * xLo) >> bigP) / n;
    if (term === 0n) break;
    lo += term;
  }
  let hi = one;
  term = one;
  for (let n = 1n; ; n++) {
    term = ceilDiv(ceilShift(term * xHi, p), n);
    hi += term;
    if (term <= 1n) break;
  }
  hi += 1n; // the remaining terms shrink at least by half each: their sum is below the last one
  for (let k = 0; k < s; k++) {
    lo = (lo * lo) >> bigP;
    hi = ceilShift(hi * hi, p);
  }
  return { lo, hi, precision: p };
}

/** Bounds of exp(x) for x in [xLo, xHi] (scaled by 2^-precision), as [lo, hi]·2^exponent. */
function expBounds(xLo: bigint, xHi: bigint, precision: number): Interval & { exponent: number } {
  const approx = fixedToNumber(xLo, precision);
  let k = Math.floor(approx / LN2);
  const p = precision + bitLength(BigInt(Math.abs(k) + 1)) + 4;
  const lo2 = xLo << BigInt(p - precision);
  const hi2 = xHi << BigInt(p - precision);
  const ln2 = ln2Bounds(p);
  for (;;) {
    const kb = BigInt(k);
    // r = x − k·ln2, rounded outward
    const rLo = k >= 0 ? lo2 - kb * ln2.hi : lo2 - kb * ln2.lo;
    const rHi = k >= 0 ? hi2 - kb * ln2.lo : hi2 - kb * ln2.hi;
    if (rLo < 0n) {
      k--;
      continue;
    }
    const e = expSmall(rLo, rHi, p);
    return { lo: e.lo, hi: e.hi, exponent: k - e.precision };
  }
}

function fixedToNumber(n: bigint, precision: number): number {
  const bits = bitLength(n);
  if (bits > 64) {
    const drop = bits - 64;
    return Number(n >> BigInt(drop)) * 2 ** (drop - precision);
  }
  return Number(n) * 2 ** -precision;
}

/** x as bounds scaled by 2^-precision. */
function toFixed(x: BinaryFloat, precision: number): Interval {
  const m = x.negative ? -x.mantissa : x.mantissa;
  const shift = x.exponent + precision;
  if (shift >= 0) {
    const v = m << BigInt(shift);
    return { lo: v, hi: v };
  }
  return { lo: floorShift(m, -shift), hi: ceilShift(m, -shift) };
}

/**
 * Rounds both ends of [lo, hi]·2^exponent to floats; returns the float when they agree, or null
 * when the interval is still too wide to decide.
 */
function decide(lo: bigint, hi: bigint, exponent: number): BinaryFloat | null {
  if (lo === 0n && hi === 0n) return FLOAT_ZERO;
  if (lo < 0n !== hi < 0n || lo === 0n || hi === 0n) return null;
  const negative = lo < 0n;
  const a = roundToFloat(negative, negative ? -lo : lo, exponent);
  const b = roundToFloat(negative, negative ? -hi : hi, exponent);
  return floatEquals(a, b) ? a : null;
}

/** Runs `attempt` at increasing precision until it decides the rounding. */
function ziv(
  what: string,
  attempt: (precision: number) => BinaryFloat | null,
  start = INITIAL_PRECISION,
): BinaryFloat {
  for (let p = start; p <= MAX_PRECISION; p *= 2) {
    const r = attempt(p);
    if (r !== null) return r;
  }
  throw new Error(`${what}: correct rounding not reached within ${MAX_PRECISION} bits`);
}

/** A result's log2, checked against MPFR's overflow and our size limit. */
function checkExpMagnitude(what: string, log2Result: number): void {
  if (log2Result >= MPFR_MAX_EXPONENT) throw new NanOrInfinityError();
  if (log2Result > MAX_RESULT_BINARY_EXPONENT) throw new ResultTooLargeError(what);
}

/** exp of a float, correctly rounded; FLOAT_ZERO stands for any result below 2^-849. */
function expFloat(x: BinaryFloat): BinaryFloat {
  if (x.mantissa === 0n) return FLOAT_ONE;
  const magnitudeLog2 = floatLog2(x);
  if (x.negative) {
    if (magnitudeLog2 > 10) return FLOAT_ZERO; // x < −1024
  } else if (magnitudeLog2 > 40) {
    checkExpMagnitude("exp", Number.POSITIVE_INFINITY);
  }
  const approx = Number(x.mantissa) * 2 ** x.exponent * (x.negative ? -1 : 1);
  if (approx / LN2 < DECIMAL_ZERO_LOG2 - 2) return FLOAT_ZERO;
  checkExpMagnitude("exp", approx / LN2);
  return ziv("exp", (p) => {
    const fx = toFixed(x, p);
    const e = expBounds(fx.lo, fx.hi, p);
    return decide(e.lo, e.hi, e.exponent);
  });
}

// ---------------------------------------------------------------------------------------------
// ln

/** Bounds of atanh(z) for 0 < zLo ≤ zHi ≤ 1/5 (scaled by 2^-precision). */
function atanhSmall(zLo: bigint, zHi: bigint, precision: number): Interval {
  const bigP = BigInt(precision);
  const z2Lo = (zLo * zLo) >> bigP;
  let lo = zLo;
  let power = zLo;
  for (let k = 1n; ; k++) {
    power = (power * z2Lo) >> bigP;
    if (power === 0n) break;
    lo += power / (2n * k + 1n);
  }
  const z2Hi = ceilShift(zHi * zHi, precision);
  let hi = zHi;
  power = zHi;
  for (let k = 1n; ; k++) {
    power = ceilShift(power * z2Hi, precision);
    hi += ceilDiv(power, 2n * k + 1n);
    if (power <= 1n) break;
  }
  return { lo, hi: hi + 1n }; // the tail is below the last power times z²/(1−z²) < 1/24
}

/** Bounds of ln(x) for x > 0 (scaled by 2^-precision). */
function lnBounds(x: BinaryFloat, precision: number): Interval {
  const m = x.mantissa;
  // x = f·2^j with f = m/2^t in [2/3, 4/3)
  let t = bitLength(m) - 1;
  if (3n * m > 4n << BigInt(t)) t++;
  const j = t + x.exponent;
  const scale = 1n << BigInt(t);
  const num = m - scale; // z = (f−1)/(f+1) = (m − 2^t)/(m + 2^t)
  const den = m + scale;
  let lnF: Interval = { lo: 0n, hi: 0n };
  if (num !== 0n) {
    const a = (num < 0n ? -num : num) << BigInt(precision);
    const z = atanhSmall(a / den, ceilDiv(a, den), precision);
    lnF = num > 0n ? { lo: 2n * z.lo, hi: 2n * z.hi } : { lo: -2n * z.hi, hi: -2n * z.lo };
  }
  if (j === 0) return lnF;
  const extra = bitLength(BigInt(Math.abs(j))) + 2;
  const ln2 = ln2Bounds(precision + extra);
  const jb = BigInt(j);
  const jLo = floorShift(j > 0 ? jb * ln2.lo : jb * ln2.hi, extra);
  const jHi = ceilShift(j > 0 ? jb * ln2.hi : jb * ln2.lo, extra);
  return { lo: jLo + lnF.lo, hi: jHi + lnF.hi };
}

/** ln of a float, correctly rounded. */
function lnFloat(x: BinaryFloat): BinaryFloat {
  if (x.mantissa === 0n || x.negative) throw new NanOrInfinityError();
  if (floatEquals(x, FLOAT_ONE)) return FLOAT_ZERO;
  return ziv("ln", (p) => {
    const b = lnBounds(x, p);
    return decide(b.lo, b.hi, -p);
  });
}

// ---------------------------------------------------------------------------------------------
// sqrt

/** √x of a float, correctly rounded, from an exact integer square root. */
function sqrtFloat(x: BinaryFloat): BinaryFloat {
  if (x.mantissa === 0n) return FLOAT_ZERO;
  if (x.negative) throw new NanOrInfinityError();
  let m = x.mantissa;
  let e = x.exponent;
  if (e % 2 !== 0) {
    m <<= 1n;
    e -= 1;
  }
  // scale by an even power of two so that the root has at least 55 bits
  const s = Math.max(0, Math.ceil((2 * (FLOAT_PRECISION + 2) - bitLength(m)) / 2));
  const scaled = m << BigInt(2 * s);
  const root = integerSqrt(scaled);
  return roundToFloat(false, root, e / 2 - s, root * root !== scaled);
}

// ---------------------------------------------------------------------------------------------
// pow

/** Powers computed exactly when the mantissa power has at most this many bits. */
const EXACT_POWER_BITS = 4096;

/** x^n for an integer n ≥ 1 and an odd-form float x, exactly, or null when too big to bother. */
function exactIntegerPower(x: BinaryFloat, n: bigint): BinaryFloat | null {
  if (x.mantissa === 1n) return powerOfTwo(x.negative && (n & 1n) === 1n, BigInt(x.exponent) * n);
  if (BigInt(bitLength(x.mantissa)) * n > BigInt(EXACT_POWER_BITS)) return null;
  const count = Number(n);
  const log2Result = count * floatLog2(x);
  if (log2Result < DECIMAL_ZERO_LOG2 - 2) return FLOAT_ZERO;
  checkExpMagnitude("^", log2Result);
  const negative = x.negative && (n & 1n) === 1n;
  return roundToFloat(negative, x.mantissa ** n, x.exponent * count);
}

function powerOfTwo(negative: boolean, exponent: bigint): BinaryFloat {
  if (exponent >= BigInt(MPFR_MAX_EXPONENT)) throw new NanOrInfinityError();
  if (exponent > BigInt(MAX_RESULT_BINARY_EXPONENT)) throw new ResultTooLargeError("^");
  if (exponent < BigInt(DECIMAL_ZERO_LOG2)) return FLOAT_ZERO;
  return { negative, mantissa: 1n, exponent: Number(exponent) };
}

/** The 2^k-th root of an odd-form positive float when it is a binary rational, else null. */
function exactRoot(x: BinaryFloat, k: number): BinaryFloat | null {
  let m = x.mantissa;
  let e = x.exponent;
  for (let i = 0; i < k; i++) {
    if (e % 2 !== 0) return null;
    const r = integerSqrt(m);
    if (r * r !== m) return null;
    m = r;
    e /= 2;
  }
  return { negative: false, mantissa: m, exponent: e };
}

/** x^y correctly rounded, with MPFR's special cases. */
function powFloat(base: BinaryFloat, power: BinaryFloat): BinaryFloat {
  const x = oddForm(base);
  const y = oddForm(power);
  if (y.mantissa === 0n) return FLOAT_ONE;
  if (x.mantissa === 0n) {
    if (y.negative) throw new NanOrInfinityError();
    return FLOAT_ZERO;
  }
  const yIsInteger = y.exponent >= 0;
  if (x.negative && !yIsInteger) throw new NanOrInfinityError();
  const yInteger = yIsInteger ? (y.mantissa << BigInt(y.exponent)) * (y.negative ? -1n : 1n) : 0n;
  const oddPower = yIsInteger && (yInteger & 1n) === 1n;
  const negative = x.negative && oddPower;
  const absX: BinaryFloat = { negative: false, mantissa: x.mantissa, exponent: x.exponent };
  if (x.mantissa === 1n && x.exponent === 0)
    return negative ? { ...FLOAT_ONE, negative } : FLOAT_ONE;

  // Exact cases: the result is a binary rational (possibly halfway between two floats).
  if (yIsInteger) {
    if (yInteger > 0n) {
      const exact = exactIntegerPower(x, yInteger);
      if (exact !== null) return exact;
    } else if (x.mantissa === 1n) {
      return powerOfTwo(negative, BigInt(x.exponent) * yInteger);
    }
  } else {
    // y = n/2^k with n odd, k ≥ 1
    const k = -y.exponent;
    if (x.mantissa === 1n) {
      if (x.exponent % 2 ** Math.min(k, 52) === 0 && k <= 52) {
        return powerOfTwo(
          false,
          (BigInt(x.exponent) >> BigInt(k)) * (y.negative ? -y.mantissa : y.mantissa),
        );
      }
    } else if (k <= 6 && !y.negative) {
      const root = exactRoot(absX, k);
      if (root !== null) {
        const exact = exactIntegerPower(oddForm(root), y.mantissa);
        if (exact !== null) return exact;
      }
    }
  }

  // General case: exp(y·ln|x|).
  const log2X = floatLog2(absX);
  const lnXApprox = Math.abs(log2X) > 1e-3 ? log2X * LN2 : approximateLnNearOne(absX);
  const log2T = floatLog2(y) + Math.log2(Math.abs(lnXApprox)); // log2 |y·ln x|
  const tPositive = y.negative === lnXApprox < 0;
  if (!tPositive && log2T > 10) return FLOAT_ZERO; // t < −1024
  if (tPositive && log2T > 40) checkExpMagnitude("^", Number.POSITIVE_INFINITY);
  const tApprox = (tPositive ? 1 : -1) * 2 ** log2T;
  if (tApprox / LN2 < DECIMAL_ZERO_LOG2 - 2) return FLOAT_ZERO;
  checkExpMagnitude("^", tApprox / LN2);
  const yBits = Math.max(0, Math.ceil(floatLog2(y)));
  const result = ziv("^", (p) => {
    // ln|x| at enough precision that y·ln|x| is known to 2^-p
    const lnPrecision = p + yBits + 4;
    const ln = lnBounds(absX, lnPrecision);
    const ym = y.negative ? -y.mantissa : y.mantissa;
    const a = ln.lo * ym;
    const b = ln.hi * ym;
    const [lo, hi] = ym > 0n ? [a, b] : [b, a];
    // y·ln|x| scaled by 2^-(lnPrecision − y.exponent); bring it to 2^-p, rounding outward
    const drop = lnPrecision - y.exponent - p;
    const e = expBounds(floorShift(lo, drop), ceilShift(hi, drop), p);
    return decide(e.lo, e.hi, e.exponent);
  });
  return negative ? { ...result, negative: true } : result;
}

/** ln x for x near 1 (x − 1 is exact in doubles there), approximately. */
function approximateLnNearOne(x: BinaryFloat): number {
  return Math.log1p(Number(x.mantissa) * 2 ** x.exponent - 1);
}

// ---------------------------------------------------------------------------------------------
// Pact's functions on decimals

/** `exp`: e^x. */
export function decimalExp(x: Decimal): Decimal {
  return floatToDecimal(expFloat(decimalToFloat(x)));
}

/** `ln`: natural logarithm; NanOrInfinityError for x ≤ 0 (Pact rejects those before). */
export function decimalLn(x: Decimal): Decimal {
  return floatToDecimal(lnFloat(decimalToFloat(x)));
}

/** `sqrt`; NanOrInfinityError for x < 0 (Pact rejects those before). */
export function decimalSqrt(x: Decimal): Decimal {
  return floatToDecimal(sqrtFloat(decimalToFloat(x)));
}

/** Decimal `^`: base^exponent. */
export function decimalPow(base: Decimal, exponent: Decimal): Decimal {
  return floatToDecimal(powFloat(decimalToFloat(base), decimalToFloat(exponent)));
}

/**
 * `log`: the logarithm of x in the given base, as MPFR computes it: round(round(ln x) /
 * round(ln base)). A zero base gives 0 (ln 0 = −∞); a base that rounds to 1, a zero or negative
 * argument, or a negative base give NanOrInfinityError.
 */
export function decimalLog(base: Decimal, x: Decimal): Decimal {
  const fx = decimalToFloat(x);
  const fb = decimalToFloat(base);
  if (fx.mantissa === 0n || fx.negative || fb.negative) throw new NanOrInfinityError();
  const lnX = lnFloat(fx);
  if (fb.mantissa === 0n) return floatToDecimal(FLOAT_ZERO); // finite / −∞
  const lnB = lnFloat(fb);
  if (lnB.mantissa === 0n) throw new NanOrInfinityError();
  if (lnX.mantissa === 0n) return floatToDecimal(FLOAT_ZERO);
  const quotient = roundRational(lnX.negative !== lnB.negative, lnX.mantissa, lnB.mantissa);
  return floatToDecimal({ ...quotient, exponent: quotient.exponent + lnX.exponent - lnB.exponent });
}
