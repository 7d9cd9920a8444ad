/**
 * Arithmetic, math, comparison, boolean and bitwise natives:
 * `+ - * / negate abs ^ mod round ceiling floor exp ln sqrt log dec = != < <= > >= not & | xor ~ shift`.
 *
 * Integers are bigints, decimals `Decimal`s; an integer meeting a decimal is widened to a decimal
 * with 0 places. `+` also concatenates strings and lists and merges objects (left-biased).
 */

import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { isPactValue } from "../runtime/kinds.ts";
import {
  argsError,
  arithmeticError,
  floatingPointError,
  nativeFailure,
  unknownException,
} from "../runtime/native-errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { Decimal, type RoundingMode } from "../values/decimal.ts";
import { comparePactValues, pactValueEquals } from "../values/equality.ts";
import { floorDiv, floorMod, integerShift } from "../values/integer.ts";
import {
  decimalExp,
  decimalLn,
  decimalLog,
  decimalPow,
  decimalSqrt,
  NanOrInfinityError,
  ResultTooLargeError,
} from "../values/transcendental.ts";
import type { PactObject, PactValue } from "../values/types.ts";

/** Flat cost of the bitwise natives `& | xor ~`. */
export const BITWISE_GAS = 250;

/**
 * The largest integer result (in bits) `^` and `shift` build. The reference has no limit of its
 * own (gas bounds it); without one a tiny expression could exhaust memory.
 */
export const MAX_INTEGER_RESULT_BITS = 1 << 24;

const NAN_OR_INFINITY = "Floating operation resulted in Infinity or NaN";

/** An integer or decimal argument as a decimal, or null for any other value. */
function asDecimal(v: RuntimeValue): Decimal | null {
  if (typeof v === "bigint") return Decimal.fromInteger(v);
  return v instanceof Decimal ? v : null;
}

/**
 * Applies `op` to two numbers of which at least one is a decimal (both widened to decimals);
 * null when either is not a number.
 */
function mixedDecimal(
  a: RuntimeValue,
  b: RuntimeValue,
  op: (x: Decimal, y: Decimal) => Decimal,
): Decimal | null {
  const x = asDecimal(a);
  const y = asDecimal(b);
  if (x === null || y === null) return null;
  return op(x, y);
}

/** Runs a transcendental function, turning its failures into Pact's errors. */
function transcendental(name: string, f: () => Decimal): Decimal {
  try {
    return f();
  } catch (e) {
    if (e instanceof NanOrInfinityError) throw floatingPointError(NAN_OR_INFINITY);
    if (e instanceof ResultTooLargeError) throw nativeFailure(name, e.message);
    throw e;
  }
}

function bitLength(i: bigint): number {
  return (i < 0n ? -i : i).toString(2).length;
}

function mergeObjects(l: PactObject, r: PactObject): PactObject {
  const out = new Map(l);
  for (const [k, v] of r) if (!out.has(k)) out.set(k, v);
  return out;
}

const add: NativeDef = {
  name: "+",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") return a + b;
    if (typeof a === "string" && typeof b === "string") return a + b;
    if (a instanceof Decimal || b instanceof Decimal) {
      const d = mixedDecimal(a, b, (x, y) => x.add(y));
      if (d !== null) return d;
    }
    if (Array.isArray(a) && Array.isArray(b)) return a.concat(b);
    if (a instanceof Map && b instanceof Map) return mergeObjects(a, b);
    throw argsError("+", args);
  },
};

const sub: NativeDef = {
  name: "-",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") return a - b;
    if (a instanceof Decimal || b instanceof Decimal) {
      const d = mixedDecimal(a, b, (x, y) => x.sub(y));
      if (d !== null) return d;
    }
    throw argsError("-", args);
  },
};

const mul: NativeDef = {
  name: "*",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") return a * b;
    if (a instanceof Decimal || b instanceof Decimal) {
      const d = mixedDecimal(a, b, (x, y) => x.mul(y));
      if (d !== null) return d;
    }
    throw argsError("*", args);
  },
};

