import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  Decimal,
  decimalToJson,
  decimalToJsonNumber,
  decimalToPretty,
  decimalToShowText,
  divideRounded,
  MAX_DECIMAL_PLACES,
  parseNumberLiteral,
  roundingPlaces,
} from "./decimal.ts";

const d = (text: string) => Decimal.parseLiteral(text);
const raw = (x: Decimal) => [x.mantissa, x.places];

describe("Decimal construction and parsing", () => {
  it("keeps the written places of a literal", () => {
    assert.deepEqual(raw(d("1.50")), [150n, 2]);
    assert.deepEqual(raw(d("-0.05")), [-5n, 2]);
    assert.deepEqual(raw(d("0.0")), [0n, 1]);
  });
  it("accepts 255 places and rejects 256", () => {
    assert.equal(d(`0.${"1".repeat(255)}`).places, 255);
    assert.throws(() => d(`0.${"1".repeat(256)}`), /decimal precision overflow \(255 max\)/);
  });
  it("rejects text that is not a decimal literal", () => {
    for (const bad of ["1", "1.", ".5", "+1.5", "1.5e3", " 1.5", "1,5", "", "-", "1.5 "]) {
      assert.throws(() => d(bad), /not a decimal literal/, bad);
    }
  });
  it("rejects places outside 0..255 in the constructor", () => {
    assert.throws(() => new Decimal(1n, 256), /decimal places out of range 0..255: 256/);
    assert.throws(() => new Decimal(1n, -1), /out of range/);
    assert.throws(() => new Decimal(1n, 1.5), /out of range/);
  });
  it("parseNumberLiteral gives integers and decimals like Pact's number parser", () => {
    assert.equal(parseNumberLiteral("42"), 42n);
    assert.equal(parseNumberLiteral("-42"), -42n);
    assert.deepEqual(raw(parseNumberLiteral("-4.20") as Decimal), [-420n, 2]);
    assert.equal(parseNumberLiteral("4."), null);
    assert.equal(parseNumberLiteral("--4"), null);
    assert.equal(parseNumberLiteral("４"), null);
  });
  it("read follows Haskell's Read Decimal", () => {
    assert.deepEqual(raw(Decimal.read("1.50") as Decimal), [150n, 2]);
    assert.deepEqual(raw(Decimal.read("  -12.5  ") as Decimal), [-125n, 1]);
    assert.deepEqual(raw(Decimal.read("+3") as Decimal), [3n, 0]);
    assert.deepEqual(raw(Decimal.read("1.5e3") as Decimal), [1500n, 0]);
    assert.deepEqual(raw(Decimal.read("1.5E-3") as Decimal), [15n, 4]);
    assert.deepEqual(raw(Decimal.read("15e-1") as Decimal), [15n, 1]);
    for (const bad of ["1.", ".5", "1e", "1e+", "abc", "1.5x", "1 5", "", "1e-256", "- 1"]) {
      assert.equal(Decimal.read(bad), null, bad);
    }
    assert.equal(Decimal.read(`0.${"0".repeat(254)}1`)?.places, 255);
  });
});

