/**
 * Strings counted in Unicode code points, as Haskell's `Text` counts them, on top of JS's UTF-16
 * strings. Strings without surrogates (nearly all) take the direct path.
 */

const SURROGATE = /[\ud800-\udfff]/;

function hasSurrogates(s: string): boolean {
  return SURROGATE.test(s);
}

/** 2 when a surrogate pair (one code point) starts at `i`, otherwise 1. */
function unitsAt(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return 1;
  const next = s.charCodeAt(i + 1);
  return next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
}

/** The number of code points in `s`. */
export function codePointLength(s: string): number {
  if (!hasSurrogates(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i += unitsAt(s, i)) n++;
  return n;
}

/** The UTF-16 offset just after the first `count` code points of `s` (0 ≤ count ≤ length). */
function offsetOf(s: string, count: number): number {
  if (!hasSurrogates(s)) return count;
  let i = 0;
  for (let n = 0; n < count && i < s.length; n++) i += unitsAt(s, i);
  return i;
}

/** The first `count` code points of `s` (`T.take`); count ≥ 0. */
export function takeCodePoints(s: string, count: number): string {
  return s.slice(0, offsetOf(s, count));
}

/** `s` without its first `count` code points (`T.drop`); count ≥ 0. */
export function dropCodePoints(s: string, count: number): string {
  return s.slice(offsetOf(s, count));
}

/** `s` with its code points in reverse order (`T.reverse`). */
export function reverseCodePoints(s: string): string {
  if (!hasSurrogates(s)) {
    let out = "";
    for (let i = s.length - 1; i >= 0; i--) out += s[i];
    return out;
  }
  return Array.from(s).reverse().join("");
}
