/**
 * Skip pointers for fast ancestor lookup. Every stored header keeps, besides its parent, a
 * pointer to one ancestor further down at {@link skipHeight}(height). Following skip pointers
 * when they do not overshoot, and parents otherwise, reaches any ancestor in O(log height)
 * steps instead of one step per block. The heights follow the deterministic skip-list scheme
 * also used by Bitcoin's block index: clear the lowest set bit of the height (the lowest two of
 * height-1 for odd heights), which makes consecutive pointers reach far without clustering.
 */

function clearLowestSetBit(n: number): number {
  // Heights stay below 2^53; bit operations would truncate at 2^31, so use arithmetic.
  return n - lowestSetBit(n);
}

function lowestSetBit(n: number): number {
  if (n === 0) return 0;
  let bit = 1;
  while (n % (bit * 2) === 0) bit *= 2;
  return bit;
}

/** The height of the ancestor a header at `height` points to (0 for heights 0 and 1). */
export function skipHeight(height: number): number {
  if (height < 2) return 0;
  if (height % 2 === 1) return clearLowestSetBit(clearLowestSetBit(height - 1)) + 1;
  return clearLowestSetBit(height);
}

/**
 * Whether a walk standing at `height`, looking for the ancestor at `target`, should follow the
 * skip pointer (stored height `storedSkip`) rather than the parent. It skips unless the
 * parent's pointer would land closer to the target without passing it.
 */
export function shouldSkip(height: number, storedSkip: number, target: number): boolean {
  if (storedSkip < target) return false;
  if (storedSkip === target) return true;
  const parentSkip = skipHeight(height - 1);
  return !(parentSkip < storedSkip - 2 && parentSkip >= target);
}
