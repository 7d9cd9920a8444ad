/**
 * Two in-process nodes, each served with the P2P routes on 127.0.0.1, syncing for real over
 * HTTP: blocks made on A reach B, which names A as its peer, and the cuts agree; two nodes that
 * made blocks apart converge, once connected, on the heavier cut, the lighter side's commands
 * back in its mempool.
 */

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { serveWithNetwork } from "../app/test-support/served-network.ts";
import { cutId, cutWeight } from "../chain/cut/cut.ts";
import { encodeBase64Url } from "../crypto/index.ts";
import type { BraidNode } from "../node/node.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "../node/test-support/dev-node.ts";
import { JsonNumber } from "../pact/values/index.ts";
import type { PeerAddress } from "./peer-info.ts";

/** How long a cut may take to travel between the two (peers are polled every second). */
const SYNC_WITHIN_MS = 10_000;

/**
 * A manual node served with its network on 127.0.0.1 (taking request bodies up to `bodyLimit`
 * bytes); the network started with `peers`.
 */
async function servedNode(peers: readonly PeerAddress[] = [], bodyLimit?: number) {
  const node = manualNode();
  const log: string[] = [];
  const faults: unknown[] = [];
  const { network, server, address } = await serveWithNetwork(node, {
    peers,
    faults,
    log: { info: (l) => log.push(l), warn: (l) => log.push(l), error: (l) => log.push(l) },
    ...(bodyLimit === undefined ? {} : { bodyLimit }),
  });
  return {
    node,
    network,
    address,
    log,
    start: () => network.start(address),
    async close() {
      network.close();
      await server.close();
      node.close();
      assert.deepEqual(faults, []);
    },
  };
}

const cutOf = (node: BraidNode) => encodeBase64Url(cutId(node.ports.heads.cut()));

async function until(what: string, done: () => boolean) {
  const deadline = Date.now() + SYNC_WITHIN_MS;
  while (!done()) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${SYNC_WITHIN_MS} ms`);
    await sleep(50);
  }
}

function transfer(nonce: string) {
  return devCommand({
    code: '(coin.transfer "sender00" "sender01" 1.0)',
    caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
    nonce,
  });
}

describe("two nodes over the P2P API", { timeout: 60_000 }, () => {
  it("blocks made on A reach B, which names A as its peer, and their cuts agree", async () => {
    const a = await servedNode();
    a.start();
    const b = await servedNode([a.address]);
    b.start();
    try {
      a.node.commands.submit(0, [transfer("p2p sync")]);
      a.node.producer.mine(0);
      a.node.producer.mine(7);
      await until("B at A's cut", () => cutOf(b.node) === cutOf(a.node));
      const heads = [...a.node.ports.heads.cut().values()];
      for (const head of heads) {
        assert.deepEqual(b.node.ports.blocks.header(head.hash)?.hash, head.hash);
      }
      // More blocks on A, told to B by gossip or polling: B follows again.
      a.node.producer.mine(3);
      await until("B at A's next cut", () => cutOf(b.node) === cutOf(a.node));
      assert.deepEqual(
        b.log.filter((l) => !l.endsWith(" joined")),
        [],
        "nothing refused or failed",
      );
    } finally {
      await b.close();
      await a.close();
    }
  });

  it("a peer whose body limit is below the blocks a gossip carries is sent the cut alone, and syncs it", async () => {
    const a = await servedNode();
    a.start();
    const b = await servedNode([a.address], 4_000);
    b.start();
    try {
      await until(
        "A knows B",
        () => a.network.peers.get(`127.0.0.1:${b.address.port}`) !== undefined,
      );
      for (const c of [0, 7, 0, 7, 0]) a.node.producer.mine(c);
      await until("B at A's cut", () => cutOf(b.node) === cutOf(a.node));
      assert.deepEqual(
        a.log.filter((l) => !l.endsWith(" joined")),
        [],
        "no gossip to B failed",
      );
    } finally {
      await b.close();
      await a.close();
    }
  });

  it("two nodes that made blocks apart converge on the heavier cut; the lighter side's commands go back to its mempool", async () => {
    const light = await servedNode();
    const heavy = await servedNode();
    try {
      const orphaned = transfer("p2p fork light");
      light.node.commands.submit(0, [orphaned]);
      light.node.producer.mine(0);
      assert.equal(
        light.node.chains[0]!.mempool.has(orphaned.hash),
        false,
        "mined on the light side",
      );
      heavy.node.commands.submit(0, [transfer("p2p fork heavy")]);
      heavy.node.producer.mine(0);
      for (const c of [0, 5, 10, 15, 3]) heavy.node.producer.mine(c);
      const heavier = cutWeight(heavy.node.ports.heads.cut());
      assert.ok(heavier > cutWeight(light.node.ports.heads.cut()), "the heavy side is heavier");

      // Connected: each names the other.
      light.network.peers.add({ id: null, address: heavy.address }, true);
      heavy.network.peers.add({ id: null, address: light.address }, true);
      light.start();
      heavy.start();
      await until("both at the heavy cut", () => cutOf(light.node) === cutOf(heavy.node));
      assert.equal(cutWeight(light.node.ports.heads.cut()), heavier);
      assert.equal(
        light.node.chains[0]!.mempool.has(orphaned.hash),
        true,
        "the orphaned transfer is pending again",
      );
    } finally {
      await light.close();
      await heavy.close();
    }
  });
});
