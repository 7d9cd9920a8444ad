/**
 * The blocks a gossiped cut carries along (Chainweb's optional `headers` and `payloads` of
 * CutHashes): the blocks this node stored last that a peer is not known to have, so the peer
 * imports them from the gossip itself instead of asking for each chain's branch and payloads
 * (two requests per chain, answered one after the other by this node's one thread).
 *
 * What a peer has is known by heights per chain: those of the last cut it offered and of the last
 * cut this node sent it. A block it lacks that is no longer among the recent ones, or beyond the
 * bounds, is left out; the peer then asks for it as for any cut.
 */
import type { Cut, CutAttachments } from "../chain/cut/cut.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import { type PayloadData, payloadDataOf } from "../chain/payload/payload.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import type { StoredBlock } from "../node/ports.ts";

/** How many of the blocks this node stored last are kept to be sent along with its cut. */
export const GOSSIP_RECENT_BLOCKS = 400;
/** The most blocks one gossiped cut carries. */
export const GOSSIP_ATTACHED_BLOCKS = 100;
/** The most bytes of transactions and miner data one gossiped cut carries (before base64). */
export const GOSSIP_ATTACHED_BYTES = 256_000;

export class GossipBlocks {
  /** The blocks stored last, by their hash's text, oldest first. */
  private readonly recent = new Map<string, StoredBlock>();
  /** The height each peer is known to have on each chain. */
  private readonly known = new Map<string, Map<number, number>>();

  /** A block this node stored (its own or imported). */
  stored(block: StoredBlock): void {
    this.recent.set(encodeBase64Url(block.header.hash), block);
    if (this.recent.size > GOSSIP_RECENT_BLOCKS) {
      this.recent.delete(this.recent.keys().next().value!);
    }
  }

  /** The peer has the blocks of a cut with these heads (it offered the cut, or was sent it). */
  peerHas(peer: string, heads: Iterable<[number, { readonly height: number }]>): void {
    const heights = this.known.get(peer) ?? new Map<number, number>();
    for (const [chainId, { height }] of heads) {
      heights.set(chainId, Math.max(heights.get(chainId) ?? -1, height));
    }
    this.known.set(peer, heights);
  }

  /** A peer dropped from the peer database. */
  forget(peer: string): void {
    this.known.delete(peer);
  }

  /** The recent blocks of `cut`'s branches above the heights `peer` is known to have, bounded. */
  attachmentsFor(peer: string, cut: Cut): CutAttachments {
    const heights = this.known.get(peer);
    const headers: BlockHeader[] = [];
    const payloads: PayloadData[] = [];
    let bytes = 0;
    for (const head of cut.values()) {
      const has = heights?.get(head.chainId) ?? -1;
      let block = this.recent.get(encodeBase64Url(head.hash));
      while (block !== undefined && block.header.height > has) {
        const payload = payloadDataOf(block.payload);
        const size = payload.transactions.reduce((n, t) => n + t.length, payload.minerData.length);
        if (headers.length >= GOSSIP_ATTACHED_BLOCKS || bytes + size > GOSSIP_ATTACHED_BYTES) {
          return { headers, payloads };
        }
        headers.push(block.header);
        payloads.push(payload);
        bytes += size;
        block = this.recent.get(encodeBase64Url(block.header.parent));
      }
    }
    return { headers, payloads };
  }
}
