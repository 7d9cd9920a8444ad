import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "./decimal.ts";
import {
  decimalExp,
  decimalLn,
  decimalLog,
  decimalPow,
  decimalSqrt,
  NanOrInfinityError,
  ResultTooLargeError,
} from "./transcendental.ts";

const d = (s: string) =>
  s.includes(".") ? Decimal.parseLiteral(s) : Decimal.fromInteger(BigInt(s));
const text = (x: Decimal) => x.toString();

// ---------------------------------------------------------------------------------------------
// An independent reference: decimal fixed point with 10^-DIGITS resolution, using different
// algorithms (exp by halving + Taylor, ln by Newton iteration on exp, sqrt by integer root).

const DIGITS = 400n;
const ONE = 10n ** DIGITS;
const abs = (a: bigint) => (a < 0n ? -a : a);

function expRef(x: bigint): bigint {
  let k = 0;
  let y = x;
  while (abs(y) > ONE / 4096n) {
    y /= 2n;
    k++;
  }
  let sum = ONE;
  let term = ONE;
  for (let n = 1n; ; n++) {
    term = (term * y) / ONE / n;
    if (term === 0n) break;
    sum += term;
  }
  for (let i = 0; i < k; i++) sum = (sum * sum) / ONE;
  return sum;
}

function lnRef(x: bigint): bigint {
  // initial guess from the digit count, then Halley/Newton steps y += 2(x − e^y)/(x + e^y)
  const digits = x.toString().length - Number(DIGITS);
  let y = BigInt(Math.round(digits * Math.log(10) * 1e6)) * (ONE / 1_000_000n);
  for (let i = 0; i < 12; i++) {
    const e = expRef(y);
    y += (2n * (x - e) * ONE) / (x + e);
  }
  return y;
}

function isqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** The exact value of a JS double as a fixed-point reference number (scaled by ONE). */
function doubleToRef(v: number): bigint {
  const [m, e] = doubleParts(v);
  return e >= 0 ? (m << BigInt(e)) * ONE : (m * ONE) >> BigInt(-e);
}

/** A JS double as mantissa·2^exponent, read from its bits. */
function doubleParts(v: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, v);
  const bits = view.getBigUint64(0);
  const sign = bits >> 63n ? -1n : 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  if (biased === 0) return [sign * fraction, -1074];
  return [sign * (fraction | (1n << 52n)), biased - 1075];
}

/**
 * Asserts that a decimal result is what Pact gives for a function whose true value is the
 * reference (scaled by ONE): the nearest 53-bit float, found here by plain integer rounding,
 * written as a decimal and rounded to 255 places with banker's rounding.
 */
function assertCorrectlyRounded(result: Decimal, reference: bigint, label: string): void {
  assert.equal(result.toString(), expectedDecimal(reference, label), label);
}

function bits(n: bigint): number {
  return abs(n).toString(2).length;
}

function expectedDecimal(reference: bigint, label: string): string {
  if (reference === 0n) return "0";
  const negative = reference < 0n;
  const ref = abs(reference);
  // q ≈ ref/ONE · 2^s with about 120 bits
  const s = 120 - (bits(ref) - bits(ONE));
  const q = s >= 0 ? (ref << BigInt(s)) / ONE : ref / (ONE << BigInt(-s));
  const shift = bits(q) - 53;
  let m = q >> BigInt(shift);
  const rest = q - (m << BigInt(shift));
  const half = 1n << BigInt(shift - 1);
  assert.ok(
    abs(rest - half) > 1n << BigInt(shift - 40),
    `${label}: too close to a midpoint to check`,
  );
  if (rest > half) m += 1n;
  let e = shift - s;
  if (m === 1n << 53n) {
    m >>= 1n;
    e++;
  }
  let digits: bigint;
  let places: number;
  if (e >= 0) {
    digits = m << BigInt(e);
    places = 0;
  } else {
    digits = m * 5n ** BigInt(-e);
    places = -e;
    if (places > 255) {
      const unit = 10n ** BigInt(places - 255);
      let r = digits / unit;
      const twice = 2n * (digits - r * unit);
      if (twice > unit || (twice === unit && (r & 1n) === 1n)) r += 1n;
      digits = r;
      places = 255;
    }
  }
  while (places > 0 && digits % 10n === 0n) {
    digits /= 10n;
    places--;
  }
  return new Decimal(negative ? -digits : digits, places).toString();
}

