/**
 * Pact decimals, with the semantics of Haskell's `Data.Decimal` (package Decimal 0.5) as Pact
 * uses it: an unbounded integer mantissa scaled by 10^-places, 0 ≤ places ≤ 255.
 *
 * - `+`/`-` keep the larger number of places (1.50 + 1.0 = 2.50), except that a zero operand
 *   does not widen the other one, and zero ± zero is the bare `0` (0 places).
 * - `*`/`/` take the exact rational result, round it to 255 places (banker's rounding) and
 *   strip trailing zeros.
 * - Equality and ordering are numeric (1.0 = 1.00).
 */

/** The most decimal places a Pact decimal can carry (Data.Decimal stores places in a Word8). */
export const MAX_DECIMAL_PLACES = 255;

const POW10_CACHE_LIMIT = 1024;
const pow10Cache: bigint[] = [1n];

/** 10^n as a bigint (cached for the exponents decimal arithmetic needs). */
export function pow10(n: number): bigint {
  if (n < pow10Cache.length) return pow10Cache[n] as bigint;
  if (n >= POW10_CACHE_LIMIT) return 10n ** BigInt(n);
  let last = pow10Cache[pow10Cache.length - 1] as bigint;
  while (pow10Cache.length <= n) {
    last *= 10n;
    pow10Cache.push(last);
  }
  return last;
}

/** Rounding rules for {@link Decimal.roundTo}, named after the Haskell functions Pact uses. */
export type RoundingMode = "round" | "floor" | "ceiling" | "truncate";

/** n / d rounded by `mode` (d > 0 or d < 0, not 0); `round` is banker's (half to even). */
export function divideRounded(n: bigint, d: bigint, mode: RoundingMode): bigint {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const q = n / d; // truncates toward zero
  const r = n - q * d;
  if (r === 0n) return q;
  switch (mode) {
    case "truncate":
      return q;
    case "floor":
      return n < 0n ? q - 1n : q;
    case "ceiling":
      return n < 0n ? q : q + 1n;
    case "round": {
      const twice = (r < 0n ? -r : r) * 2n;
      if (twice < d) return q;
      if (twice > d || (q & 1n) === 1n) return n < 0n ? q - 1n : q + 1n;
      return q;
    }
  }
}

export class Decimal {
  readonly mantissa: bigint;
  readonly places: number;

  constructor(mantissa: bigint, places: number) {
    if (!Number.isInteger(places) || places < 0 || places > MAX_DECIMAL_PLACES) {
      throw new RangeError(`decimal places out of range 0..${MAX_DECIMAL_PLACES}: ${places}`);
    }
    this.mantissa = mantissa;
    this.places = places;
  }

  static readonly ZERO = new Decimal(0n, 0);
  static readonly ONE = new Decimal(1n, 0);

  static fromInteger(i: bigint): Decimal {
    return new Decimal(i, 0);
  }

  /**
   * The decimal nearest to the rational n/d: rounded to 255 places (banker's), trailing zeros
   * stripped. This is Haskell's `fromRational :: Rational -> Decimal`.
   */
  static fromRational(n: bigint, d: bigint): Decimal {
    if (d === 0n) throw new RangeError("decimal division by zero");
    return normalized(divideRounded(n * pow10(MAX_DECIMAL_PLACES), d, "round"), MAX_DECIMAL_PLACES);
  }

  /**
   * Parses Pact's numeric literal with a fraction, `-?[0-9]+\.[0-9]+`; the places are the
   * written digits (`1.50` has 2). Errors on any other text or on more than 255 places.
   */
  static parseLiteral(text: string): Decimal {
    const n = parseNumberLiteral(text);
    if (!(n instanceof Decimal))
      throw new SyntaxError(`not a decimal literal: ${JSON.stringify(text)}`);
    return n;
  }

  /**
   * Haskell's `read :: String -> Decimal` (used for `{"decimal":"…"}` in JSON): optional
   * surrounding white space, optional sign, digits, optional `.digits`, optional exponent.
   * Returns null when the text does not parse or needs more than 255 places.
   */
  static read(text: string): Decimal | null {
    return readHaskellDecimal(text);
  }