const div: NativeDef = {
  name: "/",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") {
      if (b === 0n) throw arithmeticError("div by zero");
      return floorDiv(a, b);
    }
    if (a instanceof Decimal || b instanceof Decimal) {
      const x = asDecimal(a);
      const y = asDecimal(b);
      if (x !== null && y !== null) {
        if (y.isZero()) throw arithmeticError("div by zero, decimal");
        return x.div(y);
      }
    }
    throw argsError("/", args);
  },
};

const negate: NativeDef = {
  name: "negate",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "bigint") return -a;
    if (a instanceof Decimal) return a.negate();
    throw argsError("negate", args);
  },
};

const abs: NativeDef = {
  name: "abs",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "bigint") return a < 0n ? -a : a;
    if (a instanceof Decimal) return a.abs();
    throw argsError("abs", args);
  },
};

function integerPower(base: bigint, exponent: bigint): bigint {
  if (exponent < 0n) throw arithmeticError("negative exponent in integer power");
  if (exponent === 0n) return 1n;
  if (base === 0n || base === 1n) return base;
  if (base === -1n) return exponent % 2n === 0n ? 1n : -1n;
  if (BigInt(bitLength(base) - 1) * exponent > BigInt(MAX_INTEGER_RESULT_BITS)) {
    throw arithmeticError(`integer power result exceeds ${MAX_INTEGER_RESULT_BITS} bits`);
  }
  return base ** exponent;
}

const pow: NativeDef = {
  name: "^",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") return integerPower(a, b);
    if (a instanceof Decimal || b instanceof Decimal) {
      const base = asDecimal(a);
      const exponent = asDecimal(b);
      if (base !== null && exponent !== null) {
        if (base.isZero() && exponent.sign() < 0) {
          throw floatingPointError("zero to a negative power is undefined");
        }
        return transcendental("^", () => decimalPow(base, exponent));
      }
    }
    throw argsError("^", args);
  },
};

const mod: NativeDef = {
  name: "mod",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") {
      // Haskell's `mod` throws DivideByZero, which escapes the native as an unknown exception.
      if (b === 0n) throw unknownException("divide by zero");
      return floorMod(a, b);
    }
    throw argsError("mod", args);
  },
};

/** `round`/`ceiling`/`floor`: 1 argument gives an integer, `(f x prec)` a decimal with prec places. */
function rounding(name: string, mode: RoundingMode): NativeDef {
  const precName = `${name}-prec`;
  return {
    name,
    minArgs: 1,
    maxArgs: 2,
    gas: BASIC_WORK_GAS,
    impl(_ctx, args) {
      const a = args[0]!;
      if (args.length === 1) {
        if (a instanceof Decimal) return a.toInteger(mode);
        throw argsError(name, args);
      }
      const prec = args[1]!;
      if (a instanceof Decimal && typeof prec === "bigint") {
        // The reference converts the precision to a Word8, wrapping modulo 256.
        return a.roundTo(Number(BigInt.asUintN(8, prec)), mode);
      }
      throw argsError(precName, args);
    },
  };
}

function decimalFunction(
  name: string,
  gas: number,
  check: (x: Decimal) => void,
  f: (x: Decimal) => Decimal,
): NativeDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    gas,
    impl(_ctx, args) {
      const x = asDecimal(args[0]!);
      if (x === null) throw argsError(name, args);
      check(x);
      return transcendental(name, () => f(x));
    },
  };
}

const exp = decimalFunction("exp", 2000, () => {}, decimalExp);

const ln = decimalFunction(
  "ln",
  1000,
  (x) => {
    if (x.sign() <= 0) throw arithmeticError("Natural logarithm must be greater then 0");
  },
  decimalLn,
);

const sqrt = decimalFunction(
  "sqrt",
  1000,
  (x) => {
    if (x.sign() < 0) throw arithmeticError("Square root must be non-negative");
  },
  decimalSqrt,
);

