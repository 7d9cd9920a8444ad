/**
 * Ancestry: where stored headers sit in their chains. A header's link (chain, height, parent)
 * without decoding it, its children, the headers of a height, and its ancestors, found by skip
 * pointers (skip-height.ts) in O(log height) steps; also the skip pointer a new header is
 * stored with. Ancestry is always complete: a header is only stored when its parent is.
 */
import type Database from "better-sqlite3";
import { equalBytes } from "../bytes.ts";
import { decodeHeader } from "../header/binary.ts";
import type { BlockHeader } from "../header/types.ts";
import type { BlockStore } from "./block-store.ts";
import { plain } from "./column-values.ts";
import { shouldSkip, skipHeight } from "./skip-height.ts";

/** Where a stored header sits in its chain, without decoding the header. */
export interface HeaderLink {
  readonly hash: Uint8Array;
  readonly chainId: number;
  readonly height: number;
  readonly parent: Uint8Array;
}

/** Position of an ancestry walk: a stored header and its skip pointer. */
type WalkNode = [
  height: number,
  parent: Uint8Array,
  skipHash: Uint8Array | null,
  skipHeight: number | null,
];

/** Ancestry's statements, prepared on the database's connection. */
function prepareStatements(db: Database.Database) {
  return {
    link: db.prepare("SELECT chain, height, parent FROM block_headers WHERE hash = ?").raw(),
    linksInRange: db
      .prepare(
        `SELECT hash, height, parent FROM block_headers
         WHERE chain = ? AND height BETWEEN ? AND ? ORDER BY height, hash LIMIT ?`,
      )
      .raw(),
    walk: db
      .prepare("SELECT height, parent, skip_hash, skip_height FROM block_headers WHERE hash = ?")
      .raw(),
    // A child is at its parent's chain and height + 1: the (chain, height, hash) index finds
    // it, so no index by parent is kept (one random page less to write per block).
    children: db
      .prepare(
        `SELECT c.bytes FROM block_headers p JOIN block_headers c
           ON c.chain = p.chain AND c.height = p.height + 1 AND c.parent = p.hash
         WHERE p.hash = ? ORDER BY c.hash`,
      )
      .pluck(),
    atHeight: db
      .prepare("SELECT bytes FROM block_headers WHERE chain = ? AND height = ? ORDER BY hash")
      .pluck(),
    firstTwoAtHeight: db
      .prepare("SELECT hash FROM block_headers WHERE chain = ? AND height = ? LIMIT 2")
      .pluck(),
  };
}

export class Ancestry {
  private readonly sql: ReturnType<typeof prepareStatements>;

  /** `store` reads the headers that ancestry finds. */
  constructor(
    db: Database.Database,
    private readonly store: Pick<BlockStore, "header">,
  ) {
    this.sql = prepareStatements(db);
  }

  /** Chain, height and parent of a stored header, without decoding it. */
  link(hash: Uint8Array): HeaderLink | undefined {
    const row = this.sql.link.get(hash) as [number, number, Uint8Array] | undefined;
    if (row === undefined) return undefined;
    return { hash, chainId: row[0], height: row[1], parent: plain(row[2]) };
  }

  /**
   * The links of a chain's headers from height `low` to `high` (forks included), ascending by
   * height and hash bytes, at most `count`: one range read where a walk by parent would read a
   * header at a time.
   */
  linksInRange(chainId: number, low: number, high: number, count: number): HeaderLink[] {
    const rows = this.sql.linksInRange.all(chainId, low, high, count) as [
      Uint8Array,
      number,
      Uint8Array,
    ][];
    return rows.map(([hash, height, parent]) => ({
      hash: plain(hash),
      chainId,
      height,
      parent: plain(parent),
    }));
  }

  /** The stored children of a header, ordered by hash bytes. */
  children(hash: Uint8Array): BlockHeader[] {
    return (this.sql.children.all(hash) as Uint8Array[]).map((bytes) => decodeHeader(plain(bytes)));
  }

  /** Every stored header of a chain at a height (forks included), ordered by hash bytes. */
  headersAtHeight(chainId: number, height: number): BlockHeader[] {
    return (this.sql.atHeight.all(chainId, height) as Uint8Array[]).map((bytes) =>
      decodeHeader(plain(bytes)),
    );
  }

  /** The header itself, then its parent, and so on down to the genesis block. */
  *ancestors(hash: Uint8Array): Generator<BlockHeader> {
    for (
      let header = this.store.header(hash);
      header !== undefined;
      header = this.store.header(header.parent)
    ) {
      yield header;
    }
  }

  /**
   * The ancestor (or the header itself) of `hash` at `height`; undefined when `hash` is not
   * stored or `height` is above it or below its chain's genesis.
   */
  ancestorAt(hash: Uint8Array, height: number): BlockHeader | undefined {
    const found = this.ancestorHashAt(hash, height);
    return found === undefined ? undefined : this.store.header(found);
  }

  /** Like {@link ancestorAt} but returns only the hash (no header decoding). */
  ancestorHashAt(hash: Uint8Array, height: number): Uint8Array | undefined {
    const start = this.link(hash);
    if (start === undefined || height > start.height) return undefined;
    const [found, foundHeight] = this.seek(hash, start, height);
    return foundHeight === height ? found : undefined;
  }

  /**
   * Whether `ancestor` is `descendant` or one of its ancestors. Unknown hashes give false.
   * Costs one lookup when the ancestor's height holds a single block, else O(log height).
   */
  isAncestor(ancestor: Uint8Array, descendant: Uint8Array): boolean {
    const link = this.link(ancestor);
    if (link === undefined) return false;
    const found = this.ancestorHashAt(descendant, link.height);
    return found !== undefined && equalBytes(found, ancestor);
  }

  /**
   * The skip pointer of a new header whose parent is stored (`parent`, its link): the hash and
   * height of its ancestor at {@link skipHeight}, or of its chain's genesis block when that is
   * higher.
   */
  skipPointer(header: BlockHeader, parent: HeaderLink): [Uint8Array, number] {
    return this.seek(header.parent, parent, skipHeight(header.height));
  }

  /**
   * The ancestor of `from` (a stored header) at `target`, or its chain's genesis block when
   * `target` is below it, with that ancestor's height.
   */
  private seek(hash: Uint8Array, from: HeaderLink, target: number): [Uint8Array, number] {
    if (target >= from.height) return [hash, from.height];
    // A height holding a single block of the chain holds the ancestor of every block above it,
    // since all of a chain's blocks descend from its one genesis block.
    const atHeight = this.sql.firstTwoAtHeight.all(from.chainId, target) as Uint8Array[];
    if (atHeight.length === 1) return [plain(atHeight[0]!), target];
    return this.descend(hash, target);
  }

  /**
   * Walks down from a stored header towards its ancestor at `target`, by skip pointers where
   * they do not overshoot and by parents otherwise; stops early at the genesis block.
   */
  private descend(hash: Uint8Array, target: number): [Uint8Array, number] {
    let at = hash;
    let [height, parent, skipHash, skipAt] = this.sql.walk.get(at) as WalkNode;
    while (height > target && skipHash !== null) {
      at = skipAt !== null && shouldSkip(height, skipAt, target) ? skipHash : parent;
      [height, parent, skipHash, skipAt] = this.sql.walk.get(at) as WalkNode;
    }
    return [plain(at), height];
  }
}
