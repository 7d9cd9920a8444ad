/**
 * A peer client against real HTTP peers: a peer that closes an idle kept-alive connection while
 * this node's thread is busy (as when it imports a sync's batch) has the request that was reset
 * unread sent once more on a new connection (the peer runs on a thread of its own, so it closes
 * the connection while this thread is blocked); a peer that holds its answers gets at most
 * MAX_PEER_REQUESTS_IN_FLIGHT requests at once; answers read over many turns of the event loop
 * (read-pacing.ts) arrive whole; a peer that answers without end has all its requests cut off
 * once it sent MAX_PEER_BYTES_PER_INTERVAL, and no more go to it.
 */
import assert from "node:assert/strict";
import { createServer, type Server, type ServerResponse } from "node:http";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import {
  MAX_PEER_REQUESTS_IN_FLIGHT,
  type PeerByteBound,
  PeerClient,
  PeerLimitError,
} from "./peer-client.ts";
import { MAX_READ_BYTES_PER_TURN } from "./read-pacing.ts";

/**
 * A peer on its own thread that answers every request with its number and closes each connection
 * 20 ms after answering on it; posts its port.
 */
const PEER_SOURCE = `
const { createServer } = require("node:http");
const { parentPort } = require("node:worker_threads");
let answered = 0;
const server = createServer((request, response) => {
  answered++;
  response.setHeader("content-type", "application/json");
  response.end(JSON.stringify({ answered }), () =>
    setTimeout(() => request.socket.destroy(), 20));
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage({ port: server.address().port }));
`;

/** Blocks this thread for `ms` (the event loop sees nothing meanwhile). */
function blockThread(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe("a peer client", () => {
  it("sends a request again on a new connection when the kept-alive one was closed under it", async () => {
    const peer = new Worker(PEER_SOURCE, { eval: true });
    try {
      const port = await new Promise<number>((resolve) =>
        peer.once("message", (m: { port: number }) => resolve(m.port)),
      );
      const client = new PeerClient({ hostname: "127.0.0.1", port }, "development");
      assert.deepEqual(await client.call("getCut"), { answered: 1 });
      // The peer closes the connection 20 ms after its answer; this thread does not see it.
      blockThread(400);
      // The second request the peer answered: the one that was reset never reached it.
      assert.deepEqual(await client.call("getCut"), { answered: 2 });
    } finally {
      await peer.terminate();
    }
  });
});

/** A peer on 127.0.0.1 whose every answer `answer` gives; its port, and the requests it had. */
async function peer(answer: (response: ServerResponse) => void, bound?: PeerByteBound) {
  let requests = 0;
  const server: Server = createServer((_request, response) => {
    requests++;
    answer(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    client: new PeerClient(
      { hostname: "127.0.0.1", port: (server.address() as { port: number }).port },
      "development",
      "http",
      bound,
    ),
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe("a peer client's bounds", () => {
  it(`reads an answer of many turns' worth of bytes (${MAX_READ_BYTES_PER_TURN} a turn) whole`, async () => {
    const items = Array.from({ length: 64 }, (_, i) => String(i).repeat(100_000));
    const text = JSON.stringify(items);
    const large = await peer((response) =>
      response.writeHead(200, { "content-type": "application/json" }).end(text),
    );
    try {
      const answers = await Promise.all([
        large.client.call("payloadBatch", { chainId: 0, body: [] }),
        large.client.call("payloadBatch", { chainId: 1, body: [] }),
      ]);
      assert.ok(text.length > 6 * MAX_READ_BYTES_PER_TURN);
      assert.deepEqual(answers, [items, items]);
    } finally {
      await large.close();
    }
  });

  it(`sends at most ${MAX_PEER_REQUESTS_IN_FLIGHT} requests to a peer at once; the others wait`, async () => {
    const held: ServerResponse[] = [];
    const slow = await peer((response) => held.push(response));
    try {
      const count = MAX_PEER_REQUESTS_IN_FLIGHT + 12;
      const calls = Array.from({ length: count }, () => slow.client.call("getCut"));
      await sleep(200);
      assert.equal(slow.requests(), MAX_PEER_REQUESTS_IN_FLIGHT);
      // Each answer lets one waiting request go.
      while (held.length > 0) {
        held.shift()!.setHeader("content-type", "application/json").end("{}");
        await sleep(10);
      }
      assert.equal(held.length, 0);
      assert.deepEqual(await Promise.all(calls), Array(count).fill({}));
      assert.equal(slow.requests(), count);
    } finally {
      await slow.close();
    }
  });

  it("cuts off every request to a peer that sends more than its bytes, and sends it none for an interval", async () => {
    // The bound made small, so the test reads megabytes, not the node's hundreds.
    const bound = { bytes: 4 << 20, intervalMs: 1_000 };
    const chunk = Buffer.alloc(1 << 16, 0x41);
    let written = 0;
    const endless = await peer((response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const more = () => {
        while (!response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return;
        }
      };
      response.on("drain", more);
      more();
    }, bound);
    try {
      const reason = `it sent more than ${bound.bytes} bytes within ${bound.intervalMs} ms`;
      const calls = Array.from({ length: MAX_PEER_REQUESTS_IN_FLIGHT + 2 }, (_, chainId) =>
        endless.client.call("headerBranch", { chainId, body: {} }).then(
          () => assert.fail("an endless answer ended"),
          (e: unknown) => e,
        ),
      );
      for (const e of await Promise.all(calls)) {
        assert.ok(e instanceof PeerLimitError, String(e));
        assert.equal(e.reason, reason);
      }
      // The waiting ones were never sent (the peer reads the last ones sent after they were cut off).
      await sleep(200);
      const sent = endless.requests();
      assert.ok(sent >= 1 && sent <= MAX_PEER_REQUESTS_IN_FLIGHT, `requests: ${sent}`);
      // What it wrote: the bound, and what the sockets' buffers held when they were cut off.
      assert.ok(written < bound.bytes + (32 << 20), `written: ${written}`);
      const refused = await endless.client.call("getCut").catch((e: unknown) => e);
      assert.ok(refused instanceof PeerLimitError && refused.reason === reason, String(refused));
      assert.equal(endless.requests(), sent);
      // The interval over, it is asked again.
      await sleep(bound.intervalMs + 100);
      const again = await endless.client.call("getCut").catch((e: unknown) => e);
      assert.ok(again instanceof PeerLimitError, String(again));
      assert.equal(endless.requests(), sent + 1);
    } finally {
      await endless.close();
    }
  });
});
