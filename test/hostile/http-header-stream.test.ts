/**
 * Issue 24, item 8: stalled readers of the header stream (`/block/updates`) must not make the
 * node hold their backlog without bound (2,000 of them took a node to 1.5 GB). On loopback the
 * kernel takes tens of megabytes per socket before a write blocks, more than a test can fill, so
 * the stalled readers here are stand-ins for sockets whose kernel buffers are full: every write
 * stays unsent. The hub, the node and its blocks are real, with the stream's default limits.
 */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, it } from "node:test";
import Fastify from "fastify";
import {
  DEFAULT_STREAM_OPTIONS,
  registerHeaderStream,
  type StreamOptions,
} from "../../src/api/service/header-stream.ts";
import { manualNode } from "../../src/node/test-support/dev-node.ts";

/** A response whose client never reads: every byte written stays unsent. */
class StalledResponse extends EventEmitter {
  writableLength = 0;
  destroyed = false;
  writeHead() {}
  flushHeaders() {}
  write(chunk: { length: number }) {
    this.writableLength += chunk.length;
    return false;
  }
  destroy() {
    this.destroyed = true;
    this.writableLength = 0;
    this.emit("close");
  }
  end() {}
}

function hubOn(options: StreamOptions) {
  const node = manualNode();
  const app = Fastify({ logger: false });
  const hub = registerHeaderStream(app, node.ports, options);
  const stalled = Array.from({ length: 2_000 }, () => {
    const response = new StalledResponse();
    hub.subscribe(response as unknown as ServerResponse, {}, true);
    return response;
  });
  const held = () => stalled.reduce((sum, r) => sum + r.writableLength, 0);
  return { node, app, hub, stalled, held };
}

describe("stalled header-stream readers", () => {
  it("2,000 of them leave the node holding a bounded backlog in all", async () => {
    const { node, app, held } = hubOn(DEFAULT_STREAM_OPTIONS);
    try {
      let peak = 0;
      for (let round = 0; round < 60; round++) {
        node.producer.mineAll();
        peak = Math.max(peak, held());
      }
      const limit = DEFAULT_STREAM_OPTIONS.maxTotalBufferedBytes + 4 * 1024 * 1024;
      assert.ok(peak <= limit, `the stalled readers held ${(peak / 2 ** 20).toFixed(0)} MiB`);
    } finally {
      await app.close();
      node.close();
    }
  });

  it("a reader whose socket takes nothing is dropped after the stall time", async () => {
    const { node, app, hub, stalled } = hubOn({
      ...DEFAULT_STREAM_OPTIONS,
      stalledMs: 200,
      maxTotalBufferedBytes: Number.MAX_SAFE_INTEGER,
    });
    try {
      node.producer.mine(0);
      assert.equal(hub.size, 2_000, "a first unsent block is no reason to drop anyone");
      await new Promise((r) => setTimeout(r, 300));
      node.producer.mine(0);
      assert.equal(hub.size, 0);
      assert.ok(stalled.every((r) => r.destroyed));
    } finally {
      await app.close();
      node.close();
    }
  });
});
