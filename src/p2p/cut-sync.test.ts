/**
 * A cut that carries its blocks (chainweb-node's `headers` and `payloads` of CutHashes) is synced
 * from them: the origin is not asked — here it cannot be, as nothing listens at its address —
 * and the node ends at the cut; a carried block that is not what it claims is refused by the
 * import pipeline and stored nowhere; a cut without them, or carrying too few, sends the sync to
 * its origin.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serveWithNetwork } from "../app/test-support/served-network.ts";
import { type CutHashes, cutId, decodeCutHashes, encodeCutHashes } from "../chain/cut/cut.ts";
import { type PayloadData, payloadDataOf } from "../chain/payload/payload.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import type { BraidNode } from "../node/node.ts";
import { ImportError } from "../node/ports.ts";
import { blocksAfterGenesis, manualNode } from "../node/test-support/dev-node.ts";
import { CutSync } from "./cut-sync.ts";
import { PeerClient, PeerRequestError } from "./peer-client.ts";
import { closedPort } from "./test-support/closed-port.ts";

const origin = { id: null, address: { hostname: "127.0.0.1", port: 1 } };

/** A node that made blocks on chains 0 and 7 (and those braiding needs). */
function source(): BraidNode {
  const node = manualNode();
  node.producer.mine(0);
  node.producer.mine(7);
  node.producer.mine(0);
  return node;
}

/**
 * The source's cut as a peer receives it, carrying `carried` of its blocks (the last one's
 * payload as `lie` makes it).
 */
function receivedCut(
  node: BraidNode,
  carried: number,
  lie: (payload: PayloadData) => PayloadData = (payload) => payload,
): CutHashes {
  const all = blocksAfterGenesis(node);
  const blocks = all.slice(all.length - carried);
  const payloads = blocks.map((b) => payloadDataOf(b.payload));
  if (payloads.length > 0) payloads.push(lie(payloads.pop()!));
  const text = encodeCutHashes(node.ports.heads.cut(), "development", origin, {
    headers: blocks.map((b) => b.header),
    payloads,
  });
  const cut = decodeCutHashes(JSON.parse(text), 20);
  assert.ok(typeof cut !== "string", cut as string);
  return cut;
}

/** A source node with blocks, a fresh node, and a peer client of an address nothing answers at. */
async function withNodes(
  run: (from: BraidNode, to: BraidNode, unreachable: PeerClient, all: number) => Promise<void>,
) {
  const from = source();
  const to = manualNode();
  try {
    const port = await closedPort();
    const unreachable = new PeerClient({ hostname: "127.0.0.1", port }, "development");
    await run(from, to, unreachable, blocksAfterGenesis(from).length);
  } finally {
    from.close();
    to.close();
  }
}

describe("a cut carrying its blocks", () => {
  it("is synced from them, its origin not asked", () =>
    withNodes(async (from, to, unreachable, all) => {
      const outcome = await new CutSync(to.ports).syncTo(unreachable, receivedCut(from, all));
      assert.equal(outcome.blocks, all);
      assert.deepEqual(cutId(to.ports.heads.cut()), cutId(from.ports.heads.cut()));
    }));

  it("refuses a carried block that is not what it claims, storing it nowhere", () =>
    withNodes(async (from, to, unreachable, all) => {
      const lying = blocksAfterGenesis(from).at(-1)!.header;
      const cut = receivedCut(from, all, (payload) => ({
        ...payload,
        minerData: new TextEncoder().encode(
          '{"account":"thief","predicate":"keys-all","public-keys":[]}',
        ),
      }));
      await assert.rejects(
        new CutSync(to.ports).syncTo(unreachable, cut),
        (e) =>
          e instanceof ImportError &&
          e.code === "payload-mismatch" &&
          e.message ===
            `block ${encodeBase64Url(lying.hash)} of chain ${lying.chainId} is refused (payload-mismatch): the payload does not match transactionsHash`,
      );
      assert.equal(to.ports.blocks.header(lying.hash), undefined, "stored nowhere");
      assert.notDeepEqual(to.ports.heads.cut().get(lying.chainId)!.hash, lying.hash);
    }));

  it("without all of them down to this node's blocks, asks its origin for the branches", () =>
    withNodes(async (from, to, unreachable, all) => {
      for (const carried of [0, all - 1]) {
        await assert.rejects(
          new CutSync(to.ports).syncTo(unreachable, receivedCut(from, carried)),
          (e) => e instanceof PeerRequestError && e.endpoint === "headerBranch",
          `carrying ${carried} of ${all}`,
        );
      }
    }));
});

