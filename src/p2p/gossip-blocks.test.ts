/**
 * The blocks a gossiped cut carries: the recent blocks of the cut's branches above the heights
 * the peer is known to have, within the bounds, none for a peer that has the cut.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BlockHeader } from "../chain/header/types.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import type { StoredBlock } from "../node/ports.ts";
import { manualNode } from "../node/test-support/dev-node.ts";
import { GOSSIP_ATTACHED_BLOCKS, GossipBlocks } from "./gossip-blocks.ts";

/** A node's blocks as its `block` events tell them, with a gossip buffer fed from them. */
function recording() {
  const node = manualNode();
  const gossip = new GossipBlocks();
  const stored: StoredBlock[] = [];
  node.ports.events.on("block", (_chainId, block) => {
    stored.push(block);
    gossip.stored(block);
  });
  return { node, gossip, stored };
}

const names = (headers: readonly BlockHeader[]) =>
  headers.map((h) => `${h.chainId}@${h.height}`).sort();

describe("the blocks a gossiped cut carries", () => {
  it("are the cut's blocks above the heights the peer has, with their payloads", () => {
    const { node, gossip, stored } = recording();
    try {
      node.producer.mine(0);
      gossip.peerHas("peer", node.ports.heads.cut());
      const before = stored.length;
      node.producer.mine(0);
      node.producer.mine(5);
      const fresh = stored.slice(before);
      const attached = gossip.attachmentsFor("peer", node.ports.heads.cut());
      assert.deepEqual(names(attached.headers), names(fresh.map((b) => b.header)));
      assert.deepEqual(
        attached.payloads.map((p) => encodeBase64Url(p.payloadHash)).sort(),
        fresh.map((b) => encodeBase64Url(b.header.payloadHash)).sort(),
      );
      gossip.peerHas("peer", node.ports.heads.cut());
      assert.deepEqual(gossip.attachmentsFor("peer", node.ports.heads.cut()).headers, []);
      gossip.forget("peer");
      assert.equal(
        gossip.attachmentsFor("peer", node.ports.heads.cut()).headers.length,
        stored.length,
        "a peer nothing is known of gets every recent block",
      );
    } finally {
      node.close();
    }
  });

  it(`are at most ${GOSSIP_ATTACHED_BLOCKS}`, () => {
    const { node, gossip, stored } = recording();
    try {
      while (stored.length <= GOSSIP_ATTACHED_BLOCKS) node.producer.mine(0);
      const attached = gossip.attachmentsFor("peer", node.ports.heads.cut());
      assert.equal(attached.headers.length, GOSSIP_ATTACHED_BLOCKS);
      assert.equal(attached.payloads.length, GOSSIP_ATTACHED_BLOCKS);
    } finally {
      node.close();
    }
  });
});
