/**
 * The in-memory backend (the REPL's default). Each key keeps its versions in transaction order,
 * so the latest value is the last one and an older state is a binary search away. Nested
 * transactions keep an undo log: a rollback undoes the writes back to where its level began,
 * without copying the state.
 */
import { compareCodePoints } from "../values/text.ts";
import type { StoreReader, VersionedStore } from "./store.ts";
import { type BlockRecord, type BlockWrites, SYSTEM_DOMAINS } from "./types.ts";

interface Version {
  readonly txId: number;
  readonly height: number;
  readonly value: string;
}

class MemoryDomain {
  readonly versions = new Map<string, Version[]>();
  /** The keys in order, kept while valid; null after a key was removed. */
  sortedKeys: string[] | null = null;
  constructor(readonly createdTxId: number) {}

  sorted(): string[] {
    this.sortedKeys ??= [...this.versions.keys()].sort(compareCodePoints);
    return this.sortedKeys;
  }
}

type Undo =
  | {
      readonly kind: "put";
      readonly domain: MemoryDomain;
      readonly key: string;
      readonly replaced?: Version;
    }
  | { readonly kind: "create"; readonly name: string }
  | { readonly kind: "block"; readonly height: number };

/** System domains exist before any transaction. */
const SYSTEM_TX_ID = -1;

export class MemoryStore implements VersionedStore {
  private readonly domains = new Map<string, MemoryDomain>();
  private readonly blocks = new Map<number, BlockRecord>();
  private latestHeight: number | undefined;
  private readonly undoLog: Undo[] = [];
  /** Where each open level begins in the undo log. */
  private readonly levels: number[] = [];
  private nextTxId = 0;
  private pendingNextTxId: number | undefined;

  constructor() {
    for (const name of SYSTEM_DOMAINS) this.domains.set(name, new MemoryDomain(SYSTEM_TX_ID));
  }

  hasDomain(domain: string): boolean {
    return this.domains.has(domain);
  }

  get(domain: string, key: string): string | undefined {
    const versions = this.domains.get(domain)?.versions.get(key);
    return versions?.[versions.length - 1]?.value;
  }

  keys(domain: string): string[] {
    const d = this.domains.get(domain);
    return d === undefined ? [] : [...d.sorted()];
  }

  entries(domain: string): Array<[string, string]> {
    const d = this.domains.get(domain);
    if (d === undefined) return [];
    return d.sorted().map((key) => {
      const versions = d.versions.get(key) as Version[];
      return [key, (versions[versions.length - 1] as Version).value];
    });
  }

  createDomain(domain: string, txId: number): void {
    if (this.domains.has(domain)) throw new Error(`domain ${domain} already exists`);
    this.domains.set(domain, new MemoryDomain(txId));
    this.record({ kind: "create", name: domain });
  }

  put(domain: string, key: string, value: string, txId: number, height: number): void {
    const d = this.domains.get(domain);
    if (d === undefined) throw new Error(`domain ${domain} does not exist`);
    const version: Version = { txId, height, value };
    const versions = d.versions.get(key);
    if (versions === undefined) {
      d.versions.set(key, [version]);
      if (d.sortedKeys !== null) insertSorted(d.sortedKeys, key);
      this.record({ kind: "put", domain: d, key });
      return;
    }
    const last = versions.length - 1;
    const previous = versions[last] as Version;
    if (previous.txId === txId) {
      versions[last] = version;
      this.record({ kind: "put", domain: d, key, replaced: previous });
    } else {
      versions.push(version);
      this.record({ kind: "put", domain: d, key });
    }
  }

  get depth(): number {
    return this.levels.length;
  }

  begin(): void {
    this.levels.push(this.undoLog.length);
  }

  commit(): void {
    if (this.levels.pop() === undefined) throw new Error("commit without a transaction");
    if (this.levels.length === 0) {
      this.undoLog.length = 0;
      if (this.pendingNextTxId !== undefined) this.nextTxId = this.pendingNextTxId;
      this.pendingNextTxId = undefined;
    }
  }

  rollback(): void {
    const start = this.levels.pop();
    if (start === undefined) throw new Error("rollback without a transaction");
    while (this.undoLog.length > start) this.undo(this.undoLog.pop() as Undo);
    if (this.levels.length === 0) this.pendingNextTxId = undefined;
  }

  saveNextTxId(txId: number): void {
    this.pendingNextTxId = txId;
  }

  loadNextTxId(): number {
    return this.nextTxId;
  }

  readerBefore(txIdBound: number): StoreReader {
    return new MemoryReaderBefore(this.domains, txIdBound);
  }

  recordBlock(block: BlockRecord): void {
    this.blocks.set(block.height, block);
    this.latestHeight = block.height;
    this.record({ kind: "block", height: block.height });
  }

