/**
 * Issue 33, item 6: a known path asked with a method it does not take is a 405 whose `Allow`
 * header names the methods it takes, with a plain-text reason and the common headers, on a
 * `braid node` process and on `braid -s`; an unknown path stays a 404 and a CORS preflight is
 * still answered.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { devServerPerSuite } from "../support/dev-server-process.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const TEXT = "text/plain; charset=utf-8";

/** The status, `Allow` header, content type and body of a request. */
async function ask(url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  return {
    status: response.status,
    allow: response.headers.get("allow"),
    type: response.headers.get("content-type"),
    body: await response.text(),
    headers: response.headers,
  };
}

const preflight: RequestInit = {
  method: "OPTIONS",
  headers: {
    origin: "http://tool.example",
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type",
  },
};

describe("wrong methods on a node process", () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode();
  });
  after(() => node.stop());

  it("answers a known path's wrong method with a 405 naming the methods it takes", async () => {
    const send = `${node.api(0)}/send`;
    const get = await ask(send);
    assert.equal(get.status, 405);
    assert.equal(get.allow, "POST");
    assert.equal(get.type, TEXT);
    assert.equal(
      get.body,
      "method GET is not allowed on /chainweb/0.0/development/chain/0/pact/api/v1/send; it takes POST",
    );
    assert.ok(get.headers.get("x-chainweb-node-version"));
    assert.match(get.headers.get("x-server-timestamp") ?? "", /^\d+$/);
    const info = await ask(`${node.url}/info`, { method: "PUT", body: "{}" });
    assert.equal(info.status, 405);
    assert.equal(info.allow, "GET, HEAD");
    const header = await ask(`${node.url}/chainweb/0.0/development/chain/0/header?limit=1`, {
      method: "DELETE",
    });
    assert.equal(header.status, 405);
    assert.equal(header.allow, "GET, HEAD");
  });

  it("keeps unknown paths a 404 and answers a CORS preflight", async () => {
    const unknown = await ask(`${node.url}/no/such/path`, { method: "DELETE" });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.allow, null);
    assert.equal(unknown.body, "no such endpoint: DELETE /no/such/path");
    const cors = await ask(`${node.api(0)}/send`, preflight);
    assert.equal(cors.status, 204);
    assert.equal(cors.headers.get("access-control-allow-origin"), "*");
  });
});

describe("wrong methods on the development server", () => {
  const server = devServerPerSuite("braid-methods-");

  it("answers a known path's wrong method with a 405 naming the methods it takes", async () => {
    const get = await ask(`${server().url}/api/v1/local`);
    assert.equal(get.status, 405);
    assert.equal(get.allow, "POST");
    assert.equal(get.type, TEXT);
    assert.equal(get.body, "method GET is not allowed on /api/v1/local; it takes POST");
    const version = await ask(`${server().url}/version`, { method: "POST", body: "{}" });
    assert.equal(version.status, 405);
    assert.equal(version.allow, "GET, HEAD");
  });

  it("keeps unknown paths a 404 and answers a CORS preflight", async () => {
    const unknown = await ask(`${server().url}/api/v2/local`);
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body, "no such endpoint: GET /api/v2/local");
    const cors = await ask(`${server().url}/api/v1/local`, preflight);
    assert.equal(cors.status, 204);
    assert.equal(cors.headers.get("access-control-allow-origin"), "*");
  });
});
