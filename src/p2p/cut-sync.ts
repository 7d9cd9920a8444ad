/**
 * Syncing this node to a peer's cut, as Chainweb's cut pipeline does: the headers this node lacks
 * are fetched with branch queries (`POST header/branch`, from the cut's heads down to this node's
 * own), the payloads in batches (`POST payload/batch`), and the blocks handed, parents first and
 * in bounded batches, to the node's one import pipeline, which validates each header with the
 * chain core, executes the payload on its fork, checks the outputs against the header and stores
 * and adopts what is heavier (ports.ts, `sync`). Anything a peer sends that is not what it claims
 * stops the sync with a {@link PeerProtocolError} or the pipeline's `ImportError`: nothing of that
 * batch is stored.
 *
 * A cut that carries blocks along (`headers`, `payloads`: a peer's gossip of blocks it just made)
 * is synced from them without a request when they reach this node's blocks; what they lack is
 * asked for as above.
 *
 * A peer far ahead is followed in rounds of at most {@link SYNC_ROUND_BLOCKS} blocks: the round's
 * target is the peer's own cut limited in height (`GET /cut?maxheight=`), so memory stays bounded
 * and progress is stored as it goes. The first round is small ({@link FIRST_ROUND_BLOCKS}) and
 * each next one twice the one before, so importing starts soon and each round's headers travel
 * while the round before is imported.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { equalBytes } from "../chain/bytes.ts";
import {
  CUT_ATTACHMENT_LIMIT,
  type CutAttachments,
  type CutHashes,
  cutHeight,
  decodeCutHashes,
} from "../chain/cut/cut.ts";
import { decodeHeaderBase64 } from "../chain/header/json.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import { decodePayloadDataObject } from "../chain/payload/json.ts";
import type { PayloadData, PayloadWithOutputs } from "../chain/payload/payload.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import type { NodePorts } from "../node/ports.ts";
import { type PeerClient, PeerRequestError } from "./peer-client.ts";

/** The most blocks one round of a sync fetches before storing them. */
export const SYNC_ROUND_BLOCKS = 20_000;
/**
 * The most blocks of a sync's first round; each next round may have twice as many as the one
 * before, up to {@link SYNC_ROUND_BLOCKS}. A round's headers cost about a quarter of what
 * importing their blocks costs, so they arrive while the round before, half as large, is
 * imported; a first round of 20,000 left the node waiting a second for its headers.
 */
export const FIRST_ROUND_BLOCKS = 1_000;
/**
 * Blocks whose payloads are asked for at once (in one request per chain, while the blocks before
 * them are imported): a request is worth its cost on both sides when it carries dozens. Each
 * such stretch is then handed to the import pipeline whole, which lets the event loop run
 * between its chain-database transactions (`ANNOUNCE_WINDOW_LIMIT_MS` of work each), and the
 * event loop is yielded between stretches too.
 */
export const PAYLOAD_FETCH_BLOCKS = 1_000;
/** The blocks of a round's first stretch of payloads: few, so that importing starts soon. */
export const FIRST_STRETCH_BLOCKS = 200;
/** Headers asked for per branch request (the node's page limit). */
export const BRANCH_PAGE_LIMIT = 360;
/**
 * Headers asked for beyond the heights a branch's first page is expected to span (the cut's head
 * height less this node's), for a fork below this node's head: a peer reads as many heights
 * as asked for, so a one-block branch asked for with the whole page limit costs it 360 reads.
 */
export const BRANCH_FIRST_PAGE_MARGIN = 8;
/** Payload hashes asked for per batch request (the node's batch limit). */
export const PAYLOAD_BATCH_LIMIT = 1000;

/** How much further down this node's branch each retry of a branch's lower bound goes. */
export const LOWER_BOUND_STEP = 8;

/** A peer's answer that is not Chainweb's P2P protocol (a header that does not decode, …). */
export class PeerProtocolError extends Error {
  override readonly name = "PeerProtocolError";
}