/**
 * A node `heights` heights ahead on every chain, served over HTTP, and a fresh node; `run` gets
 * the fresh node, a client of the served one, and the served one. The served node's faults
 * must be none.
 */
async function withPeerAhead(
  heights: number,
  run: (to: BraidNode, peer: PeerClient, from: BraidNode) => Promise<void>,
) {
  const from = manualNode();
  const to = manualNode();
  const faults: unknown[] = [];
  const served = await serveWithNetwork(from, { faults });
  try {
    for (let height = 1; height <= heights; height++) {
      for (const chain of from.chains) from.producer.ensureHeight(chain.chainId, height);
    }
    await run(to, new PeerClient(served.address, "development"), from);
  } finally {
    await served.server.close();
    from.close();
    to.close();
    assert.deepEqual(faults, []);
  }
}

/** The peer's cut. */
async function cutOf(peer: PeerClient): Promise<CutHashes> {
  const cut = decodeCutHashes(await peer.call("getCut"), 20);
  assert.ok(typeof cut !== "string", cut as string);
  return cut;
}

/** Tells `seen` of the size of each batch `node` is given to import. */
function watchImports(node: BraidNode, seen: (blocks: number) => void): void {
  const sync = node.ports.sync as { importBlocks: typeof node.ports.sync.importBlocks };
  const importBlocks = sync.importBlocks;
  sync.importBlocks = (blocks) => {
    seen(blocks.length);
    return importBlocks(blocks);
  };
}

describe("a sync in rounds", () => {
  it("follows a peer far ahead round by round, each twice the one before up to the limit, each next round's headers fetched from the last round's target", () =>
    withPeerAhead(12, async (to, peer, from) => {
      const asked: string[] = [];
      const call = peer.call.bind(peer);
      peer.call = (endpoint, request) => {
        if (endpoint === "getCut") asked.push(`getCut ${request?.query?.maxheight}`);
        return call(endpoint, request);
      };
      watchImports(to, () => asked.push("import"));
      const cut = await cutOf(peer);
      const outcome = await new CutSync(to.ports, { first: 40, most: 100 }).syncTo(peer, cut);
      assert.equal(outcome.blocks, 240);
      assert.deepEqual(cutId(to.ports.heads.cut()), cutId(from.ports.heads.cut()));
      // Rounds of 40, 80, 100 and the last 20 blocks.
      assert.deepEqual(
        asked,
        [
          "getCut undefined",
          "getCut 40",
          "getCut 120",
          "import",
          "getCut 220",
          "import",
          "import",
          "import",
        ],
        "each next round asked for before the round before is imported",
      );
    }));

  it("asks its own database for no payload of a block above its chain's highest stored one", () =>
    withPeerAhead(3, async (to, peer) => {
      const looked: string[] = [];
      const blocks = to.ports.blocks as { payload: typeof to.ports.blocks.payload };
      const payload = blocks.payload.bind(blocks);
      blocks.payload = (hash) => {
        looked.push(encodeBase64Url(hash));
        return payload(hash);
      };
      assert.equal((await new CutSync(to.ports).syncTo(peer, await cutOf(peer))).blocks, 60);
      assert.deepEqual(looked, []);
    }));

  it("hands each stretch of payloads to the import pipeline whole: the first 200 blocks of a round, then up to 1,000 at a time", () =>
    withPeerAhead(61, async (to, peer, from) => {
      const batches: number[] = [];
      watchImports(to, (blocks) => batches.push(blocks));
      const outcome = await new CutSync(to.ports).syncTo(peer, await cutOf(peer));
      assert.equal(outcome.blocks, 1_220);
      assert.deepEqual(cutId(to.ports.heads.cut()), cutId(from.ports.heads.cut()));
      // Rounds of 1,000 and 220 blocks, each a first stretch of 200 and the rest.
      assert.deepEqual(batches, [200, 800, 200, 20]);
    }));
});
