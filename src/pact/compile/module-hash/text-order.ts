/**
 * Haskell's `Ord Text` (text ≥ 2.0): lexicographic by UTF-8 bytes, which is code point order.
 * JavaScript's `<` compares UTF-16 units instead, which differs above U+FFFF.
 */
export function compareText(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Between two surrogates or two non-surrogates, unit order is code point order; a surrogate
    // (half of a code point above U+FFFF) comes after every other unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x - y;
    return xs ? 1 : -1;
  }
  return a.length - b.length;
}