/** A peer's `GET /cut` answer as a cut, or a {@link PeerProtocolError} saying what is wrong. */
export function peerCut(value: unknown, chainCount: number): CutHashes {
  const cut = decodeCutHashes(value, chainCount);
  if (typeof cut === "string") throw new PeerProtocolError(`its cut: ${cut}`);
  return cut;
}

export type SyncPorts = Pick<NodePorts, "network" | "blocks" | "heads" | "sync">;

/** What a sync did, for the log. */
export interface SyncOutcome {
  readonly blocks: number;
  readonly millis: number;
}

/** Told of progress during a long sync (blocks stored, blocks known to be needed so far). */
export type SyncProgress = (done: number, fetched: number) => void;

/** The blocks a cut carried along, by their hashes' text. */
interface Carried {
  readonly headers: ReadonlyMap<string, BlockHeader>;
  readonly payloads: ReadonlyMap<string, PayloadData>;
}

function carriedBy(attached: CutAttachments): Carried {
  return {
    headers: new Map(attached.headers.map((h) => [encodeBase64Url(h.hash), h])),
    payloads: new Map(attached.payloads.map((p) => [encodeBase64Url(p.payloadHash), p])),
  };
}

export class CutSync {
  constructor(
    private readonly ports: SyncPorts,
    /**
     * The most blocks of the first round and of any round ({@link FIRST_ROUND_BLOCKS},
     * {@link SYNC_ROUND_BLOCKS}; fewer in tests).
     */
    private readonly rounds = { first: FIRST_ROUND_BLOCKS, most: SYNC_ROUND_BLOCKS },
  ) {}

  /**
   * Offers the node a cut whose blocks it has: adopted when braided and heavier than its own
   * (blocks a node already has can make a heavier cut than the one it chose from its database).
   */
  offer(cut: CutHashes): void {
    this.ports.sync.offerCut(new Map([...cut.heads].map(([chainId, { hash }]) => [chainId, hash])));
  }

  /** Whether every head of `cut` is a block this node has. */
  knowsAll(cut: CutHashes): boolean {
    for (const { hash } of cut.heads.values()) {
      if (this.ports.blocks.header(hash) === undefined) return false;
    }
    return true;
  }

  /**
   * Fetches, checks and imports what this node lacks of `cut`, from `peer`, in rounds: while a
   * round's blocks are imported, the next round's headers (from the round's target, which the
   * peer has, to the next one) and then its first payloads travel.
   */
  async syncTo(peer: PeerClient, cut: CutHashes, progress?: SyncProgress): Promise<SyncOutcome> {
    const started = performance.now();
    let blocks = 0;
    const carried = carriedBy(cut.attached);
    while (!this.knowsAll(cut)) {
      const before = blocks;
      let limit = this.rounds.first;
      let round: Promise<Round> | null = this.firstRound(peer, cut, carried, limit);
      while (round !== null) {
        const { target, headers, payloads }: Round = await round;
        if (headers.length === 0) break;
        limit = Math.min(limit * 2, this.rounds.most);
        round = target === cut ? null : this.roundAfter(peer, cut, target, limit, carried);
        // Handled now, so a failed import of this round leaves no rejection unhandled.
        round?.catch(() => undefined);
        const imported = blocks;
        blocks += await this.importAll(headers, payloads, (done) =>
          progress?.(imported + done, imported + headers.length),
        );
      }
      if (blocks === before) break;
    }
    this.offer(cut);
    return { blocks, millis: performance.now() - started };
  }

  /**
   * The first round towards `cut`: its target (`cut`, or the peer's cut at most `limit` blocks
   * above this node's) and the headers this node lacks of it.
   */
  private async firstRound(
    peer: PeerClient,
    cut: CutHashes,
    carried: Carried,
    limit: number,
  ): Promise<Round> {
    const ours = cutHeight(this.ports.heads.cut());
    const target = cut.height - ours > limit ? await this.limitedCut(peer, ours + limit) : cut;
    return this.round(peer, target, await this.fetchHeaders(peer, target, carried), carried);
  }

