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

/** The number of code points (Pact's `length` of a string). */
export function codePointLength(s: string): number {
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

/** The code points from index `start` (inclusive) to `end` (exclusive), clamped to the string. */
export function sliceCodePoints(s: string, start: number, end: number): string {
  if (s.length === codePointLength(s)) return s.slice(Math.max(0, start), Math.max(0, end));
  return Array.from(s).slice(Math.max(0, start), Math.max(0, end)).join("");
}