  isZero(): boolean {
    return this.mantissa === 0n;
  }

  /** -1, 0 or 1. */
  sign(): number {
    return this.mantissa > 0n ? 1 : this.mantissa < 0n ? -1 : 0;
  }

  /** True when the value has no fractional part (whatever the number of places). */
  isIntegral(): boolean {
    return this.places === 0 || this.mantissa % pow10(this.places) === 0n;
  }

  add(other: Decimal): Decimal {
    if (other.mantissa === 0n) return this.mantissa === 0n ? Decimal.ZERO : this;
    if (this.mantissa === 0n) return other;
    const p = this.places;
    const q = other.places;
    if (p === q) return new Decimal(this.mantissa + other.mantissa, p);
    if (p > q) return new Decimal(this.mantissa + other.mantissa * pow10(p - q), p);
    return new Decimal(this.mantissa * pow10(q - p) + other.mantissa, q);
  }

  sub(other: Decimal): Decimal {
    if (other.mantissa === 0n) return this.mantissa === 0n ? Decimal.ZERO : this;
    if (this.mantissa === 0n) return new Decimal(-other.mantissa, other.places);
    const p = this.places;
    const q = other.places;
    if (p === q) return new Decimal(this.mantissa - other.mantissa, p);
    if (p > q) return new Decimal(this.mantissa - other.mantissa * pow10(p - q), p);
    return new Decimal(this.mantissa * pow10(q - p) - other.mantissa, q);
  }

  mul(other: Decimal): Decimal {
    const m = this.mantissa * other.mantissa;
    const p = this.places + other.places;
    if (p <= MAX_DECIMAL_PLACES) return normalized(m, p);
    return normalized(divideRounded(m, pow10(p - MAX_DECIMAL_PLACES), "round"), MAX_DECIMAL_PLACES);
  }

  /** Throws on division by zero (Pact reports it before calling this). */
  div(other: Decimal): Decimal {
    if (other.mantissa === 0n) throw new RangeError("decimal division by zero");
    // (a / 10^p) / (b / 10^q) * 10^255 = a * 10^(255 + q - p) / b, and 255 + q - p ≥ 0.
    const shift = MAX_DECIMAL_PLACES + other.places - this.places;
    const n = this.mantissa * pow10(shift);
    return normalized(divideRounded(n, other.mantissa, "round"), MAX_DECIMAL_PLACES);
  }

  /** `negate`; as in Data.Decimal (0 - x), a zero comes back as the bare `0`. */
  negate(): Decimal {
    return this.mantissa === 0n ? Decimal.ZERO : new Decimal(-this.mantissa, this.places);
  }

  abs(): Decimal {
    return this.mantissa < 0n ? new Decimal(-this.mantissa, this.places) : this;
  }