/** A reproducible stream of doubles in [lo, hi). */
function randomDoubles(seed: number, count: number, lo: number, hi: number): number[] {
  let s = seed;
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const t = (s / 2147483648 + ((s * 7919) % 1000) / 1e9) % 1;
    out.push(lo + t * (hi - lo));
  }
  return out;
}

/** The decimal that is exactly this double. */
function decimalOfDouble(v: number): Decimal {
  let [m, e] = doubleParts(v);
  while (e < 0 && m % 2n === 0n) {
    m /= 2n;
    e++;
  }
  if (e >= 0) return Decimal.fromInteger(m << BigInt(e));
  return new Decimal(m * 5n ** BigInt(-e), -e);
}

describe("transcendentals against Pact's own expected values (ops.repl)", () => {
  it("sqrt", () => {
    assert.equal(
      text(decimalSqrt(d("15"))),
      "3.87298334620741702138957407441921532154083251953125",
    );
    assert.equal(
      text(decimalSqrt(d("15.0"))),
      "3.87298334620741702138957407441921532154083251953125",
    );
    assert.equal(text(decimalSqrt(d("16.0"))), "4");
    assert.equal(text(decimalSqrt(d("0.0"))), "0");
    assert.equal(text(decimalSqrt(d("1"))), "1");
    assert.throws(() => decimalSqrt(d("-1.0")), NanOrInfinityError);
  });
  it("ln", () => {
    assert.equal(text(decimalLn(d("16"))), "2.772588722239781144907055931980721652507781982421875");
    assert.equal(
      text(decimalLn(d("15.0"))),
      "2.708050201102210063908160009304992854595184326171875",
    );
    assert.equal(text(decimalLn(d("60"))), "4.09434456222210041431708305026404559612274169921875");
    assert.equal(text(decimalLn(d("1.0"))), "0");
    assert.throws(() => decimalLn(d("0.0")), /Floating operation resulted in Infinity or NaN/);
    assert.throws(() => decimalLn(d("-1")), NanOrInfinityError);
  });
  it("exp", () => {
    assert.equal(text(decimalExp(d("0"))), "1");
    assert.equal(text(decimalExp(d("1"))), "2.718281828459045090795598298427648842334747314453125");
    assert.equal(
      text(decimalExp(d("-1.0"))),
      "0.367879441171442334024277442949824035167694091796875",
    );
    assert.equal(text(decimalExp(d("16"))), "8886110.520507872104644775390625");
    assert.equal(text(decimalExp(d("15.0"))), "3269017.3724721106700599193572998046875");
  });
  it("log", () => {
    assert.equal(
      text(decimalLog(d("4.0"), d("15"))),
      "1.953445297804259350726852062507532536983489990234375",
    );
    assert.equal(text(decimalLog(d("4.0"), d("16"))), "2");
    assert.equal(text(decimalLog(d("4.0"), d("1.0"))), "0");
    assert.equal(text(decimalLog(d("0.0"), d("16"))), "0");
    assert.equal(text(decimalLog(d("0"), d("1"))), "0");
    assert.throws(() => decimalLog(d("1.0"), d("16")), NanOrInfinityError);
    assert.throws(() => decimalLog(d("1.0"), d("1")), NanOrInfinityError);
    assert.throws(() => decimalLog(d("1.00000000000000000001"), d("16")), NanOrInfinityError);
    assert.throws(() => decimalLog(d("-4.0"), d("16")), NanOrInfinityError);
    assert.throws(() => decimalLog(d("4.0"), d("0")), NanOrInfinityError);
  });
  it("^", () => {
    const cases: [string, string, string][] = [
      ["0", "0.0", "1"],
      ["0.0", "1", "0"],
      ["0.0", "15.0", "0"],
      ["1", "-1.0", "1"],
      ["-1", "15.0", "-1"],
      ["-1.0", "16", "1"],
      ["-1", "-1.0", "-1"],
      ["4.0", "-1", "0.25"],
      ["-4.0", "-1.0", "-0.25"],
      ["4.0", "16", "4294967296"],
      ["-4.0", "15", "-1073741824"],
      ["81.0", "0.5", "9"],
      ["81", "0.5", "9"],
      ["2.5", "3", "15.625"],
    ];
    for (const [x, y, r] of cases) assert.equal(text(decimalPow(d(x), d(y))), r, `${x} ^ ${y}`);
    const x = d(
      "15.034465284692086701747761395233132973944448512421004399685858401206740385711739229018307610943234609057822959334669087436253689423614206061665462283698768757790600552385430913941421707844383369633809803959413869974997415115322843838226312287673293352959835",
    );
    const y = d(
      "3.466120406090666777582519661568003549307295836842780244500133445635634490670936927006970368136648330889718447039413255137656971927890831071689768359173260960739254160211017410322799793419223796996260056081828170546988461285168124170297427792046640116184356",
    );
    assert.equal(text(decimalPow(x, y)), "12020.67042599064370733685791492462158203125");
  });
});

