/**
 * Pact strings are Haskell `Text`: sequences of Unicode code points. JavaScript strings are
 * UTF-16, so lengths, slices and comparisons go through these helpers.
 */

/** Compares strings by Unicode code point (Haskell `Text` order), not by UTF-16 unit. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) {
      // Surrogates (0xD800–0xDFFF) encode code points above 0xFFFF, so they sort after every
      // other unit of the same position.
      const xs = x >= 0xd800 && x <= 0xdfff;
      const ys = y >= 0xd800 && y <= 0xdfff;
      if (xs !== ys) return xs ? 1 : -1;
      return x < y ? -1 : 1;
    }
  }
  return a.length - b.length;
}

/**
 * Strings at least this long (in UTF-16 units) have their code point count remembered: a lookup
 * costs less than a scan, and a contract that takes the length of, or slices, one long string in
 * a loop then scans it once.
 */
export const REMEMBERED_LENGTH_MIN = 1024;
/** At most this many UTF-16 units of remembered strings are held; past it the memory starts again. */
const REMEMBERED_UNITS_MAX = 16_777_216;

const remembered = new Map<string, number>();
let rememberedUnits = 0;

function remember(s: string, codePoints: number): void {
  if (rememberedUnits + s.length > REMEMBERED_UNITS_MAX) {
    remembered.clear();
    rememberedUnits = 0;
  }
  remembered.set(s, codePoints);
  rememberedUnits += s.length;
}

/** Any surrogate: a string without one has as many code points as UTF-16 units. */
const SURROGATE = /[\uD800-\uDFFF]/;

function countCodePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const p = s.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) n--;
    }
  }
  return n;
}

/** The number of code points (Pact's `length` of a string). */
export function codePointLength(s: string): number {
  if (s.length < REMEMBERED_LENGTH_MIN) return countCodePoints(s);
  const known = remembered.get(s);
  if (known !== undefined) return known;
  // The regular expression scans natively (at once for strings V8 holds as one byte per unit).
  const n = SURROGATE.test(s) ? countCodePoints(s) : s.length;
  remember(s, n);
  return n;
}

/**
 * Whether {@link codePointLength} of `s` is immediate (a short string or one remembered), or
 * scans it: the gas rules count that scan as work Pact's table does not price.
 */
export function codePointLengthKnown(s: string): boolean {
  return s.length < REMEMBERED_LENGTH_MIN || remembered.has(s);
}

/** The code points from index `start` (inclusive) to `end` (exclusive), clamped to the string. */
export function sliceCodePoints(s: string, start: number, end: number): string {
  if (s.length === codePointLength(s)) {
    const slice = s.slice(Math.max(0, start), Math.max(0, end));
    // A slice of a string without surrogates has none either.
    if (slice.length >= REMEMBERED_LENGTH_MIN) remember(slice, slice.length);
    return slice;
  }
  return Array.from(s).slice(Math.max(0, start), Math.max(0, end)).join("");
}