  /** Numeric comparison: -1, 0 or 1. */
  compare(other: Decimal): number {
    const p = this.places;
    const q = other.places;
    let a = this.mantissa;
    let b = other.mantissa;
    if (p > q) b *= pow10(p - q);
    else if (q > p) a *= pow10(q - p);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Numeric equality (1.0 equals 1.00). */
  equals(other: Decimal): boolean {
    if (this.places === other.places) return this.mantissa === other.mantissa;
    return this.compare(other) === 0;
  }

  /**
   * Data.Decimal's `roundTo' f places`: the value rounded to `places` places with `mode`
   * (`round` is banker's); the result has exactly that many places, trailing zeros included.
   */
  roundTo(places: number, mode: RoundingMode): Decimal {
    if (places === this.places) return this;
    if (places > this.places)
      return new Decimal(this.mantissa * pow10(places - this.places), places);
    return new Decimal(divideRounded(this.mantissa, pow10(this.places - places), mode), places);
  }

  /** The value rounded to an integer with `mode` (`round` is banker's: 2.5 → 2, 3.5 → 4). */
  toInteger(mode: RoundingMode): bigint {
    if (this.places === 0) return this.mantissa;
    return divideRounded(this.mantissa, pow10(this.places), mode);
  }

  /** The same value with trailing zeros removed (Data.Decimal's `normalizeDecimal`). */
  normalize(): Decimal {
    return normalized(this.mantissa, this.places);
  }

  /** The nearest JS number (correctly rounded). */
  toNumber(): number {
    return Number(this.toString());
  }

  /** Haskell `show`: all places written, e.g. `1.50`, `-0.05`, `7`. */
  toString(): string {
    return showDecimal(this.mantissa, this.places);
  }
}

/**
 * The places `(round x prec)`, `(floor x prec)` and `(ceiling x prec)` round to: Pact converts
 * the integer precision to a Word8, so it wraps (-1 → 255, 256 → 0, 300 → 44).
 */
export function roundingPlaces(precision: bigint): number {
  return Number(BigInt.asUintN(8, precision));
}

/** Builds mantissa·10^-places with trailing zeros removed (0 becomes 0 with no places). */
function normalized(m: bigint, places: number): Decimal {
  if (m === 0n) return Decimal.ZERO;
  if (places === 0 || m % 10n !== 0n) return new Decimal(m, places);
  // strip zeros in shrinking chunks: results rounded to 255 places often end in hundreds
  for (let chunk = 128; chunk >= 1; chunk >>= 1) {
    const unit = pow10(chunk);
    while (places >= chunk && m % unit === 0n) {
      m /= unit;
      places -= chunk;
    }
  }
  return new Decimal(m, places);
}

function showDecimal(m: bigint, places: number): string {
  const negative = m < 0n;
  const digits = (negative ? -m : m).toString();
  const sign = negative ? "-" : "";
  if (places === 0) return sign + digits;
  const padded = digits.length <= places ? "0".repeat(places + 1 - digits.length) + digits : digits;
  const cut = padded.length - places;
  return `${sign}${padded.slice(0, cut)}.${padded.slice(cut)}`;
}

/** The integer digits of a decimal known to be integral (any number of places). */
function integralPart(d: Decimal): bigint {
  return d.places === 0 ? d.mantissa : d.mantissa / pow10(d.places);
}

/**
 * Pact's REPL / pretty form: an integral value prints as `N.0` (whatever its places), any other
 * as Haskell `show`, which keeps trailing zeros (`2.50`).
 */
export function decimalToPretty(d: Decimal): string {
  if (d.isIntegral()) return `${integralPart(d)}.0`;
  return d.toString();
}

/** The `show`/`format` text (`pactValueToText`): `.0` is appended only when places is 0. */
export function decimalToShowText(d: Decimal): string {
  return d.places === 0 ? `${d.mantissa}.0` : d.toString();
}

/**
 * The decimal as aeson writes a `Scientific` number: integral values as plain integers
 * (`1`, `100`); others in `Data.Scientific`'s generic format — fixed notation when the value is
 * 0.d₁d₂…·10^e with 0 ≤ e ≤ 7 (`1.5`, `0.1`), otherwise exponent notation (`5.0e-2`,
 * `1.23456785e7`).
 */
export function decimalToJsonNumber(d: Decimal): string {
  if (d.isIntegral()) return integralPart(d).toString();
  const n = d.normalize();
  const negative = n.mantissa < 0n;
  const digits = (negative ? -n.mantissa : n.mantissa).toString();
  const sign = negative ? "-" : "";
  // value = 0.digits × 10^e
  const e = digits.length - n.places;
  if (e >= 0 && e <= 7) {
    if (e === 0) return `${sign}0.${digits}`;
    return `${sign}${digits.slice(0, e)}.${digits.slice(e)}`;
  }
  const rest = digits.length > 1 ? digits.slice(1) : "0";
  return `${sign}${digits[0]}.${rest}e${e - 1}`;
}

/** The largest mantissa magnitude written as a bare JSON number (2^53 − 1). */
export const MAX_SAFE_JSON_MANTISSA = 9007199254740991n;

/**
 * The decimal in Pact's JSON encoding: a bare number when |mantissa| ≤ 2^53 − 1, otherwise
 * `{"decimal":"<show>"}`.
 */
export function decimalToJson(d: Decimal): string {
  const m = d.mantissa;
  if (m <= MAX_SAFE_JSON_MANTISSA && m >= -MAX_SAFE_JSON_MANTISSA) return decimalToJsonNumber(d);
  return `{"decimal":"${d.toString()}"}`;
}

function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Pact's number parser (`parseNumLiteral`, also used by `read-decimal`/`read-integer` on
 * strings): `-?[0-9]+` gives an integer, `-?[0-9]+\.[0-9]+` a decimal keeping its written places.
 * Returns null for other text; throws when a decimal has more than 255 places.
 */