describe("Decimal arithmetic", () => {
  it("add and sub keep the larger number of places", () => {
    assert.deepEqual(raw(d("1.50").add(d("1.0"))), [250n, 2]);
    assert.deepEqual(raw(d("1.0").add(d("1.50"))), [250n, 2]);
    assert.deepEqual(raw(d("1.5").sub(d("0.25"))), [125n, 2]);
    assert.deepEqual(raw(d("0.1").add(d("0.2"))), [3n, 1]);
  });
  it("a zero operand does not widen the other (Data.Decimal roundMax)", () => {
    assert.deepEqual(raw(d("1.5").add(d("0.000"))), [15n, 1]);
    assert.deepEqual(raw(d("0.000").add(d("1.5"))), [15n, 1]);
    assert.deepEqual(raw(d("0.00").add(d("0.000"))), [0n, 0]);
    assert.deepEqual(raw(d("0.000").sub(d("1.5"))), [-15n, 1]);
    assert.deepEqual(raw(d("1.5").sub(d("1.50"))), [0n, 2]);
  });
  it("mul is exact then normalized", () => {
    assert.deepEqual(raw(d("0.15").mul(d("0.15"))), [225n, 4]);
    assert.deepEqual(raw(d("2.50").mul(d("2.0"))), [5n, 0]);
    assert.deepEqual(raw(d("1.5").mul(Decimal.fromInteger(0n))), [0n, 0]);
  });
  it("mul rounds to 255 places with banker's rounding", () => {
    const tiny = new Decimal(5n, 200); // 5e-200
    // 5e-200 * 5e-200 = 25e-400 → rounds to 0 at 255 places
    assert.deepEqual(raw(tiny.mul(tiny)), [0n, 0]);
    const a = new Decimal(15n, 128); // 1.5e-127
    const b = new Decimal(1n, 128); // 1e-128
    // 1.5e-255 → banker's: 1.5 → 2 at the 255th place
    assert.deepEqual(raw(a.mul(b)), [2n, 255]);
    const c = new Decimal(25n, 129); // 2.5e-128
    const e = new Decimal(1n, 127); // 1e-127
    // 2.5e-255 → 2 (even)
    assert.deepEqual(raw(c.mul(e)), [2n, 255]);
  });
  it("div gives 255 places for non-terminating results", () => {
    const third = Decimal.fromInteger(1n).div(Decimal.fromInteger(3n));
    assert.deepEqual(raw(third), [BigInt("3".repeat(255)), 255]);
    const twoThirds = Decimal.fromInteger(2n).div(Decimal.fromInteger(3n));
    assert.deepEqual(raw(twoThirds), [BigInt(`${"6".repeat(254)}7`), 255]);
    assert.deepEqual(raw(d("1.0").div(d("4.0"))), [25n, 2]);
    assert.deepEqual(raw(d("10.0").div(Decimal.fromInteger(4n))), [25n, 1]);
    assert.deepEqual(raw(d("-7.5").div(d("2.5"))), [-3n, 0]);
    assert.throws(() => d("1.0").div(d("0.0")), /decimal division by zero/);
  });
  it("negate and abs", () => {
    assert.deepEqual(raw(d("1.50").negate()), [-150n, 2]);
    assert.deepEqual(raw(d("0.00").negate()), [0n, 0]);
    assert.deepEqual(raw(d("-1.50").abs()), [150n, 2]);
  });
  it("compares numerically", () => {
    assert.equal(d("1.0").compare(d("1.00")), 0);
    assert.ok(d("1.0").equals(d("1.000")));
    assert.equal(d("1.01").compare(d("1.1")), -1);
    assert.equal(d("-0.5").compare(d("-0.50001")), 1);
    assert.ok(!d("0.1").equals(d("0.10001")));
  });
  it("fromRational rounds to 255 places and strips zeros", () => {
    assert.deepEqual(raw(Decimal.fromRational(3n, 2n)), [15n, 1]);
    assert.deepEqual(raw(Decimal.fromRational(100n, 1n)), [100n, 0]);
    assert.deepEqual(raw(Decimal.fromRational(1n, 10n ** 300n)), [0n, 0]);
  });
});