  /**
   * The round after the one towards `previous` (a cut of the peer's): its target (at most `limit`
   * blocks above `previous`), and the headers above `previous` on each chain, parents first.
   */
  private async roundAfter(
    peer: PeerClient,
    cut: CutHashes,
    previous: CutHashes,
    limit: number,
    carried: Carried,
  ): Promise<Round> {
    const target =
      cut.height - previous.height > limit
        ? await this.limitedCut(peer, previous.height + limit)
        : cut;
    const branches = await Promise.all(
      [...target.heads].map(async ([chainId, { hash, height }]) => {
        const lower = previous.heads.get(chainId)!;
        if (equalBytes(lower.hash, hash)) return [];
        return this.fetchBranchAbove(peer, chainId, lower, { hash, height });
      }),
    );
    return this.round(peer, target, parentsFirst(branches.flat()), carried);
  }

  /** The peer's cut at most `maxheight` high: one round's target. */
  private async limitedCut(peer: PeerClient, maxheight: number): Promise<CutHashes> {
    return peerCut(
      await peer.call("getCut", { query: { maxheight } }),
      this.ports.network.chainCount,
    );
  }

  /**
   * The headers of `cut`'s branches this node lacks, on every chain, parents first (by height,
   * then chain: a header's adjacent parents are one height below it).
   */
  private async fetchHeaders(
    peer: PeerClient,
    cut: CutHashes,
    carried: Carried,
  ): Promise<BlockHeader[]> {
    const { blocks, heads } = this.ports;
    const ours = heads.cut();
    const branches = await Promise.all(
      [...cut.heads].map(async ([chainId, { hash, height }]) => {
        if (blocks.header(hash) !== undefined) return [];
        return (
          this.carriedBranch(carried, chainId, hash) ??
          this.fetchBranch(peer, chainId, ours.get(chainId)!, { hash, height })
        );
      }),
    );
    return parentsFirst(
      branches.flat().filter((header) => blocks.header(header.hash) === undefined),
    );
  }

  /**
   * One chain's branch from `upper` down to a block this node has, from the blocks a cut carried;
   * null when they do not reach that far.
   */
  private carriedBranch(
    carried: Carried,
    chainId: number,
    upper: Uint8Array,
  ): BlockHeader[] | null {
    const branch: BlockHeader[] = [];
    let hash = upper;
    // Bounded: a lying header may name itself as its parent.
    while (branch.length < CUT_ATTACHMENT_LIMIT) {
      const header = carried.headers.get(encodeBase64Url(hash));
      if (header === undefined || header.chainId !== chainId) return null;
      branch.push(header);
      if (this.ports.blocks.header(header.parent) !== undefined) return branch;
      hash = header.parent;
    }
    return null;
  }

  /**
   * One chain's branch from `upper` down to where it meets this node's branch. The lower bound is
   * this node's head; a peer that does not know it (this node's head is on a fork the peer never
   * saw) answers 404, and the bound steps down this node's branch, ever further, until the peer
   * knows it (genesis at the latest). Blocks this node has between there and the fork point are
   * left out afterwards.
   */
  private async fetchBranch(
    peer: PeerClient,
    chainId: number,
    head: BlockHeader,
    upper: HashAtHeight,
  ): Promise<BlockHeader[]> {
    let depth = 0;
    for (;;) {
      const lower = this.ports.blocks.ancestorAt(head.hash, Math.max(0, head.height - depth))!;
      try {
        return await this.fetchBranchAbove(peer, chainId, lower, upper);
      } catch (e) {
        if (!(e instanceof PeerRequestError && e.status === 404) || lower.height === 0) throw e;
      }
      depth = depth === 0 ? 1 : depth * LOWER_BOUND_STEP;
    }
  }

