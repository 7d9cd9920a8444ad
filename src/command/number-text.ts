/**
 * Exact reading of JSON number text (`-12.50e-3`), without going through a double.
 * Used to check that integer fields hold integers and to bound decimal fields.
 */

/** value = (negative ? -1 : 1) × digits × 10^exponent; `digits` has no leading zeros ("" for zero). */
export interface NumberParts {
  readonly negative: boolean;
  readonly digits: string;
  readonly exponent: number;
}

const NUMBER_TEXT = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/;

/** Splits number text (JSON grammar, leading zeros tolerated); `undefined` when it is not a number. */
export function numberParts(text: string): NumberParts | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign, whole = "", fraction = "", exponentText = "0"] = match;
  const exponent = Number(exponentText);
  if (!Number.isSafeInteger(exponent)) return undefined;
  let digits = (whole + fraction).replace(/^0+/, "");
  let scale = exponent - fraction.length;
  // Move trailing zeros into the exponent so every value has one shape.
  const trimmed = digits.replace(/0+$/, "");
  scale += digits.length - trimmed.length;
  digits = trimmed;
  return { negative: sign === "-" && digits !== "", digits, exponent: digits === "" ? 0 : scale };
}

/** Digits of the longest integer that can be safe; anything longer is out of range unexpanded. */
const SAFE_INTEGER_DIGITS = String(Number.MAX_SAFE_INTEGER).length;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The safe JavaScript integer a number text denotes (`1e3` and `1000.0` included), or why not:
 * `"not-integer"` (a fraction, or not a number) or `"out-of-range"` (beyond ±(2^53 − 1)).
 */
export function readSafeInteger(text: string): number | "not-integer" | "out-of-range" {
  const parts = numberParts(text);
  if (parts === undefined || parts.exponent < 0) return "not-integer";
  const exact = exactInteger(text, SAFE_INTEGER_DIGITS);
  if (exact === undefined || exact > MAX_SAFE || exact < -MAX_SAFE) return "out-of-range";
  return Number(exact);
}

/**
 * The exact integer a number text denotes, or `undefined` when it has a fractional part, is not a
 * number, or has more than `maxDigits` digits (which also keeps `1e999999999` from being expanded).
 */
export function exactInteger(text: string, maxDigits: number): bigint | undefined {
  const parts = numberParts(text);
  if (parts === undefined || parts.exponent < 0) return undefined;
  if (parts.digits.length + parts.exponent > maxDigits) return undefined;
  const magnitude = BigInt(parts.digits === "" ? "0" : parts.digits + "0".repeat(parts.exponent));
  return parts.negative ? -magnitude : magnitude;
}

/**
 * Most digits before the decimal point of a decimal field such as `gasPrice`. Pact has no bound;
 * ours keeps `1e999999999` from becoming a billion-digit number. (More than 255 places is fine:
 * Pact rounds those away.)
 */
export const MAX_DECIMAL_INTEGER_DIGITS = 255;

/** Whether number text is a decimal Braid accepts in a decimal field. */
export function isDecimalInRange(text: string): boolean {
  const parts = numberParts(text);
  return parts !== undefined && parts.digits.length + parts.exponent <= MAX_DECIMAL_INTEGER_DIGITS;
}
