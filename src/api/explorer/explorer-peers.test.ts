/**
 * The peers as the explorer (`/braid/api/peers`) and `/info` (`braidPeers`) show them, on
 * in-process nodes that each serve the P2P API from a real network on 127.0.0.1: A has blocks,
 * B names A with a peer option and syncs from it, C names A too but requires proof of work, so
 * it refuses A's blocks (made without) and leaves A alone. Each answer is awaited until it is
 * exactly the expected one (the peers poll each other every second), then compared whole.
 */

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { serveWithNetwork } from "../../app/test-support/served-network.ts";
import { cutHeight, cutWeight } from "../../chain/cut/cut.ts";
import type { BraidNode } from "../../node/node.ts";
import { manualNode } from "../../node/test-support/dev-node.ts";
import type { P2PNetwork } from "../../p2p/network.ts";
import type { PeerAddress } from "../../p2p/peer-info.ts";
import type { RunningNodeServer } from "../service/server.ts";

/** How long the peers may take to agree on what the test expects. */
const SETTLE_TIMEOUT_MS = 15_000;

interface PeerNode {
  readonly node: BraidNode;
  readonly network: P2PNetwork;
  readonly server: RunningNodeServer;
  /** `127.0.0.1:<port>` */
  readonly address: string;
}

describe("the peers in the explorer and /info", { timeout: 60_000 }, () => {
  const faults: unknown[] = [];
  const started: PeerNode[] = [];
  let a: PeerNode;
  let b: PeerNode;

  /** A node serving its API and the P2P API on 127.0.0.1, its network started. */
  async function peerNode(node: BraidNode, peers: PeerAddress[]): Promise<PeerNode> {
    const { network, server, address } = await serveWithNetwork(node, { peers, faults });
    network.start(address);
    const peer = { node, network, server, address: `127.0.0.1:${server.port}` };
    started.push(peer);
    return peer;
  }

  const addressOf = (peer: PeerNode): PeerAddress => ({
    hostname: "127.0.0.1",
    port: peer.server.port,
  });

  // biome-ignore lint/suspicious/noExplicitAny: the answers are compared whole with what is expected
  async function getJson(peer: PeerNode, path: string): Promise<any> {
    const response = await fetch(`${peer.server.url}${path}`);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get("content-type"), "application/json; charset=utf-8");
    return response.json();
  }

  /** Asks `path` of `peer` until its answer (through `pick`) is `expected`; fails with the last. */
  async function settlesTo(
    peer: PeerNode,
    path: string,
    expected: unknown,
    pick: (answer: unknown) => unknown = (answer) => answer,
  ): Promise<void> {
    const deadline = Date.now() + SETTLE_TIMEOUT_MS;
    let last: unknown;
    for (;;) {
      last = pick(await getJson(peer, path));
      try {
        assert.deepEqual(last, expected);
        return;
      } catch (e) {
        if (Date.now() > deadline) throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** This node's cut as `/braid/api/peers` gives it. */
  function ownCut(peer: PeerNode): { cutHeight: number; cutWeight: string } {
    const cut = peer.node.ports.heads.cut();
    return { cutHeight: cutHeight(cut), cutWeight: cutWeight(cut).toString() };
  }

  before(async () => {
    const nodeA = manualNode();
    nodeA.producer.mineAll();
    a = await peerNode(nodeA, []);
    b = await peerNode(manualNode(), [addressOf(a)]);
  });
  after(async () => {
    for (const peer of started) {
      peer.network.close();
      await peer.server.close();
      peer.node.close();
    }
    assert.deepEqual(faults, []);
  });

  it("shows a configured peer and a learnt one at the same cut once one has synced the other", async () => {
    const heightA = ownCut(a).cutHeight;
    assert.equal(heightA, 20, "genesis and one block on each of the 20 chains");
    const same = (peer: PeerNode, configured: boolean) => ({
      address: peer.address,
      configured,
      cutHeight: heightA,
      relation: "same",
      problem: null,
    });
    await settlesTo(b, "/braid/api/peers", {
      address: b.address,
      ...ownCut(a),
      peers: [same(a, true)],
    });
    assert.deepEqual(ownCut(b), ownCut(a), "B adopted A's cut");
    await settlesTo(a, "/braid/api/peers", {
      address: a.address,
      ...ownCut(a),
      peers: [same(b, false)],
    });
  });

  it("adds braidPeers to /info after chainweb-node's NodeInfo fields, as the explorer has them", async () => {
    const info = await getJson(b, "/info");
    assert.deepEqual(Object.keys(info), [
      "nodeVersion",
      "nodePackageVersion",
      "nodeApiVersion",
      "nodeChains",
      "nodeNumberOfChains",
      "nodeGraphHistory",
      "nodeLatestBehaviorHeight",
      "nodeGenesisHeights",
      "nodeHistoricalChains",
      "nodeBlockDelay",
      "braidPeers",
    ]);
    assert.deepEqual(info.braidPeers, (await getJson(b, "/braid/api/peers")).peers);
    assert.deepEqual(info.braidPeers, [
      {
        address: a.address,
        configured: true,
        cutHeight: 20,
        relation: "same",
        problem: null,
      },
    ]);
  });

  it("shows a peer whose blocks were refused as ahead, with the reason it is left alone", async () => {
    const c = await peerNode(manualNode({ requirePow: true }), [addressOf(a)]);
    const refused = (peer: PeerNode, configured: boolean) => ({
      address: peer.address,
      configured,
      cutHeight: 20,
      relation: "ahead",
      problem: "(invalid-header): PoW hash … exceeds target …",
    });
    // The refused block's hash and PoW hash change from run to run: the rest of the reason is kept.
    const withoutHashes = (answer: unknown) => {
      const { peers, ...rest } = answer as { peers: { problem: string | null }[] };
      const problem = (text: string | null) =>
        text?.replace(
          /^block [A-Za-z0-9_-]{43} of chain \d+ is refused (\(invalid-header\): PoW hash )[0-9a-f]{64}( exceeds target )[0-9a-f]{64}$/,
          "$1…$2…",
        ) ?? null;
      return { ...rest, peers: peers.map((p) => ({ ...p, problem: problem(p.problem) })) };
    };
    // C learns B from A's peers on start, and refuses B's copy of A's blocks as well.
    await settlesTo(
      c,
      "/braid/api/peers",
      {
        address: c.address,
        cutHeight: 0,
        cutWeight: ownCut(c).cutWeight,
        peers: [refused(a, true), refused(b, false)],
      },
      withoutHashes,
    );
    assert.equal(ownCut(c).cutHeight, 0, "C stored none of A's blocks");
    // A sees both: B at its cut, C still at genesis.
    await settlesTo(
      a,
      "/info",
      [
        { address: b.address, configured: false, cutHeight: 20, relation: "same", problem: null },
        { address: c.address, configured: false, cutHeight: 0, relation: "behind", problem: null },
      ],
      (info) => (info as { braidPeers: unknown }).braidPeers,
    );
  });
});
