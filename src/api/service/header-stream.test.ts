/**
 * The header stream's own rules, in process: Chainweb's framing and sorted keys, the payload on
 * `/block/updates`, keep-alive comments, a subscriber that stops reading is dropped without
 * holding up the others, 404/406 refusals, and a clean end on close.
 */

import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import http, { type ServerResponse } from "node:http";
import { describe, it } from "node:test";
import Fastify from "fastify";
import { computePowHash, powHashHex } from "../../chain/header/hash.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BraidNode } from "../../node/node.ts";
import { manualNode } from "../../node/test-support/dev-node.ts";
import { sendPlainErrors } from "../http/plain-errors.ts";
import { DEFAULT_STREAM_OPTIONS, registerHeaderStream } from "./header-stream.ts";
import { addCommonHeaders } from "./headers.ts";

async function serve(node: BraidNode, maxBufferedBytes: number, keepAliveMs: number) {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  addCommonHeaders(app, node.clock);
  sendPlainErrors(app, 1 << 20, (e) => {
    throw e;
  });
  const hub = registerHeaderStream(app, node.ports, {
    ...DEFAULT_STREAM_OPTIONS,
    maxBufferedBytes,
    keepAliveMs,
    maxSubscribers: 3,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address() as { port: number };
  return { app, hub, base: `http://127.0.0.1:${address.port}/chainweb/0.0/development` };
}

function open(url: string, onText: (text: string) => void, headers: Record<string, string> = {}) {
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(url, { headers }, (response) => {
      response.setEncoding("utf8");
      response.on("data", onText);
      resolve(response);
    });
    request.once("error", reject);
  });
}

const until = async (test: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe("header stream", () => {
  it("frames events as Chainweb does, with keep-alives and both network keys; /block/updates adds the payload", async () => {
    const node = manualNode();
    const { app, base } = await serve(node, 1 << 20, 50);
    try {
      let headers = "";
      let blocks = "";
      const h = await open(`${base}/header/updates`, (t) => {
        headers += t;
      });
      await open(`${base}/block/updates`, (t) => {
        blocks += t;
      });
      assert.equal(h.headers["content-type"], "text/event-stream");
      assert.ok(h.headers["x-chainweb-node-version"]);
      await until(() => headers.includes(":keep-alive\n\n"));
      const block = node.producer.mine(4);
      await until(() => headers.includes("event:") && blocks.includes("event:"));
      const event = headers.split("\n\n").find((e) => e.startsWith("event:"))!;
      const [name, data] = event.split("\n");
      assert.equal(name, "event:BlockHeader");
      const parsed = JSON.parse(data!.slice("data:".length));
      assert.deepEqual(Object.keys(parsed), ["header", "powHash", "target", "txCount"]);
      assert.deepEqual(Object.keys(parsed.header), [...Object.keys(parsed.header)].sort());
      assert.equal(parsed.header.hash, encodeBase64Url(block.header.hash));
      assert.equal(parsed.header.chainVersion, "development");
      assert.equal(parsed.header.chainwebVersion, "development");
      assert.equal(parsed.powHash, powHashHex(computePowHash(block.header)));
      assert.equal(parsed.target, block.header.target.toString(16).padStart(64, "0"));
      assert.equal(parsed.txCount, block.payload.transactions.length);
      const full = JSON.parse(
        blocks
          .split("\n\n")
          .find((e) => e.startsWith("event:"))!
          .split("\n")[1]!
          .slice(5),
      );
      assert.deepEqual(Object.keys(full), [
        "header",
        "payloadWithOutputs",
        "powHash",
        "target",
        "txCount",
      ]);
      assert.equal(full.payloadWithOutputs.payloadHash, parsed.header.payloadHash);
      assert.deepEqual(full.header, parsed.header);
    } finally {
      await app.close();
      node.close();
    }
  });

  it("drops a subscriber that stops reading, keeps serving the others, ends cleanly on close", async () => {
    const node = manualNode();
    const { app, hub, base } = await serve(node, 64 * 1024, 60_000);
    try {
      let count = 0;
      const reader = await open(`${base}/block/updates`, (t) => {
        count += t.split("event:BlockHeader").length - 1;
      });
      // A subscriber that reads nothing: its unsent bytes only grow (a stand-in for a socket
      // whose kernel buffers are full, which on loopback takes megabytes).
      const stalled = new StalledResponse();
      hub.subscribe(stalled as unknown as ServerResponse, {}, true);
      await until(() => hub.size === 2);
      let mined = 0;
      while (hub.dropped === 0 && mined < 400) {
        node.producer.mineAll();
        mined += 20;
        await new Promise((r) => setTimeout(r, 1));
      }
      assert.equal(hub.dropped, 1, `the stalled subscriber is dropped (after ${mined} blocks)`);
      assert.ok(stalled.destroyed);
      assert.equal(hub.size, 1);
      node.producer.mineAll();
      mined += 20;
      await until(() => count === mined);
      const refused = await fetch(`${base}/header/updates`, { headers: { accept: "text/html" } });
      assert.equal(refused.status, 406);
      const wrong = await fetch(`${base.replace("development", "mainnet01")}/header/updates`);
      assert.equal(wrong.status, 404);
      const ended = new Promise((r) => reader.once("end", () => r("end")));
      await app.close();
      assert.equal(await ended, "end");
    } finally {
      await app.close();
      node.close();
    }
  });
});

/** A response whose client never reads. */
class StalledResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  writeHead() {}
  flushHeaders() {}
  write(text: string) {
    this.writableLength += text.length;
    return false;
  }
  destroy() {
    this.destroyed = true;
    this.emit("close");
  }
  end() {}
}