function checkLogArguments(base: Decimal, x: Decimal): void {
  if (base.equals(Decimal.ONE)) throw arithmeticError("Base 1 not supported");
  if (base.sign() < 0) throw arithmeticError("Negative log base");
  if (x.sign() <= 0) throw arithmeticError("Non-positive log argument");
}

const log: NativeDef = {
  name: "log",
  minArgs: 2,
  maxArgs: 2,
  gas: 1000,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    const base = asDecimal(a);
    const x = asDecimal(b);
    if (base === null || x === null) throw argsError("log", args);
    checkLogArguments(base, x);
    const result = transcendental("log", () => decimalLog(base, x));
    // Two integers give the logarithm rounded (banker's) to an integer.
    return typeof a === "bigint" && typeof b === "bigint" ? result.toInteger("round") : result;
  },
};

const dec: NativeDef = {
  name: "dec",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "bigint") return Decimal.fromInteger(a);
    throw argsError("dec", args);
  },
};

function equality(name: string, expected: boolean): NativeDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    gas: BASIC_WORK_GAS,
    impl(_ctx, args) {
      const a = args[0]!;
      const b = args[1]!;
      if (!isPactValue(a) || !isPactValue(b)) throw argsError(name, args);
      return pactValueEquals(a as PactValue, b as PactValue) === expected;
    },
  };
}

function ordering(name: string, holds: (ordering: number) => boolean): NativeDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    gas: BASIC_WORK_GAS,
    impl(_ctx, args) {
      const a = args[0]!;
      const b = args[1]!;
      if (typeof a === "bigint" && typeof b === "bigint") return holds(a < b ? -1 : a > b ? 1 : 0);
      if (!isPactValue(a) || !isPactValue(b)) throw argsError(name, args);
      const o = comparePactValues(a, b);
      if (o === null) throw argsError(name, args);
      return holds(o);
    },
  };
}

const not: NativeDef = {
  name: "not",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "boolean") return !a;
    throw argsError("not", args);
  },
};

function bitwise(name: string, op: (a: bigint, b: bigint) => bigint): NativeDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    gas: BITWISE_GAS,
    impl(_ctx, args) {
      const a = args[0]!;
      const b = args[1]!;
      if (typeof a === "bigint" && typeof b === "bigint") return op(a, b);
      throw argsError(name, args);
    },
  };
}

const complement: NativeDef = {
  name: "~",
  minArgs: 1,
  maxArgs: 1,
  gas: BITWISE_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "bigint") return ~a;
    throw argsError("~", args);
  },
};

const shift: NativeDef = {
  name: "shift",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    const b = args[1]!;
    if (typeof a === "bigint" && typeof b === "bigint") {
      const amount = BigInt.asIntN(64, b);
      if (amount > 0n && a !== 0n && BigInt(bitLength(a)) + amount > MAX_INTEGER_RESULT_BITS) {
        throw arithmeticError(`shift result exceeds ${MAX_INTEGER_RESULT_BITS} bits`);
      }
      return integerShift(a, b);
    }
    throw argsError("shift", args);
  },
};

/** The operator and math natives, in the reference's `-b` order. */
export const OPERATOR_NATIVES: readonly NativeDef[] = [
  add,
  sub,
  mul,
  div,
  negate,
  abs,
  pow,
  not,
  equality("=", true),
  equality("!=", false),
  ordering(">", (o) => o > 0),
  ordering(">=", (o) => o >= 0),
  ordering("<", (o) => o < 0),
  ordering("<=", (o) => o <= 0),
  bitwise("&", (a, b) => a & b),
  bitwise("|", (a, b) => a | b),
  bitwise("xor", (a, b) => a ^ b),
  complement,
  shift,
  rounding("round", "round"),
  rounding("ceiling", "ceiling"),
  rounding("floor", "floor"),
  exp,
  ln,
  sqrt,
  log,
  mod,
  dec,
];
