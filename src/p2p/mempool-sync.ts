/**
 * Mempool sync with one peer, Chainweb's pull (its `syncMempools`): for a chain, `getPending` at
 * the peer since the high-water mark it gave last time (its whole mempool the first time, or
 * when the peer restarted: its nonce changed, and it answers with everything), the request keys
 * not pending here, `lookup` of those at the peer in batches, and each command through `send`'s
 * admission rules (signatures verified first). A command the rules refuse is counted and skipped,
 * not an error. When the peer listed its whole mempool, the commands pending here that it lacks
 * are pushed to it with `insert`, as chainweb-node does when a sync session starts.
 *
 * Braid adds one thing Chainweb lacks: {@link MempoolSync.push} sends a peer the commands added
 * here since the last push (for the `pending` event), so a command reaches the other nodes
 * without waiting for their next pull. It uses the same `insert` endpoint, so a chainweb-node
 * peer takes it too.
 *
 * A failure of the peer (refused, timed out, an answer of the wrong shape) is thrown as a
 * {@link PeerRequestError}, for the caller to log once and back off. The calls for one peer and
 * chain are not meant to overlap.
 */
import type { MempoolMark, NodePorts } from "../node/ports.ts";
import { decodeLookup, decodePending, parseTransactionTexts } from "./mempool-wire.ts";
import { type PeerClient, PeerRequestError } from "./peer-client.ts";

/**
 * How often to pull a peer's mempools: 500 ms. chainweb-node pulls every 15 s (its poll interval
 * of 30 s, halved); on a development network a command sent to one node should be on every node
 * before a person polls for it, and a round with nothing new costs one small request per chain.
 */
export const MEMPOOL_SYNC_INTERVAL_MS = 500;
/** Request keys per `lookup` at a peer, and commands per `insert` pushed to a peer. */
export const MEMPOOL_SYNC_BATCH = 256;
/**
 * The most commands pulled from one chain of a peer in one round (Chainweb's `maxCnt`); the rest
 * come in the next rounds (the mark is kept until all are pulled).
 */
export const MEMPOOL_SYNC_MAX_PULL = 5000;

/** What one round with one peer's chain did. */
export interface MempoolSyncRound {
  readonly peer: string;
  readonly chainId: number;
  /** Whether the peer listed its whole mempool (first round, or the peer restarted). */
  readonly full: boolean;
  /** Request keys the peer listed. */
  readonly listed: number;
  /** Of those, how many were not pending here (looked up, at most {@link MEMPOOL_SYNC_MAX_PULL}). */
  readonly missing: number;
  /** Commands added to the mempool here. */
  readonly inserted: number;
  /**
   * Commands left out: refused by the admission rules (already on chain, wrong chain, expired, …),
   * with a wrong hash or signature, not a command, or not the one asked for.
   */
  readonly refused: number;
  /** The first refusal's reason, for a log line. */
  readonly firstRefusal: string | null;
  /** Commands pushed to the peer. */
  readonly pushed: number;
}

type Ports = Pick<NodePorts, "network" | "commands" | "mempools">;

export class MempoolSync {
  /** Per peer and chain: the peer's mark from its last answer. */
  private readonly marks = new Map<string, Map<number, MempoolMark>>();
  /** Per peer and chain: this node's mark up to which the peer was sent every command. */
  private readonly pushedUpTo = new Map<string, Map<number, MempoolMark>>();

  constructor(private readonly node: Ports) {}

  /** One round with every chain of a peer, one chain after the other; throws the first failure. */
  async syncAll(peer: PeerClient): Promise<MempoolSyncRound[]> {
    const rounds: MempoolSyncRound[] = [];
    for (let chainId = 0; chainId < this.node.network.chainCount; chainId++) {
      rounds.push(await this.syncOnce(peer, chainId));
    }
    return rounds;
  }

