/**
 * The block endpoints' queries (`GET .../chain/{c}/block`, `POST .../chain/{c}/block/branch`)
 * as functions over the chain database ({@link PageSource}), returning pages `{limit, items, next}` the way the
 * Chainweb node computes them (`BlockHeaderDB/RestAPI/Server.hs`, `Utils/Paging.hs`,
 * `TreeDB.hs`, `BlockHeaderDB/Internal.hs`):
 *
 * - `limit` of a page is the number of items in it. The requested limit is clamped to
 *   {@link MAX_BLOCK_PAGE_LIMIT} (also the default).
 * - Block listing: every block of the chain (orphans included), ascending by height and, within
 *   a height, by hash bytes. `minheight`/`maxheight` bound it. A cursor restarts at its block
 *   (`inclusive`) or just after it (`exclusive`); if that position is below `minheight`, the
 *   page is empty. A page with more results after it has `next: inclusive:<first hash of the
 *   next page>`; the last page has `next: null`, as the interface spec says. (The Chainweb node
 *   instead ends with `exclusive:<last hash>`; a client that polls for new blocks can still
 *   restart from the last hash it saw with an `exclusive:` cursor of its own.)
 * - Branch: the blocks that are an ancestor-or-self of some `upper` and not an ancestor-or-self
 *   of any `lower`, within the window, descending by height and, within a height, by
 *   descending hash bytes (the exact reverse of the listing order). A page with more results
 *   after it has `next: inclusive:<first hash of the next page>`, the last one `null`. A cursor
 *   that is stored but not among the branch's results gives an empty page.
 * - Errors: more than {@link MAX_BRANCH_BOUNDS} distinct upper (checked first) or lower bounds
 *   → {@link BranchBoundsError}; a cursor, an `upper` or a `lower` not stored on this chain →
 *   {@link BlockNotFoundError}. (The Chainweb node ignores an unknown `lower`; Braid reports it,
 *   since a mistyped bound would otherwise silently widen the branch.)
 */
import { encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import type { BlockHeader } from "../header/types.ts";
import type { ScanStart } from "./block-scan.ts";
import type { Block, ChainDatabase, HeaderLink } from "./chain-database.ts";

/** What the page queries read of the chain database. */
export type PageSource = Pick<
  ChainDatabase,
  "scanBlocks" | "scanHeaders" | "linksInRange" | "link" | "block" | "header" | "ancestorHashAt"
>;

/** What a page lists: whole blocks, or their headers alone (nothing of the payloads read). */
export interface PageItems<T> {
  scan(db: PageSource, chainId: number, from: ScanStart, maxHeight: number, count: number): T[];
  one(db: PageSource, hash: Uint8Array): T | undefined;
  headerOf(item: T): BlockHeader;
}

export const BLOCK_ITEMS: PageItems<Block> = {
  scan: (db, chainId, from, maxHeight, count) => db.scanBlocks(chainId, from, maxHeight, count),
  one: (db, hash) => db.block(hash),
  headerOf: (block) => block.header,
};

export const HEADER_ITEMS: PageItems<BlockHeader> = {
  scan: (db, chainId, from, maxHeight, count) => db.scanHeaders(chainId, from, maxHeight, count),
  one: (db, hash) => db.header(hash),
  headerOf: (header) => header,
};

import { type Cursor, formatCursor } from "./cursor.ts";
import { BlockNotFoundError, BranchBoundsError, PageQueryError } from "./errors.ts";
import { MAX_BLOCK_PAGE_LIMIT, MAX_BRANCH_BOUNDS } from "./limits.ts";

/** The query parameters of both block endpoints; every field is optional. */
export interface PageQuery {
  readonly limit?: number;
  readonly next?: Cursor;
  readonly minheight?: number;
  readonly maxheight?: number;
}

/** A page of results, ready to be sent as JSON (with `items` mapped to their JSON form). */
export interface Page<T> {
  readonly limit: number;
  readonly items: T[];
  readonly next: string | null;
}

/** The body of a branch query. */
export interface BranchBounds {
  readonly lower: readonly Uint8Array[];
  readonly upper: readonly Uint8Array[];
}

const NO_HASH = new Uint8Array(0);

/**
 * A page of the chain's blocks in ascending order (`GET .../chain/{c}/block`), or of their
 * headers (`items`: `header` and `hash`).
 */
export function blockPage(db: PageSource, chainId: number, query: PageQuery): Page<Block>;
export function blockPage<T>(
  db: PageSource,
  chainId: number,
  query: PageQuery,
  items: PageItems<T>,
): Page<T>;
export function blockPage(
  db: PageSource,
  chainId: number,
  query: PageQuery,
  items: PageItems<unknown> = BLOCK_ITEMS as PageItems<unknown>,
): Page<unknown> {
  const window = readWindow(query);
  let from: { height: number; hash: Uint8Array; inclusive: boolean } = {
    height: window.min,
    hash: NO_HASH,
    inclusive: true,
  };
  if (query.next !== undefined) {
    const cursor = storedOnChain(db, chainId, query.next.hash);
    from = { height: cursor.height, hash: cursor.hash, inclusive: query.next.kind === "inclusive" };
  }
  let rows = items.scan(db, chainId, from, window.max, window.limit + 1);
  if (rows.length > 0 && items.headerOf(rows[0]!).height < window.min) rows = [];
  const page = rows.slice(0, window.limit);
  const next =
    rows.length > window.limit
      ? formatCursor({ kind: "inclusive", hash: items.headerOf(rows[window.limit]!).hash })
      : null;
  return { limit: page.length, items: page, next };
}

/**
 * A page of a branch in descending order (`POST .../chain/{c}/block/branch`), or of its blocks'
 * headers (`items`: `header/branch` and `hash/branch`).
 */
export function branchPage(
  db: PageSource,
  chainId: number,
  bounds: BranchBounds,
  query: PageQuery,
): Page<Block>;
export function branchPage<T>(
  db: PageSource,
  chainId: number,
  bounds: BranchBounds,
  query: PageQuery,
  items: PageItems<T>,
): Page<T>;
export function branchPage(
  db: PageSource,
  chainId: number,
  bounds: BranchBounds,
  query: PageQuery,
  items: PageItems<unknown> = BLOCK_ITEMS as PageItems<unknown>,
): Page<unknown> {
  const upperHashes = distinct(bounds.upper);
  const lowerHashes = distinct(bounds.lower);
  if (upperHashes.length > MAX_BRANCH_BOUNDS) throw new BranchBoundsError("upper");
  if (lowerHashes.length > MAX_BRANCH_BOUNDS) throw new BranchBoundsError("lower");
  const window = readWindow(query);
  const cursor = query.next && storedOnChain(db, chainId, query.next.hash);
  const uppers = upperHashes.map((hash) => storedOnChain(db, chainId, hash));
  const lowers = lowerHashes.map((hash) => storedOnChain(db, chainId, hash));

  let top = Math.min(window.max, Math.max(-1, ...uppers.map((u) => u.height)));
  if (cursor !== undefined) top = cursor.height <= top ? cursor.height : -1;
  // A branch without forks covers `limit` + 1 heights below `top`: their links and blocks are
  // read with one range query each (a chain's consecutive blocks lie together in the file).
  const range = pageRange(chainId, Math.max(window.min, top - window.limit), top, window.limit);
  const links = new ChainLinks(db, range);
  const found = walkBranch(links, uppers, lowers, top, window.min, window.limit + 1, query.next);
  const page = itemsOf(db, items, range, found.slice(0, window.limit));
  const next =
    found.length > window.limit
      ? formatCursor({ kind: "inclusive", hash: found[window.limit]! })
      : null;
  return { limit: page.length, items: page, next };
}

/**
 * Hashes of the branch's blocks from height `top` down to `bottom`, in page order, at most
 * `count`, starting at `cursor` when given (empty when the cursor is not in the branch).
 * At each height the branch is {ancestor of u at that height : u in uppers} minus
 * {ancestor of l at that height : l in lowers}, so the walk keeps one frontier per side and
 * steps both down by parent; an upper path that meets a lower one stops there, since all
 * further ancestors are shared too.
 */
function walkBranch(
  db: ChainLinks,
  uppers: readonly HeaderLink[],
  lowers: readonly HeaderLink[],
  top: number,
  bottom: number,
  count: number,
  cursor: Cursor | undefined,
): Uint8Array[] {
  const found: Uint8Array[] = [];
  if (top < bottom) return found;
  let upperFrontier = startFrontier(db, uppers, top);
  let lowerFrontier = startFrontier(db, lowers, top);
  for (let height = top; height >= bottom; height--) {
    addBoundsAt(upperFrontier, uppers, height);
    addBoundsAt(lowerFrontier, lowers, height);
    for (const key of lowerFrontier.keys()) upperFrontier.delete(key);
    const here = [...upperFrontier.values()].map((link) => link.hash).sort(descendingBytes);
    let from = 0;
    if (cursor !== undefined && height === top) {
      from = here.findIndex((hash) => equalBytes(hash, cursor.hash));
      if (from === -1) return found;
      if (cursor.kind === "exclusive") from++;
    }
    for (let i = from; i < here.length; i++) {
      found.push(here[i]!);
      if (found.length === count) return found;
    }
    if (upperFrontier.size === 0 && !uppers.some((u) => u.height < height)) break;
    upperFrontier = parents(db, upperFrontier);
    lowerFrontier = parents(db, lowerFrontier);
  }
  return found;
}

/** The blocks of one side of a branch at one height, by hash. */
type Frontier = Map<string, HeaderLink>;

const frontierKey = (hash: Uint8Array) => encodeBase64Url(hash);

/** The ancestors at `height` of the bounds above it. */
function startFrontier(db: ChainLinks, bounds: readonly HeaderLink[], height: number): Frontier {
  const frontier: Frontier = new Map();
  for (const bound of bounds) {
    if (bound.height <= height) continue;
    const hash = db.ancestorHashAt(bound.hash, height);
    const link = hash === undefined ? undefined : db.link(hash);
    if (link !== undefined) frontier.set(frontierKey(link.hash), link);
  }
  return frontier;
}

/** Adds the bounds whose own height is `height`. */
function addBoundsAt(frontier: Frontier, bounds: readonly HeaderLink[], height: number): void {
  for (const bound of bounds) {
    if (bound.height === height) frontier.set(frontierKey(bound.hash), bound);
  }
}

/** The stored parents of a frontier (a genesis block has none). */
function parents(db: ChainLinks, frontier: Frontier): Frontier {
  const next: Frontier = new Map();
  for (const { parent } of frontier.values()) {
    const key = frontierKey(parent);
    if (next.has(key)) continue;
    const link = db.link(parent);
    if (link !== undefined) next.set(key, link);
  }
  return next;
}

/**
 * Header links for a walk by parent: those of a range of heights read at once, any other one
 * from the database.
 */
class ChainLinks {
  private readonly inRange = new Map<string, HeaderLink>();

  constructor(
    private readonly db: PageSource,
    { chainId, low, high, most }: PageRange,
  ) {
    for (const link of db.linksInRange(chainId, low, high, most)) {
      this.inRange.set(frontierKey(link.hash), link);
    }
  }

  link(hash: Uint8Array): HeaderLink | undefined {
    return this.inRange.get(frontierKey(hash)) ?? this.db.link(hash);
  }

  ancestorHashAt(hash: Uint8Array, height: number): Uint8Array | undefined {
    return this.db.ancestorHashAt(hash, height);
  }
}

/** Links or blocks read per height of a branch page's range, at most (more: one at a time). */
const RANGE_LINKS_PER_HEIGHT = 2;

/** The heights of a chain a branch page reads at once, and how many rows at most. */
interface PageRange {
  readonly chainId: number;
  readonly low: number;
  readonly high: number;
  readonly most: number;
}

function pageRange(chainId: number, low: number, high: number, limit: number): PageRange {
  // Forks can crowd the range: read at most a few rows per height of it.
  return { chainId, low, high, most: (high - low + 1) * RANGE_LINKS_PER_HEIGHT + limit };
}

/** The items of `hashes`, those in the range read at once, in order. */
function itemsOf<T>(
  db: PageSource,
  items: PageItems<T>,
  range: PageRange,
  hashes: readonly Uint8Array[],
): T[] {
  const { chainId, low, high, most } = range;
  const read = new Map<string, T>();
  const from = { height: low, hash: NO_HASH, inclusive: true };
  for (const item of items.scan(db, chainId, from, high, most)) {
    read.set(frontierKey(items.headerOf(item).hash), item);
  }
  return hashes.map((hash) => read.get(frontierKey(hash)) ?? items.one(db, hash)!);
}

function storedOnChain(db: PageSource, chainId: number, hash: Uint8Array): HeaderLink {
  const link = db.link(hash);
  if (link === undefined || link.chainId !== chainId) throw new BlockNotFoundError(hash, chainId);
  return link;
}

function distinct(hashes: readonly Uint8Array[]): Uint8Array[] {
  const byKey = new Map<string, Uint8Array>();
  for (const hash of hashes) byKey.set(frontierKey(hash), hash);
  return [...byKey.values()];
}

function descendingBytes(a: Uint8Array, b: Uint8Array): number {
  return Buffer.compare(b, a);
}

interface Window {
  readonly limit: number;
  readonly min: number;
  readonly max: number;
}

function readWindow(query: PageQuery): Window {
  const limit = Math.min(MAX_BLOCK_PAGE_LIMIT, count("limit", query.limit) ?? MAX_BLOCK_PAGE_LIMIT);
  return {
    limit,
    min: count("minheight", query.minheight) ?? 0,
    max: count("maxheight", query.maxheight) ?? Number.MAX_SAFE_INTEGER,
  };
}

function count(name: string, value: number | undefined): number | undefined {
  if (value !== undefined && !(Number.isSafeInteger(value) && value >= 0)) {
    throw new PageQueryError(`${name} must be an integer >= 0, got ${value}`);
  }
  return value;
}
