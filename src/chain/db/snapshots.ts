/**
 * Development snapshots and the blocks a revert abandons. A snapshot is one head per chain;
 * reverting to it abandons every block that would rank above its head of that chain as best
 * head. An abandoned block stays stored and listed but is never a best head again, nor is any
 * block stored on it: fork choice skips them through {@link NOT_ABANDONED}, the head filter
 * this module gives it, and a block whose parent is abandoned is abandoned as it is stored.
 */
import type Database from "better-sqlite3";
import { HASH_BYTES } from "../header/binary.ts";
import type { BlockHeader } from "../header/types.ts";
import { allChainIds, type ChainwebVersion } from "../version/version.ts";
import type { BlockStore } from "./block-store.ts";
import { plain, weightSortKey } from "./column-values.ts";

/**
 * The fork-choice head filter (an SQL condition on the header row `h`) that leaves out abandoned
 * blocks. Their number above a chain's best head is at most what one revert left behind.
 */
export const NOT_ABANDONED = "NOT EXISTS (SELECT 1 FROM abandoned_blocks a WHERE a.hash = h.hash)";

/** What {@link DevSnapshots.revertToSnapshot} did. */
export interface SnapshotRevert {
  /** The snapshot's head of every chain (now the best heads). */
  readonly heads: ReadonlyMap<number, BlockHeader>;
  /** How many blocks were newly abandoned. */
  readonly abandoned: number;
}

/** The snapshots' statements, prepared on the database's connection. */
function prepareStatements(db: Database.Database) {
  return {
    abandoned: db.prepare("SELECT 1 FROM abandoned_blocks WHERE hash = ?").pluck(),
    abandon: db.prepare("INSERT OR IGNORE INTO abandoned_blocks (hash) VALUES (?)"),
    // The blocks `bestHead` would order before the given head (weight, then height, then
    // hash): none of them is its ancestor, since a child always outweighs its parent.
    abandonOutranking: db.prepare(
      `INSERT OR IGNORE INTO abandoned_blocks (hash)
       SELECT hash FROM block_headers WHERE chain = :chain AND (weight > :weight
         OR (weight = :weight AND (height > :height OR (height = :height AND hash < :hash))))`,
    ),
    saveSnapshot: db.prepare("INSERT INTO snapshots (heads) VALUES (?)"),
    snapshot: db.prepare("SELECT heads FROM snapshots WHERE id = ?").pluck(),
    dropSnapshotsAfter: db.prepare("DELETE FROM snapshots WHERE id > ?"),
  };
}

export class DevSnapshots {
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly revertMany: (id: number) => SnapshotRevert | undefined;

  /** `store` reads the heads a snapshot names. */
  constructor(
    db: Database.Database,
    private readonly version: ChainwebVersion,
    private readonly store: BlockStore,
  ) {
    const sql = prepareStatements(db);
    this.sql = sql;
    this.revertMany = db.transaction((id: number) => {
      const heads = this.snapshotHeads(id);
      if (heads === undefined) return undefined;
      let abandoned = 0;
      for (const head of heads.values()) {
        abandoned += sql.abandonOutranking.run({
          chain: head.chainId,
          weight: weightSortKey(head.weight),
          height: head.height,
          hash: head.hash,
        }).changes;
      }
      sql.dropSnapshotsAfter.run(id);
      return { heads, abandoned };
    });
  }

  /** Whether a development revert left the block behind (it is never a best head again). */
  isAbandoned(hash: Uint8Array): boolean {
    return this.sql.abandoned.get(hash) !== undefined;
  }

  /** Abandons a block being stored when its parent is abandoned (in the insert transaction). */
  inheritAbandonment(hash: Uint8Array, parent: Uint8Array): void {
    if (this.isAbandoned(parent)) this.sql.abandon.run(hash);
  }

  /**
   * Saves a development snapshot: one head per chain of the version (every chain must be
   * given). Returns its id; ids ascend from 1 and are never reused.
   */
  saveSnapshot(heads: ReadonlyMap<number, BlockHeader>): number {
    const hashes = allChainIds(this.version).map((chainId) => {
      const head = heads.get(chainId);
      if (head === undefined) throw new Error(`a snapshot needs a head of chain ${chainId}`);
      return head.hash;
    });
    return Number(this.sql.saveSnapshot.run(Buffer.concat(hashes)).lastInsertRowid);
  }

  /** The heads of a saved snapshot by chain; undefined when there is no such snapshot. */
  snapshotHeads(id: number): Map<number, BlockHeader> | undefined {
    const bytes = this.sql.snapshot.get(id) as Uint8Array | undefined;
    if (bytes === undefined) return undefined;
    const heads = new Map<number, BlockHeader>();
    allChainIds(this.version).forEach((chainId, i) => {
      const hash = plain(bytes).subarray(i * HASH_BYTES, (i + 1) * HASH_BYTES);
      const header = this.store.header(hash);
      if (header === undefined) throw new Error(`snapshot ${id} names an unknown block`);
      heads.set(chainId, header);
    });
    return heads;
  }

  /**
   * Reverts to a saved snapshot, in one transaction: every block that would rank above the
   * snapshot's head of its chain as best head is abandoned (kept and listed, but never a best
   * head again, nor any block built on it), so the cut is the snapshot's heads; the snapshots
   * saved after it are deleted (their heads are abandoned now). Undefined when there is no
   * such snapshot.
   */
  revertToSnapshot(id: number): SnapshotRevert | undefined {
    return this.revertMany(id);
  }
}
