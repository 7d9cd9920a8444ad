/**
 * Row ids that keep one chain's consecutive heights together in the database file. SQLite stores
 * a table's rows in the order of their integer ids, and a node stores the blocks of its 20 chains
 * interleaved; with ids in insertion order, a page of 100 blocks of one chain visits 100 places
 * of the file (and a file of millions of blocks is mostly not in memory). With an id made of the
 * chain, the height and a slot, those 100 headers and payloads lie together.
 */

/** Rows one height of one chain can have in its own range (forks, or payloads of forks). */
export const SLOTS_PER_HEIGHT = 256;

/** Ids per chain: heights up to 2^36 (over 60,000 years of 30-second blocks). */
const IDS_PER_CHAIN = 2 ** 44;

/**
 * Where ids handed out in order begin: for a row whose height's slots are taken, or whose chain
 * (256 and above) or height (2^36 and above) lies outside the clustered range.
 */
export const OVERFLOW_ID_BASE = 2 ** 52;

/** The first id of a chain's height, or null when it lies outside the clustered range. */
export function clusteredIdBase(chainId: number, height: number): number | null {
  const base = chainId * IDS_PER_CHAIN + height * SLOTS_PER_HEIGHT;
  return height < CLUSTERED_HEIGHTS && base < OVERFLOW_ID_BASE ? base : null;
}

/** Heights below this have clustered ids (on chains below 256). */
const CLUSTERED_HEIGHTS = IDS_PER_CHAIN / SLOTS_PER_HEIGHT;

/**
 * The clustered ids of a chain's heights `low` to `high` (every slot; heights past the clustered
 * range left out, since their rows have overflow ids), or null when there are none.
 */
export function clusteredIdRange(
  chainId: number,
  low: number,
  high: number,
): [number, number] | null {
  const top = Math.min(high, CLUSTERED_HEIGHTS - 1);
  const first = clusteredIdBase(chainId, low);
  const last = clusteredIdBase(chainId, top);
  if (first === null || last === null || top < low) return null;
  return [first, last + SLOTS_PER_HEIGHT - 1];
}

/**
 * The id of a new row of `chainId` at `height`, given the largest id a table holds between two
 * ids (inclusive; null when none): the next free slot of the height, else the next overflow id.
 */
export function newRowId(
  chainId: number,
  height: number,
  largestBetween: (low: number, high: number) => number | null,
): number {
  const base = clusteredIdBase(chainId, height);
  if (base !== null) {
    const top = largestBetween(base, base + SLOTS_PER_HEIGHT - 1);
    if (top === null) return base;
    if (top < base + SLOTS_PER_HEIGHT - 1) return top + 1;
  }
  const last = largestBetween(OVERFLOW_ID_BASE, Number.MAX_SAFE_INTEGER);
  return last === null ? OVERFLOW_ID_BASE : last + 1;
}
