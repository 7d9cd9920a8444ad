/**
 * The P2P API's own routes over a real in-process server: `PUT /cut` (204 from a peer, 401 from
 * an origin that is not one, verified only at the address the cut came from and a few at once;
 * 400 with the reason for what is not a cut with an origin), `GET /cut/peer` in pages, `PUT /cut/peer`
 * (added once the peer answers at its address, 400 otherwise) and `GET /config`.
 */

import assert from "node:assert/strict";
import { createServer, type Socket } from "node:net";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { serveWithNetwork } from "../../app/test-support/served-network.ts";
import { encodeCutHashes } from "../../chain/cut/cut.ts";
import type { BraidNode } from "../../node/node.ts";
import { manualNode } from "../../node/test-support/dev-node.ts";
import { MAX_PEER_VERIFICATIONS, type P2PNetwork } from "../../p2p/network.ts";
import { closedPort } from "../../p2p/test-support/closed-port.ts";
import type { RunningNodeServer } from "../service/server.ts";

const BASE = "/chainweb/0.0/development";
const NOT_A_PEER = 'a peer must be an object {"id": …, "address": {"hostname": …, "port": …}}';

/** A node served with the P2P routes, its network not started (nothing polled or gossiped). */
async function served(config: unknown = {}) {
  const node = manualNode();
  const faults: unknown[] = [];
  const { network, server } = await serveWithNetwork(node, { config, faults });
  return { node, network, server, faults };
}

