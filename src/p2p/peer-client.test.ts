/**
 * A peer closes an idle kept-alive connection while this node's thread is busy (as when it
 * imports a sync's batch): the next request, sent on that connection before the close is seen,
 * is reset unread, and the client sends it once more on a new connection. The peer runs on a
 * thread of its own, so it closes the connection while this thread is blocked.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Worker } from "node:worker_threads";
import { PeerClient } from "./peer-client.ts";

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
