import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call, testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import { type PactValue, type TableRef, UNIT } from "../values/types.ts";
import { MAX_INTEGER_RESULT_BITS, OPERATOR_NATIVES } from "./operators.ts";

const native = (name: string): NativeDef => {
  const n = OPERATOR_NATIVES.find((d) => d.name === name);
  if (n === undefined) throw new Error(`no native ${name}`);
  return n;
};
const d = (text: string) => Decimal.parseLiteral(text);
const run = (name: string, ...args: RuntimeValue[]) => call(native(name), ...args);
/** Runs and shows a decimal result in Haskell `show` form. */
const dec = (name: string, ...args: RuntimeValue[]): string => {
  const r = run(name, ...args);
  assert.ok(r instanceof Decimal, `expected a decimal, got ${String(r)}`);
  return r.toString();
};
const fails = (message: string, name: string, ...args: RuntimeValue[]) =>
  assert.throws(
    () => run(name, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );

describe("+", () => {
  it("adds integers, decimals and mixed numbers", () => {
    assert.equal(run("+", 2n, 2n), 4n);
    assert.equal(dec("+", 1n, d("3.0")), "4.0");
    assert.equal(dec("+", d("1.50"), 1n), "2.50");
    assert.equal(dec("+", d("1.2"), d("5.8")), "7.0");
  });
  it("concatenates strings and lists", () => {
    assert.equal(run("+", "foo", "bar"), "foobar");
    assert.deepEqual(run("+", [1n, 2n], [3n]), [1n, 2n, 3n]);
  });
  it("merges objects, the left one winning", () => {
    const r = run(
      "+",
      new Map([["a", 4n]]),
      new Map<string, PactValue>([
        ["a", true],
        ["b", "x"],
      ]),
    );
    assert.deepEqual(
      r,
      new Map<string, PactValue>([
        ["a", 4n],
        ["b", "x"],
      ]),
    );
  });
  it("rejects other combinations with the argument types", () => {
    fails(
      "Type error: failed to call native function + with argument(s) of type(s): integer, string",
      "+",
      2n,
      "hello",
    );
    fails(
      "Type error: failed to call native function + with argument(s) of type(s): object, decimal",
      "+",
      new Map(),
      d("1.0"),
    );
    fails(
      "Type error: failed to call native function + with argument(s) of type(s): closure, unit",
      "+",
      testFn("f", 1, () => 1n),
      UNIT,
    );
  });
});

describe("- * /", () => {
  it("subtracts and multiplies", () => {
    assert.equal(run("-", 0n, 2n), -2n);
    assert.equal(dec("-", d("3.5"), 8n), "-4.5");
    assert.equal(dec("-", 4n, d("0.5")), "3.5");
    assert.equal(run("*", 2n, 3n), 6n);
    assert.equal(dec("*", d("1.5"), d("12.0")), "18");
    assert.equal(dec("*", 5n, d("0.5")), "2.5");
  });
  it("divides integers rounding toward negative infinity", () => {
    assert.equal(run("/", 11n, 5n), 2n);
    assert.equal(run("/", -7n, 2n), -4n);
  });
  it("divides decimals to 255 places, banker's rounding, normalized", () => {
    assert.equal(dec("/", d("15.0"), d("2.5")), "6");
    assert.equal(dec("/", 7n, d("2.0")), "3.5");
    assert.equal(dec("/", 2n, d("3.0")), `0.${"6".repeat(254)}7`);
  });
  it("reports division by zero", () => {
    fails("Arithmetic exception: div by zero", "/", 11n, 0n);
    fails("Arithmetic exception: div by zero, decimal", "/", d("11.0"), d("0.0"));
    fails("Arithmetic exception: div by zero, decimal", "/", 1n, d("0.00"));
  });
  it("rejects strings", () => {
    fails(
      "Type error: failed to call native function - with argument(s) of type(s): string, string",
      "-",
      "a",
      "b",
    );
  });
});

describe("negate abs dec mod", () => {
  it("computes them", () => {
    assert.equal(run("negate", 5n), -5n);
    assert.equal(dec("negate", d("1.50")), "-1.50");
    assert.equal(run("abs", -3n), 3n);
    assert.equal(dec("abs", d("-10.23")), "10.23");
    assert.equal(dec("dec", -10n), "-10");
    assert.equal(run("mod", 8n, 5n), 3n);
    assert.equal(run("mod", -7n, 2n), 1n);
    assert.equal(run("mod", 7n, -2n), -1n);
  });
  it("rejects wrong types and mod by zero", () => {
    fails(
      "Type error: failed to call native function dec with argument(s) of type(s): decimal",
      "dec",
      d("1.0"),
    );
    fails(
      "Type error: failed to call native function mod with argument(s) of type(s): decimal, integer",
      "mod",
      d("1.0"),
      2n,
    );
    fails("Unknown exception: divide by zero", "mod", 1n, 0n);
  });
});

describe("^", () => {
  it("raises integers to non-negative integer powers", () => {
    assert.equal(run("^", 3n, 4n), 81n);
    assert.equal(run("^", 0n, 0n), 1n);
    assert.equal(run("^", -1n, 15n), -1n);
    assert.equal(run("^", 1n, 10n ** 30n), 1n);
    fails("Arithmetic exception: negative exponent in integer power", "^", 1n, -1n);
  });
  it("uses the correctly rounded double for decimals", () => {
    assert.equal(dec("^", d("81.0"), d("0.5")), "9");
    assert.equal(dec("^", 81n, d("0.5")), "9");
    assert.equal(dec("^", d("2.5"), 3n), "15.625");
    assert.equal(dec("^", d("4.0"), -1n), "0.25");
    assert.equal(dec("^", d("-4.0"), 15n), "-1073741824");
    assert.equal(dec("^", 1n, d("-1.0")), "1");
  });
  it("rejects zero to a negative power and oversized results", () => {
    fails("Floating point error: zero to a negative power is undefined", "^", 0n, d("-1.0"));
    fails("Floating point error: zero to a negative power is undefined", "^", d("0.0"), -1n);
    fails(
      `Arithmetic exception: integer power result exceeds ${MAX_INTEGER_RESULT_BITS} bits`,
      "^",
      2n,
      BigInt(MAX_INTEGER_RESULT_BITS) + 1n,
    );
  });
});

describe("round ceiling floor", () => {
  it("round to integers, banker's for round", () => {
    assert.equal(run("round", d("100.1")), 100n);
    assert.equal(run("round", d("2.5")), 2n);
    assert.equal(run("round", d("3.5")), 4n);
    assert.equal(run("round", d("-2.5")), -2n);
    assert.equal(run("ceiling", d("100.001")), 101n);
    assert.equal(run("floor", d("-0.5")), -1n);
  });
  it("round to a precision, keeping exactly that many places", () => {
    assert.equal(dec("round", d("100.1239"), 3n), "100.124");
    assert.equal(dec("ceiling", d("101.9401"), 2n), "101.95");
    assert.equal(dec("floor", d("100.19"), 1n), "100.1");
    assert.equal(dec("round", d("1.5"), 3n), "1.500");
    // The precision is taken modulo 256, as the reference's Word8 conversion does.
    assert.equal(dec("round", d("1.25"), 257n), "1.2");
  });
  it("reject integers, naming the overload", () => {
    fails(
      "Type error: failed to call native function round with argument(s) of type(s): integer",
      "round",
      1n,
    );
    fails(
      "Type error: failed to call native function floor-prec with argument(s) of type(s): decimal, decimal",
      "floor",
      d("1.5"),
      d("1.0"),
    );
  });
});

describe("exp ln sqrt log", () => {
  it("give the exact decimal of the correctly rounded double", () => {
    assert.equal(dec("sqrt", 15n), "3.87298334620741702138957407441921532154083251953125");
    assert.equal(dec("sqrt", 16n), "4");
    assert.equal(dec("ln", 16n), "2.772588722239781144907055931980721652507781982421875");
    assert.equal(dec("exp", 1n), "2.718281828459045090795598298427648842334747314453125");
    assert.equal(dec("exp", d("0.0")), "1");
    assert.equal(
      dec("log", d("4.0"), 15n),
      "1.953445297804259350726852062507532536983489990234375",
    );
  });
  it("returns an integer log for two integers", () => {
    assert.equal(run("log", 2n, 1024n), 10n);
    assert.equal(run("log", 0n, 16n), 0n);
    assert.equal(dec("log", d("0.0"), 16n), "0");
  });
  it("rejects arguments outside the domain", () => {
    fails("Arithmetic exception: Natural logarithm must be greater then 0", "ln", 0n);
    fails("Arithmetic exception: Square root must be non-negative", "sqrt", d("-1.0"));
    fails("Arithmetic exception: Base 1 not supported", "log", d("1.0"), 16n);
    fails("Arithmetic exception: Negative log base", "log", -4n, 16n);
    fails("Arithmetic exception: Non-positive log argument", "log", 4n, 0n);
    fails(
      "Floating point error: Floating operation resulted in Infinity or NaN",
      "exp",
      420n ** 420n,
    );
    fails(
      "Type error: failed to call native function sqrt with argument(s) of type(s): string",
      "sqrt",
      "x",
    );
  });
});

describe("= and !=", () => {
  it("compare structurally", () => {
    assert.equal(run("=", 10n, 10n), true);
    assert.equal(run("=", d("1.0"), d("1.00")), true);
    assert.equal(run("=", 10n, d("10.0")), false);
    assert.equal(run("=", [1n, 2n], [1n, 2n]), true);
    assert.equal(run("=", [1n, 2n], [2n, 1n]), false);
    assert.equal(run("=", new Map([["a", 1n]]), new Map([["a", 1n]])), true);
    assert.equal(
      run(
        "=",
        new Map([["a", 1n]]),
        new Map([
          ["a", 1n],
          ["b", 2n],
        ]),
      ),
      false,
    );
    assert.equal(run("=", UNIT, UNIT), true);
    assert.equal(run("!=", "hello", "goodbye"), true);
    assert.equal(run("!=", new PactTime(5n), new PactTime(5n)), false);
  });
  it("compare guards, modrefs and cap tokens by their contents", () => {
    const ks = (keys: string[]) => ({ kind: "keyset", keys, pred: "keys-all" }) as const;
    assert.equal(run("=", ks(["a"]), ks(["a"])), true);
    assert.equal(run("=", ks(["a"]), ks(["b"])), false);
    const mr = (name: string, ifaces: string[]) => ({
      kind: "modref" as const,
      module: { namespace: null, name },
      interfaces: ifaces.map((n) => ({ namespace: null, name: n })),
    });
    assert.equal(run("=", mr("mx", ["ix"]), mr("mx", [])), true);
    assert.equal(run("=", mr("mx", []), mr("my", [])), false);
    const table: TableRef = {
      kind: "table",
      module: { namespace: null, name: "m" },
      name: "t",
      moduleHash: "h",
      schema: { name: "m.s", fields: new Map() },
    };
    assert.equal(run("=", table, table), false);
  });
  it("reject functions", () => {
    fails(
      "Type error: failed to call native function = with argument(s) of type(s): closure, integer",
      "=",
      testFn("f", 1, () => 1n),
      1n,
    );
  });
});

describe("< <= > >=", () => {
  it("order numbers, strings, bools and times of one kind", () => {
    assert.equal(run("<", 10n, 11n), true);
    assert.equal(run("<=", d("11.0"), d("11.00")), true);
    assert.equal(run(">", "b", "a"), true);
    assert.equal(run(">=", "ba", "a"), true);
    assert.equal(run("<", false, true), true);
    assert.equal(run(">", new PactTime(2n), new PactTime(1n)), true);
    assert.equal(run("<=", UNIT, UNIT), true);
  });
  it("order strings by code point", () => {
    // U+FF5E is below U+1F600 as code points, above its surrogates as UTF-16 units.
    assert.equal(run("<", "\uff5e", "\u{1f600}"), true);
  });
  it("reject mixed kinds and non-literals", () => {
    fails(
      "Type error: failed to call native function < with argument(s) of type(s): decimal, integer",
      "<",
      d("10.0"),
      11n,
    );
    fails(
      "Type error: failed to call native function >= with argument(s) of type(s): list, list",
      ">=",
      [],
      [],
    );
  });
});

describe("not and bitwise", () => {
  it("computes them like Haskell's Integer", () => {
    assert.equal(run("not", false), true);
    assert.equal(run("&", 5n, -7n), 1n);
    assert.equal(run("|", 5n, -7n), -3n);
    assert.equal(run("xor", 5n, -7n), -4n);
    assert.equal(run("~", 15n), -16n);
    assert.equal(run("shift", -255n, 8n), -65280n);
    assert.equal(run("shift", -255n, -1n), -128n);
    assert.equal(run("shift", 255n, -1000n), 0n);
  });
  it("rejects non-integers and oversized shifts", () => {
    fails(
      "Type error: failed to call native function not with argument(s) of type(s): integer",
      "not",
      1n,
    );
    fails(
      "Type error: failed to call native function xor with argument(s) of type(s): decimal, integer",
      "xor",
      d("1.0"),
      1n,
    );
    fails(
      `Arithmetic exception: shift result exceeds ${MAX_INTEGER_RESULT_BITS} bits`,
      "shift",
      1n,
      BigInt(MAX_INTEGER_RESULT_BITS),
    );
  });
});