describe("transcendentals are correctly rounded (independent reference)", () => {
  it("exp on random arguments in [-40, 40]", () => {
    for (const v of randomDoubles(1, 300, -40, 40)) {
      const x = decimalOfDouble(v);
      assertCorrectlyRounded(decimalExp(x), expRef(doubleToRef(v)), `exp ${v}`);
    }
  });
  it("exp on small, large and tiny arguments", () => {
    for (const v of [
      1e-10,
      -1e-10,
      2 ** -60,
      -(2 ** -60),
      0.5,
      700,
      709.78,
      1000,
      -300,
      -580,
      -587.5,
      1e-60,
      3.5e-9,
    ]) {
      assertCorrectlyRounded(decimalExp(decimalOfDouble(v)), expRef(doubleToRef(v)), `exp ${v}`);
    }
    // tiny argument: the result is exactly 1
    assert.equal(text(decimalExp(d("0.0000000000000000000001"))), "1");
    assert.equal(text(decimalExp(d("-0.0000000000000000000001"))), "1");
  });
  it("exp beyond the double range and down to zero", () => {
    const r = decimalExp(d("1000"));
    assert.equal(r.places, 0);
    assert.equal(r.mantissa.toString().length, 435);
    assert.equal(text(decimalExp(d("-600"))), "0");
    assert.equal(text(decimalExp(d("-100000"))), "0");
    assert.throws(() => decimalExp(d("800000000")), NanOrInfinityError);
    assert.throws(() => decimalExp(d("1000000")), ResultTooLargeError);
  });
  it("ln on random arguments, near 1 and far from it", () => {
    const values = [
      ...randomDoubles(2, 150, 0.001, 50),
      ...randomDoubles(3, 50, 1e6, 1e12),
      1 + 2 ** -52,
      1 - 2 ** -53,
      1 + 2 ** -30,
      0.9999999,
      2,
      0.5,
      2 ** -250,
      1e300,
    ];
    for (const v of values) {
      assertCorrectlyRounded(decimalLn(decimalOfDouble(v)), lnRef(doubleToRef(v)), `ln ${v}`);
    }
  });
  it("ln of numbers outside the double range", () => {
    const big = Decimal.fromInteger(10n ** 400n);
    assertCorrectlyRounded(decimalLn(big), lnRef(10n ** 400n * ONE), "ln 1e400");
  });
  it("sqrt on random arguments, perfect squares and huge numbers", () => {
    for (const v of [...randomDoubles(4, 200, 0, 1e6), 2, 3, 2 ** -251, 1e300]) {
      const ref = isqrt(doubleToRef(v) * ONE);
      assertCorrectlyRounded(decimalSqrt(decimalOfDouble(v)), ref, `sqrt ${v}`);
    }
    assert.equal(text(decimalSqrt(d("144.0"))), "12");
    assert.equal(text(decimalSqrt(d("0.25"))), "0.5");
    assert.equal(text(decimalSqrt(Decimal.fromInteger(2n ** 800n))), (2n ** 400n).toString());
    // 10^400 is first rounded to 53 bits, so its root is not 10^200
    assert.equal(
      text(decimalSqrt(Decimal.fromInteger(10n ** 400n))).slice(0, 20),
      "99999999999999996973",
    );
  });
  it("sqrt of the decimal is taken after rounding it to 53 bits", () => {
    // 2^53 + 1 rounds to 2^53 first
    assert.equal(text(decimalSqrt(d("9007199254740993"))), "94906265.62425155937671661376953125");
  });
  it("^ on random arguments", () => {
    const xs = randomDoubles(5, 60, 0.01, 20);
    const ys = randomDoubles(6, 60, -8, 8);
    for (let i = 0; i < xs.length; i++) {
      const x = xs[i] as number;
      const y = ys[i] as number;
      const ref = expRef((doubleToRef(y) * lnRef(doubleToRef(x))) / ONE);
      assertCorrectlyRounded(
        decimalPow(decimalOfDouble(x), decimalOfDouble(y)),
        ref,
        `${x} ^ ${y}`,
      );
    }
  });
  it("^ agrees with sqrt for y = 0.5 and is exact for binary rational results", () => {
    for (const v of randomDoubles(7, 50, 0, 1000)) {
      const x = decimalOfDouble(v);
      assert.equal(text(decimalPow(x, d("0.5"))), text(decimalSqrt(x)), `${v}`);
    }
    assert.equal(text(decimalPow(d("2"), d("-3"))), "0.125");
    assert.equal(text(decimalPow(d("2"), d("0.5"))), text(decimalSqrt(d("2"))));
    assert.equal(text(decimalPow(d("16"), d("0.25"))), "2");
    assert.equal(text(decimalPow(d("4096"), d("0.75"))), "512");
    assert.equal(text(decimalPow(d("0.0625"), d("-0.25"))), "2");
    assert.equal(text(decimalPow(d("6561"), d("0.125"))), "3");
    assert.equal(text(decimalPow(d("-3"), d("3"))), "-27");
    assert.equal(text(decimalPow(d("-2"), d("-3"))), "-0.125");
  });
  it("^ rounds exact halfway results to even", () => {
    // (2^27 − 1)^2 = 2^54 − 2^28 + 1 lies halfway between two floats
    assert.equal(text(decimalPow(d("134217727"), d("2"))), "18014398241046528");
    // (2^27 + 3)^2 = 2^54 + 3·2^28 + 9 → 55 bits, ordinary rounding
    assert.equal(text(decimalPow(d("134217731"), d("2"))), "18014399314788360");
  });
  it("^ raises NaN and infinity errors like MPFR", () => {
    assert.throws(() => decimalPow(d("-2.0"), d("0.5")), NanOrInfinityError);
    assert.throws(() => decimalPow(d("0.0"), d("-1")), NanOrInfinityError);
    assert.throws(() => decimalPow(d("10.0"), d("1000000000")), NanOrInfinityError);
    assert.throws(() => decimalPow(d("10.0"), d("1000000")), ResultTooLargeError);
    assert.equal(text(decimalPow(d("10.0"), d("-1000000"))), "0");
    assert.equal(text(decimalPow(d("0.5"), d("100000000000000000000"))), "0");
  });
  it("log rounds ln x, ln b and their quotient", () => {
    for (const [b, x] of [
      [2, 10],
      [10, 2],
      [3, 81],
      [0.5, 7],
      [7.25, 0.001],
    ] as const) {
      const lnX = decimalLn(decimalOfDouble(x));
      const lnB = decimalLn(decimalOfDouble(b));
      // the quotient of the two rounded logarithms, correctly rounded
      const q = Number(lnX.toString()) / Number(lnB.toString());
      assert.equal(
        text(decimalLog(decimalOfDouble(b), decimalOfDouble(x))),
        text(decimalOfDouble(q).normalize()),
        `log ${b} ${x}`,
      );
    }
    assert.equal(text(decimalLog(d("2"), d("1024"))), "10");
    assert.equal(
      text(decimalLog(d("10"), d("1000"))),
      "2.999999999999999555910790149937383830547332763671875",
    );
  });
});