  /** One round with one chain of a peer: pull what is new there (and push, after a full list). */
  async syncOnce(peer: PeerClient, chainId: number): Promise<MempoolSyncRound> {
    const mark = entry(this.marks, peer.key).get(chainId);
    const pending = decodePending(
      await peer.callText("mempoolGetPending", {
        chainId,
        ...(mark === undefined
          ? {}
          : { query: { nonce: String(mark.nonce), since: String(mark.since) } }),
      }),
    );
    if (typeof pending === "string") {
      throw new PeerRequestError(peer.key, "mempoolGetPending", pending);
    }
    const full = mark === undefined || mark.nonce !== pending.mark.nonce;
    const listed = [...new Set(pending.hashes)];
    const here = this.node.mempools.member(chainId, listed);
    const missing = listed.filter((_, i) => !here[i]);
    const pulled = missing.slice(0, MEMPOOL_SYNC_MAX_PULL);
    const counts = { inserted: 0, refused: 0, firstRefusal: null as string | null };
    for (let i = 0; i < pulled.length; i += MEMPOOL_SYNC_BATCH) {
      await this.pull(peer, chainId, pulled.slice(i, i + MEMPOOL_SYNC_BATCH), counts);
    }
    // Until every missing command is pulled, the next round asks from the same mark.
    if (missing.length === pulled.length) entry(this.marks, peer.key).set(chainId, pending.mark);
    const pushed = full ? await this.pushAll(peer, chainId, new Set(listed)) : 0;
    return {
      peer: peer.key,
      chainId,
      full,
      listed: listed.length,
      missing: pulled.length,
      ...counts,
      pushed,
    };
  }

  /**
   * Sends the peer the commands added to this node's chain since the last push (all of them the
   * first time, less those its full list showed it has); how many.
   */
  async push(peer: PeerClient, chainId: number): Promise<number> {
    const sent = entry(this.pushedUpTo, peer.key);
    const mine = this.node.mempools.pending(chainId, sent.get(chainId));
    sent.set(chainId, { nonce: mine.nonce, since: BigInt(mine.next) });
    return this.send(peer, chainId, mine.hashes);
  }

  /** Forgets a peer (dropped): the next round with it starts from its whole mempool. */
  forget(peerKey: string): void {
    this.marks.delete(peerKey);
    this.pushedUpTo.delete(peerKey);
  }

  /** Looks up `hashes` at the peer and admits what it has. */
  private async pull(
    peer: PeerClient,
    chainId: number,
    hashes: readonly string[],
    counts: { inserted: number; refused: number; firstRefusal: string | null },
  ): Promise<void> {
    const results = decodeLookup(
      await peer.call("mempoolLookup", { chainId, body: hashes }),
      hashes.length,
    );
    if (typeof results === "string") throw new PeerRequestError(peer.key, "mempoolLookup", results);
    const texts = results.filter((text): text is string => text !== null);
    const parsed = await this.node.commands.admitting(chainId, () => parseTransactionTexts(texts));
    const asked = new Set(hashes);
    const commands = parsed.commands.filter((c) => asked.has(c.hash));
    const reasons = [
      ...[...parsed.undecodable, ...parsed.invalid].map((p) => p.reason),
      ...parsed.commands
        .filter((c) => !asked.has(c.hash))
        .map((c) => `${c.hash} was not asked for`),
    ];
    const outcome = this.node.mempools.insert(chainId, commands);
    reasons.push(...outcome.refused.map((r) => `${r.hash}: ${r.reason}`));
    counts.inserted += outcome.added.length;
    counts.refused += reasons.length + outcome.overflow;
    counts.firstRefusal ??= reasons[0] ?? null;
  }

  /** After the peer listed its whole mempool: pushes what it lacks, and marks all as sent. */
  private async pushAll(peer: PeerClient, chainId: number, theirs: ReadonlySet<string>) {
    const mine = this.node.mempools.pending(chainId);
    entry(this.pushedUpTo, peer.key).set(chainId, { nonce: mine.nonce, since: BigInt(mine.next) });
    return this.send(
      peer,
      chainId,
      mine.hashes.filter((hash) => !theirs.has(hash)),
    );
  }

  /** Inserts the pending commands `hashes` at the peer, in batches; how many were sent. */
  private async send(peer: PeerClient, chainId: number, hashes: readonly string[]) {
    let sent = 0;
    for (let i = 0; i < hashes.length; i += MEMPOOL_SYNC_BATCH) {
      const texts = this.node.mempools
        .lookup(chainId, hashes.slice(i, i + MEMPOOL_SYNC_BATCH))
        .filter((text): text is string => text !== null);
      if (texts.length === 0) continue;
      await peer.call("mempoolInsert", { chainId, body: texts });
      sent += texts.length;
    }
    return sent;
  }
}

function entry<V>(map: Map<string, Map<number, V>>, key: string): Map<number, V> {
  let inner = map.get(key);
  if (inner === undefined) {
    inner = new Map();
    map.set(key, inner);
  }
  return inner;
}
