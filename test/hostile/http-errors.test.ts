/**
 * Issue 24, item 8 (the HTTP layer's errors), on a `braid node` process: requests Node's HTTP
 * parser or fastify's router refuses (bad framing, headers too large, a path that is not valid
 * percent-encoding) and compressed bodies are answered in plain
 * text with the common response headers, as every other refusal; a block hash with `=` padding
 * is a 400.
 */
import assert from "node:assert/strict";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import { type NodeProcess, startNode } from "../support/node-process.ts";

const TEXT = "text/plain; charset=utf-8";

/** Sends `request` as raw bytes; what the server answered by the time it closed. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.end(request);
  });
}

/** A raw answer's status line, headers (lowercase names) and body. */
function parse(answer: string) {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  const [status, ...lines] = head.split("\r\n");
  const headers = new Map(
    lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 2)]),
  );
  return { status, headers, body };
}

function assertCommonHeaders(headers: Map<string, string>) {
  assert.match(headers.get("x-peer-addr") ?? "", /^127\.0\.0\.1:\d+$/);
  assert.match(headers.get("x-server-timestamp") ?? "", /^\d+$/);
  assert.ok(headers.has("x-chainweb-node-version"));
  assert.ok(headers.has("x-service-node-version"));
}

describe("the HTTP layer's refusals", () => {
  let node: NodeProcess;
  let port: number;
  before(async () => {
    node = await startNode();
    port = Number(new URL(node.url).port);
  });
  after(() => node.stop());

  it("answers bad framing with a plain-text 400 with the common headers", async () => {
    const answer = parse(
      await raw(
        port,
        "POST /info HTTP/1.1\r\nhost: x\r\ncontent-length: 5\r\ntransfer-encoding: chunked\r\n\r\n",
      ),
    );
    assert.equal(answer.status, "HTTP/1.1 400 Bad Request");
    assert.equal(answer.headers.get("content-type"), TEXT);
    assertCommonHeaders(answer.headers);
    assert.equal(
      answer.body,
      "malformed HTTP request: Transfer-Encoding can't be present with Content-Length",
    );
  });

  it("answers a garbled request line with a plain-text 400 with the common headers", async () => {
    const answer = parse(await raw(port, "G\u0001T / HTTP/1.1\r\n\r\n"));
    assert.equal(answer.status, "HTTP/1.1 400 Bad Request");
    assert.equal(answer.headers.get("content-type"), TEXT);
    assertCommonHeaders(answer.headers);
    assert.match(answer.body, /^malformed HTTP request: /);
  });

  it("answers a path that is not valid percent-encoding with a plain-text 400 with the common headers", async () => {
    const answer = parse(
      await raw(port, "GET /chainweb/0.0/development/cut%zz HTTP/1.1\r\nhost: x\r\n\r\n"),
    );
    assert.equal(answer.status, "HTTP/1.1 400 Bad Request");
    assert.equal(answer.headers.get("content-type"), TEXT);
    assertCommonHeaders(answer.headers);
    assert.equal(
      answer.body,
      'the path "/chainweb/0.0/development/cut%zz" is not valid percent-encoding',
    );
  });

  it("answers headers over the limit with a plain-text 431 with the common headers", async () => {
    const answer = parse(
      await raw(port, `GET /info HTTP/1.1\r\nhost: x\r\nx-big: ${"a".repeat(20_000)}\r\n\r\n`),
    );
    assert.equal(answer.status, "HTTP/1.1 431 Request Header Fields Too Large");
    assert.equal(answer.headers.get("content-type"), TEXT);
    assertCommonHeaders(answer.headers);
    assert.equal(answer.body, "the request headers are larger than the server's limit");
  });

  it("refuses a compressed body with a plain-text 415 with the common headers", async () => {
    for (const coding of ["gzip", "br", "identity, deflate"]) {
      const response = await fetch(`${node.api(0)}/local`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": coding },
        body: "{}",
      });
      assert.equal(response.status, 415, coding);
      assert.equal(response.headers.get("content-type"), TEXT);
      assert.ok(response.headers.get("x-server-timestamp"));
      assert.equal(
        await response.text(),
        `Content-Encoding ${JSON.stringify(coding)} is not supported: send the body as it is (identity)`,
      );
    }
    const identity = await fetch(`${node.api(0)}/poll`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "identity" },
      body: JSON.stringify({ requestKeys: ["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"] }),
    });
    assert.equal(identity.status, 200);
  });

  it("refuses a block hash with padding", async () => {
    const base = `${node.url}/chainweb/0.0/development/chain/0`;
    const cut = await fetch(`${node.url}/chainweb/0.0/development/cut`);
    const { hashes } = (await cut.json()) as { hashes: Record<string, { hash: string }> };
    const hash = hashes["0"]!.hash;
    assert.equal((await fetch(`${base}/header/${hash}`)).status, 200);
    const padded = await fetch(`${base}/header/${hash}=`);
    assert.equal(padded.status, 400);
    assert.equal(padded.headers.get("content-type"), TEXT);
    assert.equal(
      await padded.text(),
      `block hash ${JSON.stringify(`${hash}=`)}: a hash is unpadded base64url (43 characters, no "=")`,
    );
  });
});