  /**
   * One chain's branch from `upper` down to where it meets `lower`'s ancestors; the first page
   * asks for the heights between them (and a margin), the next ones for whole pages.
   */
  private async fetchBranchAbove(
    peer: PeerClient,
    chainId: number,
    lower: HashAtHeight,
    upper: HashAtHeight,
  ): Promise<BlockHeader[]> {
    const expected = upper.height - lower.height + BRANCH_FIRST_PAGE_MARGIN;
    const firstLimit = Math.max(1, Math.min(BRANCH_PAGE_LIMIT, expected));
    const headers: BlockHeader[] = [];
    const body = { lower: [encodeBase64Url(lower.hash)], upper: [encodeBase64Url(upper.hash)] };
    let next: string | null = null;
    do {
      const limit = next === null ? firstLimit : BRANCH_PAGE_LIMIT;
      const query: Record<string, string | number> = { limit };
      if (next !== null) query.next = next;
      const page = await peer.call("headerBranch", { chainId, query, body });
      const { items, next: after } = (page ?? {}) as { items?: unknown; next?: unknown };
      if (!Array.isArray(items) || (after !== null && typeof after !== "string")) {
        throw new PeerProtocolError(`chain ${chainId}: its branch page is not a page of headers`);
      }
      for (const item of items) {
        const header = typeof item === "string" ? decodeHeaderOrNull(item) : null;
        if (header === null || header.chainId !== chainId) {
          throw new PeerProtocolError(
            `chain ${chainId}: its branch holds a header that does not decode`,
          );
        }
        headers.push(header);
      }
      if (headers.length > SYNC_ROUND_BLOCKS) {
        throw new PeerProtocolError(`chain ${chainId}: its branch is longer than its cut says`);
      }
      next = after;
    } while (next !== null);
    return headers;
  }

  /** A round towards `target` (a cut of `peer`'s) of `headers`, its first payloads asked for. */
  private round(
    peer: PeerClient,
    target: CutHashes,
    headers: readonly BlockHeader[],
    carried: Carried,
  ): Round {
    const payloads = new PayloadStretches(headers, (stretch) =>
      this.fetchPayloads(peer, stretch, carried),
    );
    return { target, headers, payloads };
  }

  /**
   * Imports `headers` with their payloads a stretch at a time, each stretch's payloads awaited
   * before its blocks (the next ones travelling meanwhile); how many were imported.
   */
  private async importAll(
    headers: readonly BlockHeader[],
    payloads: PayloadStretches,
    progress: (done: number) => void,
  ): Promise<number> {
    let done = 0;
    for (let i = 0; i < payloads.count; i++) {
      const found = await payloads.take(i);
      const stretch = headers.slice(...payloads.bounds(i));
      await this.ports.sync.importBlocks(
        stretch.map((header) => ({
          header,
          payload: found.get(encodeBase64Url(header.payloadHash))!,
        })),
      );
      done += stretch.length;
      progress(done);
      await nextTurn();
    }
    return done;
  }

  /**
   * The payloads of `headers`, by payload hash: this node's own where it has them, else those the
   * cut carried, else the peer's. A payload names its block's outputs, among them the coinbase's,
   * whose request key is made from the parent's hash: a payload stored here belongs to a stored
   * block of the same chain and height. So headers above their chain's highest stored block are
   * not looked up (in a catch-up, none is: a lookup at a random place of the payload index cost
   * ~4 µs of a block's ~200).
   */
  private async fetchPayloads(
    peer: PeerClient,
    headers: readonly BlockHeader[],
    carried: Carried,
  ): Promise<Map<string, PayloadData | PayloadWithOutputs>> {
    const found = new Map<string, PayloadData | PayloadWithOutputs>();
    const missing = new Map<number, Set<string>>();
    const highest = new Map<number, number>();
    const mayBeStored = ({ chainId, height }: BlockHeader) => {
      let max = highest.get(chainId);
      if (max === undefined) {
        max = this.ports.blocks.maxHeight(chainId) ?? -1;
        highest.set(chainId, max);
      }
      return height <= max;
    };
    for (const header of headers) {
      const key = encodeBase64Url(header.payloadHash);
      if (found.has(key)) continue;
      const stored =
        (mayBeStored(header) ? this.ports.blocks.payload(header.payloadHash) : undefined) ??
        carried.payloads.get(key);
      if (stored !== undefined) found.set(key, stored);
      else {
        const set = missing.get(header.chainId) ?? new Set<string>();
        set.add(key);
        missing.set(header.chainId, set);
      }
    }
    await Promise.all(
      [...missing].flatMap(([chainId, keys]) =>
        chunks([...keys], PAYLOAD_BATCH_LIMIT).map(async (hashes) => {
          const answer = await peer.call("payloadBatch", { chainId, body: hashes });
          if (!Array.isArray(answer)) {
            throw new PeerProtocolError(`chain ${chainId}: its payload batch is not an array`);
          }
          for (const value of answer) {
            let payload: PayloadData;
            try {
              payload = decodePayloadDataObject(value);
            } catch (e) {
              throw new PeerProtocolError(
                `chain ${chainId}: a payload does not decode: ${e instanceof Error ? e.message : String(e)}`,
              );
            }
            found.set(encodeBase64Url(payload.payloadHash), payload);
          }
          const lacking = hashes.filter((h) => !found.has(h));
          if (lacking.length > 0) {
            throw new PeerProtocolError(
              `chain ${chainId}: it did not send the payload ${lacking[0]} (${lacking.length} missing)`,
            );
          }
        }),
      ),
    );
    return found;
  }
}

