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

/** Strings at least this long are first searched for surrogates natively (a regular expression). */
const NATIVE_SCAN_MIN = 1024;

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
  // The regular expression is immediate for strings V8 holds as one byte per unit.
  if (s.length >= NATIVE_SCAN_MIN && !SURROGATE.test(s)) return s.length;
  return countCodePoints(s);
}

function isPairAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * The UTF-16 index after the first `k` code points of `s` (its length when it has fewer), in
 * time proportional to `k`, not to the string.
 */
export function codePointOffset(s: string, k: number): number {
  let i = 0;
  for (let n = 0; n < k && i < s.length; n++) i += isPairAt(s, i) ? 2 : 1;
  return i;
}

/** The UTF-16 index before the last `k` code points of `s` (0 when it has fewer), in O(k). */
export function codePointOffsetFromEnd(s: string, k: number): number {
  let i = s.length;
  for (let n = 0; n < k && i > 0; n++) i -= i >= 2 && isPairAt(s, i - 2) ? 2 : 1;
  return i;
}