  block(height: number): BlockRecord | undefined {
    return this.blocks.get(height);
  }

  latestBlock(): BlockRecord | undefined {
    return this.latestHeight === undefined ? undefined : this.blocks.get(this.latestHeight);
  }

  rewind(height: number, txIdBound: number): void {
    for (const [name, d] of this.domains) {
      if (d.createdTxId >= txIdBound) {
        this.domains.delete(name);
        continue;
      }
      for (const [key, versions] of d.versions) {
        if ((versions[versions.length - 1] as Version).txId < txIdBound) continue;
        while (versions.length > 0 && (versions[versions.length - 1] as Version).txId >= txIdBound)
          versions.pop();
        if (versions.length === 0) {
          d.versions.delete(key);
          d.sortedKeys = null;
        }
      }
    }
    for (const h of this.blocks.keys()) if (h > height) this.blocks.delete(h);
    this.latestHeight = this.blocks.size === 0 ? undefined : Math.max(...this.blocks.keys());
    this.nextTxId = txIdBound;
  }

  flush(): void {}

  /**
   * Every version it holds from transaction `sinceTxId` on, as {@link BlockWrites}' rows, and the
   * domains it created from then on that `existed` does not name (a scratch state's top layer:
   * what its blocks wrote, or the last of them). Each key's versions are read back from the newest
   * only as far as `sinceTxId`, so listing one block of a long run costs its keys, not the run.
   */
  layerWrites(
    existed: (domain: string) => boolean,
    sinceTxId = 0,
  ): Pick<BlockWrites, "domains" | "rows"> {
    const domains: [string, number][] = [];
    const rows: [string, string, number, string][] = [];
    for (const [name, d] of this.domains) {
      if (d.createdTxId !== SYSTEM_TX_ID && d.createdTxId >= sinceTxId && !existed(name)) {
        domains.push([name, d.createdTxId]);
      }
      for (const [key, versions] of d.versions) {
        let first = versions.length;
        while (first > 0 && versions[first - 1]!.txId >= sinceTxId) first--;
        for (let i = first; i < versions.length; i++) {
          const v = versions[i]!;
          rows.push([name, key, v.txId, v.value]);
        }
      }
    }
    return { domains, rows };
  }

  /** One thread reads and writes a memory store: every read is consistent already. */
  beginSnapshot(): void {}

  endSnapshot(): void {}

  recover(): void {
    while (this.levels.length > 0) this.rollback();
  }

  close(): void {}

  private record(entry: Undo): void {
    if (this.levels.length > 0) this.undoLog.push(entry);
  }

  private undo(entry: Undo): void {
    switch (entry.kind) {
      case "create":
        this.domains.delete(entry.name);
        return;
      case "block":
        this.blocks.delete(entry.height);
        this.latestHeight = this.blocks.size === 0 ? undefined : Math.max(...this.blocks.keys());
        return;
      case "put": {
        const versions = entry.domain.versions.get(entry.key) as Version[];
        if (entry.replaced !== undefined) versions[versions.length - 1] = entry.replaced;
        else versions.pop();
        if (versions.length === 0) {
          entry.domain.versions.delete(entry.key);
          entry.domain.sortedKeys = null;
        }
      }
    }
  }
}

/** Reads of the state before a transaction id, straight from the live versions. */
class MemoryReaderBefore implements StoreReader {
  constructor(
    private readonly domains: ReadonlyMap<string, MemoryDomain>,
    private readonly bound: number,
  ) {}

  hasDomain(domain: string): boolean {
    return this.domain(domain) !== undefined;
  }

  get(domain: string, key: string): string | undefined {
    const versions = this.domain(domain)?.versions.get(key);
    return versions === undefined ? undefined : lastBefore(versions, this.bound)?.value;
  }

  keys(domain: string): string[] {
    return this.entries(domain).map(([key]) => key);
  }

  entries(domain: string): Array<[string, string]> {
    const d = this.domain(domain);
    if (d === undefined) return [];
    const out: Array<[string, string]> = [];
    for (const key of d.sorted()) {
      const version = lastBefore(d.versions.get(key) as Version[], this.bound);
      if (version !== undefined) out.push([key, version.value]);
    }
    return out;
  }

  private domain(name: string): MemoryDomain | undefined {
    const d = this.domains.get(name);
    return d !== undefined && d.createdTxId < this.bound ? d : undefined;
  }
}

/** The last version written before `bound` (versions are in transaction order). */
function lastBefore(versions: readonly Version[], bound: number): Version | undefined {
  let lo = 0;
  let hi = versions.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((versions[mid] as Version).txId < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : versions[lo - 1];
}

function insertSorted(keys: string[], key: string): void {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareCodePoints(keys[mid] as string, key) < 0) lo = mid + 1;
    else hi = mid;
  }
  keys.splice(lo, 0, key);
}
