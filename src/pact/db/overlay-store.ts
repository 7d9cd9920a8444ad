/**
 * A scratch store: reads fall through to a read-only state (e.g. the state as of an earlier
 * block), writes stay in memory on top of it and vanish with the store. Pact never deletes a
 * row, so the keys of a domain are simply the union of both layers.
 */
import { compareCodePoints } from "../values/text.ts";
import { MemoryStore } from "./memory-store.ts";
import type { StoreReader, WritableStore } from "./store.ts";
import type { BlockWrites } from "./types.ts";

export class OverlayStore implements WritableStore {
  private readonly top = new MemoryStore();
  private nextTxId: number;

  constructor(
    private readonly base: StoreReader,
    private readonly firstTxId: number,
  ) {
    this.nextTxId = firstTxId;
  }

  /**
   * What was written on top of the base (nothing may be open), from transaction `sinceTxId` on
   * when given (the last block of several run on it).
   */
  writes(sinceTxId = this.firstTxId): BlockWrites {
    if (this.top.depth !== 0)
      throw new Error("a scratch state's writes listed inside a transaction");
    return {
      firstTxId: sinceTxId,
      endTxId: this.nextTxId,
      ...this.top.layerWrites((domain) => this.base.hasDomain(domain), sinceTxId),
    };
  }

  hasDomain(domain: string): boolean {
    return this.top.hasDomain(domain) || this.base.hasDomain(domain);
  }

  get(domain: string, key: string): string | undefined {
    return this.top.get(domain, key) ?? this.base.get(domain, key);
  }

  keys(domain: string): string[] {
    return this.entries(domain).map(([key]) => key);
  }

  entries(domain: string): Array<[string, string]> {
    const below = this.base.entries(domain);
    const above = this.top.entries(domain);
    if (above.length === 0) return below;
    const out: Array<[string, string]> = [];
    let i = 0;
    let j = 0;
    while (i < below.length || j < above.length) {
      const b = below[i];
      const a = above[j];
      const order = b === undefined ? 1 : a === undefined ? -1 : compareCodePoints(b[0], a[0]);
      if (order < 0) {
        out.push(b as [string, string]);
        i++;
      } else {
        out.push(a as [string, string]);
        j++;
        if (order === 0) i++;
      }
    }
    return out;
  }

  createDomain(domain: string, txId: number): void {
    this.top.createDomain(domain, txId);
  }

  put(domain: string, key: string, value: string, txId: number, height: number): void {
    // A table of the base state gets a layer of its own on its first write.
    if (!this.top.hasDomain(domain)) this.top.createDomain(domain, txId);
    this.top.put(domain, key, value, txId, height);
  }

  get depth(): number {
    return this.top.depth;
  }

  begin(): void {
    this.top.begin();
  }

  commit(): void {
    this.top.commit();
  }

  rollback(): void {
    this.top.rollback();
  }

  saveNextTxId(txId: number): void {
    this.nextTxId = txId;
  }

  loadNextTxId(): number {
    return this.nextTxId;
  }
}
