/**
 * The sort Pact uses (vector-algorithms' introsort, `Data.Vector.Algorithms.Intro.sortBy`),
 * reproduced so that elements that compare equal but differ (objects sorted by one field, 1.0
 * and 1.00) come out in the same order as in the reference. Introsort is not stable.
 *
 * Outline of the reference algorithm:
 * - ranges of up to 4 elements are sorted by optimal sorting networks, which (for a consistent
 *   ordering) leave equal elements in their original order;
 * - otherwise a quicksort runs with the median of the first, middle and last element as pivot,
 *   leaving ranges shorter than {@link INSERTION_THRESHOLD} alone; when the recursion depth
 *   passes 2·⌊log₂ n⌋ the range is heap-sorted (a 4-ary heap) instead;
 * - finally an insertion sort (stable) finishes the whole range.
 *
 * For orderings that are not transitive (Pact's `sort` treats a list or object as equal to
 * everything) the small-range networks are stood in for by insertion sort, which may then order
 * such mixed lists differently from the reference.
 */

export type Comparator<T> = (a: T, b: T) => number;

/** Ranges shorter than this are left to the final insertion sort. */
export const INSERTION_THRESHOLD = 18;

/** Sorts `a` in place. */
export function introSort<T>(a: T[], cmp: Comparator<T>): void {
  const n = a.length;
  if (n < 2) return;
  if (n > 4) quickSortLoop(a, cmp, depthLimit(n), 0, n);
  insertionSort(a, cmp, 0, n);
}

/** 2·⌊log₂ n⌋: the recursion depth after which heap sort takes over. */
function depthLimit(n: number): number {
  return 2 * (31 - Math.clz32(n));
}

function swap<T>(a: T[], i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Stable insertion sort of [l, u). */
function insertionSort<T>(a: T[], cmp: Comparator<T>, l: number, u: number): void {
  for (let i = l + 1; i < u; i++) {
    const v = a[i]!;
    let j = i;
    while (j > l && cmp(v, a[j - 1]!) < 0) {
      a[j] = a[j - 1]!;
      j--;
    }
    a[j] = v;
  }
}

function quickSortLoop<T>(a: T[], cmp: Comparator<T>, depth: number, l: number, u: number): void {
  for (;;) {
    if (depth === 0) {
      heapSort(a, cmp, l, u);
      return;
    }
    if (u - l < INSERTION_THRESHOLD) return;
    medianToFront(a, cmp, (l + u) >>> 1, l, u - 1);
    const pivot = a[l]!;
    const mid = partition(a, cmp, pivot, l + 1, u);
    swap(a, l, mid - 1);
    depth--;
    // The reference sorts the upper part first; the order does not change the result, but the
    // lower part is handled iteratively here.
    quickSortLoop(a, cmp, depth, mid, u);
    u = mid - 1;
  }
}

/**
 * Orders the three elements at positions i, j, k (in that order, stably), which puts the
 * median of the first, middle and last element at j = l when called as (middle, l, last).
 */
function medianToFront<T>(a: T[], cmp: Comparator<T>, i: number, j: number, k: number): void {
  const three = [a[i]!, a[j]!, a[k]!];
  insertionSort(three, cmp, 0, 3);
  a[i] = three[0]!;
  a[j] = three[1]!;
  a[k] = three[2]!;
}

/**
 * Partitions [l, u) around the pivot: scans up over elements below it and down over elements
 * above it, swapping the pair that stops both scans. Returns the first index of the upper part.
 */
function partition<T>(a: T[], cmp: Comparator<T>, pivot: T, l: number, u: number): number {
  for (;;) {
    while (l < u && cmp(a[l]!, pivot) < 0) l++;
    if (l >= u) return l;
    let j = u - 1;
    while (l < j && cmp(pivot, a[j]!) < 0) j--;
    if (l >= j) return l;
    swap(a, l, j);
    l++;
    u = j;
  }
}

/**
 * Heap sort of [l, u) with a 4-ary max-heap, as vector-algorithms' `Heap.sortByBounds`
 * (exported for tests: introsort reaches it only on pathological inputs).
 */
export function heapSort<T>(a: T[], cmp: Comparator<T>, l: number, u: number): void {
  const len = u - l;
  if (len <= 4) {
    insertionSort(a, cmp, l, u);
    return;
  }
  for (let k = (len - 1) >> 2; k >= 0; k--) sift(a, cmp, a[l + k]!, l, k, len);
  // Pop the maximum to the end until four elements are left, then sort those.
  for (let k = u - 1; k > l + 4; k--) {
    const top = a[l]!;
    const last = a[k]!;
    a[k] = top;
    sift(a, cmp, last, l, 0, k - l);
  }
  swap(a, l, l + 4);
  insertionSort(a, cmp, l, l + 4);
}

/** Moves `val` down from `root` into the heap stored at [off, off + len). */
function sift<T>(a: T[], cmp: Comparator<T>, val: T, off: number, root: number, len: number): void {
  for (;;) {
    const first = root * 4 + 1;
    if (first >= len) break;
    // The largest child; a later child wins only when strictly greater.
    let best = first;
    let bestValue = a[off + first]!;
    const lastChild = Math.min(first + 3, len - 1);
    for (let c = first + 1; c <= lastChild; c++) {
      const v = a[off + c]!;
      if (cmp(bestValue, v) < 0) {
        best = c;
        bestValue = v;
      }
    }
    if (cmp(val, bestValue) >= 0) break;
    a[off + root] = bestValue;
    root = best;
  }
  a[off + root] = val;
}
