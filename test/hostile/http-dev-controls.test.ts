/**
 * Issue 24, item 5: the development controls against a hostile web page and the network, on a
 * `braid node` process. A page of another origin gets no CORS answer and cannot move the clock
 * (with or without a preflight, nor by DNS rebinding); a node listening beyond loopback serves
 * the controls only with `--dev-controls`, and its banner says which; a `mine` stops when its
 * client goes away.
 */
import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const EVIL = "http://evil.example";
const JSON_TYPE = { "content-type": "application/json" };

describe("development controls on a loopback node", () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode({ args: ["--log-level", "info"] });
  });
  after(() => node.stop());

  const dev = (name: string, init: RequestInit = {}) =>
    fetch(`${node.url}/braid/dev/${name}`, { method: "POST", ...init });
  const serverTime = async () =>
    Number((await fetch(`${node.url}/info`)).headers.get("x-server-timestamp"));

  it("answers another origin's preflight with a 403 and no CORS header", async () => {
    const response = await fetch(`${node.url}/braid/dev/time`, {
      method: "OPTIONS",
      headers: {
        origin: EVIL,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("access-control-allow-origin"), null);
    assert.equal(response.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.ok(response.headers.get("x-chainweb-node-version"));
    assert.match(await response.text(), /refuse requests from web pages of other origins/);
  });

  it("refuses another origin's POST, JSON or simple, and the clock stays", async () => {
    const before = await serverTime();
    const json = await dev("time", {
      headers: { ...JSON_TYPE, origin: EVIL },
      body: JSON.stringify({ seconds: 315_360_000 }),
    });
    assert.equal(json.status, 403);
    assert.equal(json.headers.get("access-control-allow-origin"), null);
    const simple = await dev("time", {
      headers: { "content-type": "text/plain", origin: EVIL },
      body: JSON.stringify({ seconds: 315_360_000 }),
    });
    assert.equal(simple.status, 403);
    const noBody = await dev("snapshot", { headers: { "content-type": "text/plain" } });
    assert.equal(noBody.status, 400);
    assert.equal(await noBody.text(), 'Content-Type must be application/json, got "text/plain"');
    assert.ok((await serverTime()) - before < 60, "the clock did not move");
  });

  it("refuses a request addressed to another host name (DNS rebinding)", async () => {
    // fetch sets Host itself; a rebound page's request carries the page's name in both headers.
    const port = new URL(node.url).port;
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve) => {
      const request = http.request(
        `${node.url}/braid/dev/time`,
        {
          method: "POST",
          headers: { ...JSON_TYPE, host: `evil.example:${port}`, origin: `${EVIL}:${port}` },
        },
        (response) => {
          let text = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => {
            text += chunk;
          });
          response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
        },
      );
      request.end(JSON.stringify({ seconds: 60 }));
    });
    assert.equal(status, 403);
    assert.match(body, /answer only requests addressed to this machine/);
  });

  it("serves the node's own origin and clients without one", async () => {
    const own = await dev("snapshot", { headers: { ...JSON_TYPE, origin: node.url } });
    assert.equal(own.status, 200, await own.clone().text());
    assert.equal(own.headers.get("access-control-allow-origin"), null);
    const cli = await dev("snapshot", { headers: JSON_TYPE, body: "{}" });
    assert.equal(cli.status, 200);
  });

  it("stops a mine whose client went away", async () => {
    const gone = new AbortController();
    const mining = dev("mine", {
      headers: JSON_TYPE,
      body: JSON.stringify({ blocks: 10_000, chains: [0, 5, 10, 15] }),
      signal: gone.signal,
    }).catch((e: Error) => e.name);
    const height = async () => {
      const cut = await fetch(`${node.url}/chainweb/0.0/development/cut`);
      return ((await cut.json()) as { height: number }).height;
    };
    await new Promise((r) => setTimeout(r, 300));
    gone.abort();
    assert.equal(await mining, "AbortError");
    await new Promise((r) => setTimeout(r, 300));
    const stopped = await height();
    await new Promise((r) => setTimeout(r, 700));
    assert.equal(await height(), stopped, "no block is made after the client went away");
    assert.match(node.output(), /mine stopped at step \d+ of 10000: its client went away/);
  });
});

describe("development controls on a node listening beyond loopback", () => {
  it("are refused without --dev-controls, and the banner says so", async () => {
    const node = await startNode({ args: ["--host", "0.0.0.0"] });
    try {
      const url = node.url.replace("0.0.0.0", "127.0.0.1");
      const response = await fetch(`${url}/braid/dev/snapshot`, {
        method: "POST",
        headers: JSON_TYPE,
      });
      assert.equal(response.status, 403);
      assert.match(await response.text(), /development controls are off.*--dev-controls/);
      // devnet's block trigger too (make-blocks-route.ts).
      const trigger = await fetch(`${url}/make-blocks`, { method: "POST", body: '{"0": 1}' });
      assert.equal(trigger.status, 403);
      assert.match(
        node.output(),
        /Development controls .* are off: the node listens on 0\.0\.0\.0/,
      );
    } finally {
      await node.stop();
    }
  });

  it("are served with --dev-controls, and the banner warns", async () => {
    const node = await startNode({ args: ["--host", "0.0.0.0", "--dev-controls"] });
    try {
      const url = node.url.replace("0.0.0.0", "127.0.0.1");
      const response = await fetch(`${url}/braid/dev/snapshot`, {
        method: "POST",
        headers: JSON_TYPE,
      });
      assert.equal(response.status, 200);
      assert.match(node.output(), /WARNING: the development controls .* are open to everyone/);
    } finally {
      await node.stop();
    }
  });
});
