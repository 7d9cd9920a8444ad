/**
 * Decoded rows of the latest state, so that a row read and then updated in the same command
 * (the shape of a transfer) is fetched and decoded once. Rows are immutable values, so a cached
 * row is shared safely. The owner clears the cache whenever writes are undone (rollbacks,
 * `local` commits, aborted blocks, rewinds), so it never holds a value that was taken back.
 */
import type { PactObject } from "../values/types.ts";

/** How many rows the cache holds; beyond that the least recently stored one goes. */
export const ROW_CACHE_ROWS = 10_000;

export class RowCache {
  /** `table NUL key` → the row, or null for a row known to be absent. */
  private readonly rows = new Map<string, PactObject | null>();

  /** The cached row, null when known absent, undefined when not cached. */
  get(table: string, key: string): PactObject | null | undefined {
    return this.rows.get(cacheKey(table, key));
  }

  set(table: string, key: string, row: PactObject | null): void {
    const k = cacheKey(table, key);
    this.rows.delete(k);
    this.rows.set(k, row);
    if (this.rows.size > ROW_CACHE_ROWS) {
      const oldest = this.rows.keys().next().value as string;
      this.rows.delete(oldest);
    }
  }

  clear(): void {
    this.rows.clear();
  }
}

/** Table names are Pact identifiers, which never hold NUL, so the first NUL separates. */
export function cacheKey(table: string, key: string): string {
  return `${table}\u0000${key}`;
}