export function parseNumberLiteral(text: string): bigint | Decimal | null {
  let i = 0;
  const n = text.length;
  const negative = n > 0 && text.charCodeAt(0) === 45;
  if (negative) i++;
  const intStart = i;
  while (i < n && isAsciiDigit(text.charCodeAt(i))) i++;
  if (i === intStart) return null;
  const intDigits = text.slice(intStart, i);
  if (i === n) {
    const v = BigInt(intDigits);
    return negative ? -v : v;
  }
  if (text.charCodeAt(i) !== 46) return null;
  i++;
  const fracStart = i;
  while (i < n && isAsciiDigit(text.charCodeAt(i))) i++;
  if (i === fracStart || i !== n) return null;
  const places = n - fracStart;
  if (places > MAX_DECIMAL_PLACES) {
    throw new RangeError(`decimal precision overflow (${MAX_DECIMAL_PLACES} max): ${text}`);
  }
  const v = BigInt(intDigits + text.slice(fracStart));
  return new Decimal(negative ? -v : v, places);
}

/** Haskell's `Data.Char.isSpace`. */
export function isHaskellSpace(c: number): boolean {
  if (c === 32 || (c >= 9 && c <= 13) || c === 0xa0) return true;
  if (c < 0x1680) return false;
  return (
    c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000
  );
}

/**
 * The largest exponent {@link Decimal.read} accepts in `1.5e<exp>`. Haskell has no limit, but a
 * larger positive exponent only builds a gigantic integer, and a larger negative one always
 * exceeds 255 places.
 */
export const MAX_READ_EXPONENT = 100_000;

function readHaskellDecimal(text: string): Decimal | null {
  const n = text.length;
  let i = 0;
  while (i < n && isHaskellSpace(text.charCodeAt(i))) i++;
  let negative = false;
  if (text[i] === "-" || text[i] === "+") {
    negative = text[i] === "-";
    i++;
  }
  const intStart = i;
  while (i < n && isAsciiDigit(text.charCodeAt(i))) i++;
  if (i === intStart) return null;
  let digits = text.slice(intStart, i);
  let fracLength = 0;
  if (text[i] === "." && i + 1 < n && isAsciiDigit(text.charCodeAt(i + 1))) {
    const fracStart = ++i;
    while (i < n && isAsciiDigit(text.charCodeAt(i))) i++;
    digits += text.slice(fracStart, i);
    fracLength = i - fracStart;
  }
  let exponent = 0;
  if (text[i] === "e" || text[i] === "E") {
    let j = i + 1;
    let expNegative = false;
    if (text[j] === "-" || text[j] === "+") {
      expNegative = text[j] === "-";
      j++;
    }
    const expStart = j;
    while (j < n && isAsciiDigit(text.charCodeAt(j))) j++;
    if (j > expStart) {
      const magnitude = Number(text.slice(expStart, j));
      if (magnitude > MAX_READ_EXPONENT) return null;
      exponent = expNegative ? -magnitude : magnitude;
      i = j;
    }
  }
  while (i < n && isHaskellSpace(text.charCodeAt(i))) i++;
  if (i !== n) return null;
  let m = BigInt(digits);
  if (negative) m = -m;
  const places = fracLength - exponent;
  if (places < 0) return new Decimal(m * pow10(-places), 0);
  if (places > MAX_DECIMAL_PLACES) return null;
  return new Decimal(m, places);
}