/** A listener on `host` that counts the connections it takes and never answers. */
async function listener(host: string) {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("the P2P routes", () => {
  let node: BraidNode;
  let network: P2PNetwork;
  let server: RunningNodeServer;
  let faults: unknown[];
  const config = { network: "development", p2p: { maxPeers: 8 } };
  const send = (method: string, path: string, body?: string) =>
    fetch(`${server.url}${BASE}${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body,
    });
  const expect400 = async (response: Response, reason: string) => {
    assert.equal(response.status, 400);
    assert.match(String(response.headers.get("content-type")), /^text\/plain/);
    assert.equal(await response.text(), reason);
  };

  before(async () => {
    ({ node, network, server, faults } = await served(config));
  });
  after(async () => {
    await server.close();
    network.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  describe("PUT /cut", () => {
    const origin = { id: null, address: { hostname: "127.0.0.1", port: 1 } };
    const cutBody = (from: unknown) => {
      const json = JSON.parse(encodeCutHashes(node.ports.heads.cut(), "development", null));
      return JSON.stringify({ ...json, origin: from });
    };

    it("takes a cut from a peer (204)", async () => {
      network.peers.add(origin);
      const response = await send("PUT", "/cut", cutBody(origin));
      assert.equal(response.status, 204);
      assert.equal(await response.text(), "");
    });

    it("answers 401 to an origin that is not a peer, and calls no address the cut did not come from", async () => {
      const elsewhere = await listener("127.0.0.2");
      try {
        const stranger = { id: null, address: { hostname: "127.0.0.2", port: elsewhere.port } };
        const response = await send("PUT", "/cut", cutBody(stranger));
        assert.equal(response.status, 401);
        assert.equal(await response.text(), "Unknown peer");
        await sleep(200);
        assert.equal(elsewhere.connections(), 0);
        assert.equal(network.peers.get(`127.0.0.2:${elsewhere.port}`), undefined);
      } finally {
        await elsewhere.close();
      }
    });

    it(`verifies unknown origins at the cut's own address, ${MAX_PEER_VERIFICATIONS} at once, and takes one that answers as a peer`, async () => {
      // Addresses that take connections and never answer: each verification stays in flight.
      const silent = await Promise.all(Array.from({ length: 10 }, () => listener("127.0.0.1")));
      // A node of its own receives the cuts, so the peer it learns stays out of the others' pages.
      const receiver = await served();
      const other = await served();
      const putCut = (from: unknown) =>
        fetch(`${receiver.server.url}${BASE}/cut`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: cutBody(from),
        });
      try {
        for (const { port } of silent) {
          const from = { id: null, address: { hostname: "127.0.0.1", port } };
          assert.equal((await putCut(from)).status, 401);
        }
        await sleep(300);
        const calls = silent.map((l) => l.connections());
        assert.equal(
          calls.reduce((a, b) => a + b),
          MAX_PEER_VERIFICATIONS,
          `connections: ${calls.join(" ")}`,
        );
        await Promise.all(silent.map((l) => l.close()));
        for (const { port } of silent) {
          assert.equal(receiver.network.peers.get(`127.0.0.1:${port}`), undefined);
        }
        // A real peer, the verifications' places free again.
        const peer = { id: null, address: { hostname: "127.0.0.1", port: other.server.port } };
        const deadline = Date.now() + 5_000;
        while (receiver.network.peers.get(`127.0.0.1:${other.server.port}`) === undefined) {
          assert.ok(Date.now() < deadline, "the real peer joined");
          assert.equal((await putCut(peer)).status, 401);
          await sleep(100);
        }
        assert.equal((await putCut(peer)).status, 204);
      } finally {
        await Promise.all(silent.map((l) => l.close()));
        for (const done of [receiver, other]) {
          await done.server.close();
          done.network.close();
          done.node.close();
          assert.deepEqual(done.faults, []);
        }
      }
    });

    it("refuses a cut without an origin, or with one that is not a peer", async () => {
      await expect400(await send("PUT", "/cut", cutBody(null)), `"origin": ${NOT_A_PEER}`);
      await expect400(
        await send("PUT", "/cut", cutBody({ id: null, address: { hostname: "x", port: 0 } })),
        '"origin": the port 0 is not between 1 and 65535',
      );
    });

    it("refuses what is not a cut of this network", async () => {
      const json = JSON.parse(cutBody(origin));
      delete json.hashes["19"];
      await expect400(
        await send("PUT", "/cut", JSON.stringify(json)),
        "the cut names 19 of 20 chains",
      );
      json.hashes["20"] = json.hashes["0"];
      await expect400(
        await send("PUT", "/cut", JSON.stringify(json)),
        '"20" is not a chain of this network',
      );
      await expect400(
        await send("PUT", "/cut", JSON.stringify({ ...JSON.parse(cutBody(origin)), weight: 1 })),
        '"weight" must be a base64url 256-bit word',
      );
      await expect400(await send("PUT", "/cut", ""), "the request body is empty: expected JSON");
    });
  });

  describe("GET /cut/peer", () => {
    before(() => {
      for (let n = 1; n <= 4; n++) {
        network.peers.add({ id: null, address: { hostname: `10.0.0.${n}`, port: 1789 } });
      }
    });
    const page = async (query: string) => {
      const response = await send("GET", `/cut/peer${query}`);
      assert.equal(response.status, 200);
      return (await response.json()) as { limit: number; items: unknown[]; next: string | null };
    };
    const hosts = (items: unknown[]) =>
      items.map((p) => (p as { address: { hostname: string } }).address.hostname);

    it("answers every peer as a page, in the API's peer objects", async () => {
      const all = await page("");
      assert.equal(all.limit, 5);
      assert.equal(all.next, null);
      assert.deepEqual(hosts(all.items), [
        "127.0.0.1",
        "10.0.0.1",
        "10.0.0.2",
        "10.0.0.3",
        "10.0.0.4",
      ]);
      assert.deepEqual(all.items[1], { id: null, address: { hostname: "10.0.0.1", port: 1789 } });
    });

    it("pages with limit and next", async () => {
      const first = await page("?limit=2");
      assert.deepEqual(
        [first.limit, hosts(first.items), first.next],
        [2, ["127.0.0.1", "10.0.0.1"], "inclusive:2"],
      );
      const second = await page(`?limit=2&next=${first.next}`);
      assert.deepEqual(
        [second.limit, hosts(second.items), second.next],
        [2, ["10.0.0.2", "10.0.0.3"], "inclusive:4"],
      );
      const last = await page(`?limit=2&next=${second.next}`);
      assert.deepEqual([last.limit, hosts(last.items), last.next], [1, ["10.0.0.4"], null]);
      const none = await page("?limit=0");
      assert.deepEqual([none.limit, none.items, none.next], [0, [], "inclusive:0"]);
    });

    it("refuses a bad limit or next", async () => {
      const limit = '"limit" must be an integer from 0 to 1000';
      await expect400(await send("GET", "/cut/peer?limit=1001"), limit);
      await expect400(await send("GET", "/cut/peer?limit=-1"), limit);
      await expect400(await send("GET", "/cut/peer?limit=x"), limit);
      await expect400(await send("GET", "/cut/peer?next=2"), '"next" must be inclusive:<index>');
      await expect400(
        await send("GET", "/cut/peer?next=exclusive:2"),
        '"next" must be inclusive:<index>',
      );
    });
  });

  describe("PUT /cut/peer", () => {
    it("adds a peer that answers at the address it gave", async () => {
      const other = await served();
      try {
        const port = other.server.port;
        const response = await send(
          "PUT",
          "/cut/peer",
          JSON.stringify({ id: null, address: { hostname: "127.0.0.1", port } }),
        );
        assert.equal(response.status, 204, await response.clone().text());
        assert.equal(network.peers.get(`127.0.0.1:${port}`)?.configured, false);
      } finally {
        await other.server.close();
        other.network.close();
        other.node.close();
      }
    });

    it("refuses a peer that does not answer, and what is not a peer", async () => {
      const port = await closedPort();
      await expect400(
        await send(
          "PUT",
          "/cut/peer",
          JSON.stringify({ id: null, address: { hostname: "127.0.0.1", port } }),
        ),
        `Invalid hostaddress: the peer 127.0.0.1:${port} is not reachable: 127.0.0.1:${port} getPeers: ECONNREFUSED`,
      );
      assert.equal(network.peers.get(`127.0.0.1:${port}`), undefined);
      await expect400(await send("PUT", "/cut/peer", "[]"), NOT_A_PEER);
    });
  });

  it("GET /config answers the configuration it was given", async () => {
    const response = await send("GET", "/config");
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get("content-type")), /^application\/json/);
    assert.deepEqual(await response.json(), config);
  });

  it("the routes of another network are 404", async () => {
    const response = await fetch(`${server.url}/chainweb/0.0/mainnet01/cut/peer`);
    assert.equal(response.status, 404);
  });
});