/** A block as a cut names it. */
type HashAtHeight = { readonly hash: Uint8Array; readonly height: number };

/** One round of a sync: its target cut and the headers to import, parents first. */
interface Round {
  readonly target: CutHashes;
  readonly headers: readonly BlockHeader[];
  readonly payloads: PayloadStretches;
}

/** Payloads by the text of their hashes. */
type PayloadsFound = Map<string, PayloadData | PayloadWithOutputs>;

/**
 * A round's payloads, asked for in stretches of its headers: the first {@link FIRST_STRETCH_BLOCKS}
 * long (so importing starts soon), the next ones {@link PAYLOAD_FETCH_BLOCKS} each. The first
 * two are asked for at once (while the round before is imported); taking a stretch asks for the
 * one after it, so a stretch travels while the one before is imported.
 */
class PayloadStretches {
  private readonly ends: number[] = [];
  private readonly fetches: Promise<PayloadsFound>[] = [];

  constructor(
    private readonly headers: readonly BlockHeader[],
    private readonly fetch: (headers: readonly BlockHeader[]) => Promise<PayloadsFound>,
  ) {
    let end = Math.min(headers.length, FIRST_STRETCH_BLOCKS);
    for (;;) {
      this.ends.push(end);
      if (end === headers.length) break;
      end = Math.min(headers.length, end + PAYLOAD_FETCH_BLOCKS);
    }
    this.askUpTo(1);
  }

  /** How many stretches there are. */
  get count(): number {
    return this.ends.length;
  }

  /** Where stretch `i` starts and ends among the headers. */
  bounds(i: number): [start: number, end: number] {
    return [i === 0 ? 0 : this.ends[i - 1]!, this.ends[i]!];
  }

  /** The payloads of stretch `i`, the one after it asked for. */
  take(i: number): Promise<PayloadsFound> {
    this.askUpTo(i + 1);
    return this.fetches[i]!;
  }

  private askUpTo(last: number): void {
    while (this.fetches.length <= Math.min(last, this.count - 1)) {
      const [start, end] = this.bounds(this.fetches.length);
      const fetching = this.fetch(this.headers.slice(start, end));
      // Handled now, so a sync that fails before it is taken leaves no rejection unhandled.
      fetching.catch(() => undefined);
      this.fetches.push(fetching);
    }
  }
}

/** Headers by height, then chain: a header's parent and adjacent parents come before it. */
function parentsFirst(headers: BlockHeader[]): BlockHeader[] {
  return headers.sort((a, b) => a.height - b.height || a.chainId - b.chainId);
}

function decodeHeaderOrNull(text: string): BlockHeader | null {
  try {
    return decodeHeaderBase64(text);
  } catch {
    return null;
  }
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
