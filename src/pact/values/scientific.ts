/**
 * JSON numbers as Pact reads them. aeson parses a number exactly (a `Scientific`); Pact turns
 * it into a decimal with `fromRational` (255 places, banker's rounding, trailing zeros
 * stripped), or into an integer with `round` (banker's).
 */
import { Decimal, divideRounded, isHaskellSpace, MAX_DECIMAL_PLACES, pow10 } from "./decimal.ts";
import type { JsonNumber } from "./json-text.ts";

/**
 * The largest decimal exponent of a JSON number we turn into a value (1e100000 is a
 * 100001-digit integer). Haskell has no limit but would take ever longer; a larger exponent is
 * rejected. Negative exponents need no limit: such numbers round to 0.
 */
export const MAX_JSON_NUMBER_EXPONENT = 100_000;

/** value = digits · 10^exponent */
interface Scientific {
  readonly digits: bigint;
  readonly exponent: number;
}

const NUMBER = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

function parseScientific(n: JsonNumber | number): Scientific {
  const text = typeof n === "number" ? numberText(n) : n.text;
  const m = NUMBER.exec(text);
  if (m === null) throw new RangeError(`not a JSON number: ${text}`);
  const fraction = m[3] ?? "";
  let digits = BigInt((m[2] as string) + fraction);
  if (m[1] === "-") digits = -digits;
  const expText = m[4] ?? "0";
  // Compare the exponent as a bigint so that absurd exponents cannot overflow a number.
  let exponent = BigInt(expText) - BigInt(fraction.length);
  if (digits === 0n) exponent = 0n;
  if (exponent > BigInt(MAX_JSON_NUMBER_EXPONENT)) {
    throw new RangeError(
      `JSON number exponent too large (max ${MAX_JSON_NUMBER_EXPONENT}): ${text}`,
    );
  }
  const lowest = -BigInt(MAX_DECIMAL_PLACES + 2) - BigInt(text.length);
  if (exponent < lowest) return { digits: 0n, exponent: 0 }; // rounds to 0 either way
  return { digits, exponent: Number(exponent) };
}

function numberText(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`not a finite number: ${n}`);
  return String(n);
}

/** A JSON number as a Pact decimal (exact text, or a JS number via its shortest text). */
export function jsonNumberToDecimal(n: JsonNumber | number): Decimal {
  const s = parseScientific(n);
  if (s.exponent >= 0) return Decimal.fromInteger(s.digits * pow10(s.exponent));
  // exact when it fits in 255 places (the common case): no rounding, just trailing zeros
  if (-s.exponent <= MAX_DECIMAL_PLACES) return new Decimal(s.digits, -s.exponent).normalize();
  return Decimal.fromRational(s.digits, pow10(-s.exponent));
}

/** A JSON number as a Pact integer: rounded with banker's rounding (`round` on Scientific). */
export function jsonNumberToInteger(n: JsonNumber | number): bigint {
  const s = parseScientific(n);
  if (s.exponent >= 0) return s.digits * pow10(s.exponent);
  return divideRounded(s.digits, pow10(-s.exponent), "round");
}

/**
 * Haskell's `read :: String -> Integer` (used for `{"int":"…"}`): optional white space and
 * parentheses around an optionally negated (`-`, white space allowed after it) decimal,
 * `0x` hexadecimal or `0o` octal literal. Returns null for anything else.
 */
export function readHaskellInteger(text: string): bigint | null {
  let s = trimHaskellSpace(text);
  while (s.startsWith("(") && s.endsWith(")")) s = trimHaskellSpace(s.slice(1, -1));
  let negative = false;
  if (s.startsWith("-")) {
    negative = true;
    s = trimHaskellSpace(s.slice(1));
  }
  let value: bigint;
  if (/^[0-9]+$/.test(s)) value = BigInt(s);
  else if (/^0[xX][0-9a-fA-F]+$/.test(s)) value = BigInt(`0x${s.slice(2)}`);
  else if (/^0[oO][0-7]+$/.test(s)) value = BigInt(`0o${s.slice(2)}`);
  else return null;
  return negative ? -value : value;
}

function trimHaskellSpace(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isHaskellSpace(s.charCodeAt(a))) a++;
  while (b > a && isHaskellSpace(s.charCodeAt(b - 1))) b--;
  return s.slice(a, b);
}