describe("Decimal rounding", () => {
  it("round is banker's, floor and ceiling go down and up", () => {
    const cases: [string, bigint, bigint, bigint, bigint][] = [
      // value, round, floor, ceiling, truncate
      ["2.5", 2n, 2n, 3n, 2n],
      ["3.5", 4n, 3n, 4n, 3n],
      ["-2.5", -2n, -3n, -2n, -2n],
      ["-3.5", -4n, -4n, -3n, -3n],
      ["2.51", 3n, 2n, 3n, 2n],
      ["-0.1", 0n, -1n, 0n, 0n],
      ["7.00", 7n, 7n, 7n, 7n],
    ];
    for (const [v, r, f, c, t] of cases) {
      assert.equal(d(v).toInteger("round"), r, `round ${v}`);
      assert.equal(d(v).toInteger("floor"), f, `floor ${v}`);
      assert.equal(d(v).toInteger("ceiling"), c, `ceiling ${v}`);
      assert.equal(d(v).toInteger("truncate"), t, `truncate ${v}`);
    }
  });
  it("roundTo gives exactly the requested places", () => {
    assert.deepEqual(raw(d("100.125").roundTo(2, "round")), [10012n, 2]);
    assert.deepEqual(raw(d("100.135").roundTo(2, "round")), [10014n, 2]);
    assert.deepEqual(raw(d("100.131").roundTo(2, "ceiling")), [10014n, 2]);
    assert.deepEqual(raw(d("-100.131").roundTo(2, "floor")), [-10014n, 2]);
    assert.deepEqual(raw(d("1.5").roundTo(3, "floor")), [1500n, 3]);
    assert.deepEqual(raw(d("0.0").roundTo(3, "round")), [0n, 3]);
  });
  it("rounding precision wraps like a Word8", () => {
    assert.equal(roundingPlaces(3n), 3);
    assert.equal(roundingPlaces(-1n), 255);
    assert.equal(roundingPlaces(256n), 0);
    assert.equal(roundingPlaces(300n), 44);
  });
  it("converts to the nearest JS number", () => {
    assert.equal(d("0.1").toNumber(), 0.1);
    assert.equal(d("-2.50").toNumber(), -2.5);
    assert.equal(new Decimal(12345678901234567890123n, 3).toNumber(), 12345678901234567000);
  });
  it("divideRounded handles negative divisors", () => {
    assert.equal(divideRounded(5n, -2n, "round"), -2n);
    assert.equal(divideRounded(7n, -2n, "floor"), -4n);
    assert.equal(divideRounded(7n, -2n, "ceiling"), -3n);
  });
});

describe("Decimal display", () => {
  it("pretty form: integral values as N.0, others keep trailing zeros", () => {
    assert.equal(decimalToPretty(d("2.50")), "2.50");
    assert.equal(decimalToPretty(d("2.00")), "2.0");
    assert.equal(decimalToPretty(Decimal.fromInteger(5n)), "5.0");
    assert.equal(decimalToPretty(d("-0.05")), "-0.05");
    assert.equal(decimalToPretty(d("-3.000")), "-3.0");
    assert.equal(decimalToPretty(d("0.000")), "0.0");
  });
  it("show text appends .0 only when there are no places", () => {
    assert.equal(decimalToShowText(Decimal.fromInteger(5n)), "5.0");
    assert.equal(decimalToShowText(d("1.00")), "1.00");
    assert.equal(decimalToShowText(d("1.50")), "1.50");
    assert.equal(decimalToShowText(new Decimal(-5n, 3)), "-0.005");
  });
  it("toString is Haskell show", () => {
    assert.equal(new Decimal(1500n, 3).toString(), "1.500");
    assert.equal(new Decimal(-5n, 2).toString(), "-0.05");
    assert.equal(new Decimal(7n, 0).toString(), "7");
    assert.equal(new Decimal(0n, 2).toString(), "0.00");
  });
  it("JSON numbers follow aeson's Scientific rendering", () => {
    const cases: [string, string][] = [
      ["1.5", "1.5"],
      ["0.1", "0.1"],
      ["0.05", "5.0e-2"],
      ["12345678.5", "1.23456785e7"],
      ["1234567.5", "1234567.5"],
      ["1.0", "1"],
      ["100.00", "100"],
      ["-0.5", "-0.5"],
      ["-0.00000001", "-1.0e-8"],
      ["0.00000001", "1.0e-8"],
      ["0.0123", "1.23e-2"],
      ["99999999.9", "9.99999999e7"],
      ["9999999.9", "9999999.9"],
      ["0.0", "0"],
      ["1.50", "1.5"],
    ];
    for (const [v, json] of cases) assert.equal(decimalToJsonNumber(d(v)), json, v);
    assert.equal(decimalToJsonNumber(Decimal.fromInteger(10n ** 30n)), `1${"0".repeat(30)}`);
  });
  it('large mantissas are written as {"decimal":…}', () => {
    assert.equal(decimalToJson(new Decimal(9007199254740991n, 2)), "9.007199254740991e13");
    assert.equal(
      decimalToJson(new Decimal(9007199254740992n, 2)),
      '{"decimal":"90071992547409.92"}',
    );
    assert.equal(
      decimalToJson(new Decimal(-9007199254740992n, 0)),
      '{"decimal":"-9007199254740992"}',
    );
    assert.equal(decimalToJson(d("1.50")), "1.5");
  });
  it("exports the place limit", () => {
    assert.equal(MAX_DECIMAL_PLACES, 255);
  });
});
