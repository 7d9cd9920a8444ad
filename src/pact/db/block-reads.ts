/**
 * Reads of the state right after one recorded block that keep every value read, for the many
 * scratch states that work on one read snapshot makes on that block (an execution thread's
 * back-to-back `local` calls): the rows below a block never change while its snapshot lasts, so
 * a module's stored text, tens of kilobytes for `coin`, is fetched from SQLite once instead of
 * once per call. Valid only while the snapshot they were made in is held.
 */
import { cacheKey } from "./row-cache.ts";
import type { StoreReader } from "./store.ts";
import type { BlockReads, BlockRecord } from "./types.ts";

/** How many values one block's reads keep; past that they read through without keeping more. */
export const BLOCK_READS_KEPT = 1_000;

export class CachingBlockReads implements BlockReads, StoreReader {
  /** `domain NUL key` → the value, or undefined for one known to be absent. */
  private readonly values = new Map<string, string | undefined>();

  constructor(
    /** The block whose state these are. */
    readonly block: BlockRecord,
    private readonly base: StoreReader,
  ) {}

  hasDomain(domain: string): boolean {
    return this.base.hasDomain(domain);
  }

  get(domain: string, key: string): string | undefined {
    const at = cacheKey(domain, key);
    if (this.values.has(at)) return this.values.get(at);
    const value = this.base.get(domain, key);
    if (this.values.size < BLOCK_READS_KEPT) this.values.set(at, value);
    return value;
  }

  keys(domain: string): string[] {
    return this.base.keys(domain);
  }

  entries(domain: string): Array<[string, string]> {
    return this.base.entries(domain);
  }
}
