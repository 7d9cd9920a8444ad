/**
 * The mining coordination API against `braid node --mining pow` in a child process (issue #12
 * item 4): fetch `/mining/work`, solve it with the chain core's `mineNonce`, post
 * `/mining/solved`, and find the block on the chain's branch (through `local`'s `metaData`).
 * The node's own miner runs too, so a work can go stale before it is solved: then the node says
 * so and the test takes new work. Bad solutions, seeded random ones included, get 400 or 404.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { HeaderOffset, WORK_BYTES } from "../../src/chain/header/binary.ts";
import { blockHashOfWork } from "../../src/chain/header/hash.ts";
import { mineNonce } from "../../src/chain/mining/mine.ts";
import { Random } from "../../src/chain/test-support/random.ts";
import { word256FromBytes } from "../../src/chain/word256.ts";
import { blake2b256, encodeBase64Url } from "../../src/crypto/index.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

describe("mining coordination with --mining pow", () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode({ args: ["--mining", "pow"] });
  });
  after(() => {
    void node?.kill();
  });
  const base = () => `${node.url}/chainweb/0.0/development`;

  it("hands out work, takes the solved header and stores the block", async () => {
    let solvedHash: Uint8Array | undefined;
    let work = new Uint8Array();
    for (let attempt = 0; attempt < 20 && solvedHash === undefined; attempt++) {
      const response = await fetch(`${base()}/mining/work?chain=5`);
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/octet-stream");
      work = new Uint8Array(await response.arrayBuffer());
      assert.equal(work.length, 4 + 32 + WORK_BYTES);
      const target = word256FromBytes(work, 4);
      const header = work.slice(36);
      const found = mineNonce(header, target, 0n, 50_000_000);
      assert.ok(found !== undefined, "no nonce found");
      const solved = await fetch(`${base()}/mining/solved`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: header,
      });
      const text = await solved.text();
      if (solved.status === 400 && /moved on/.test(text)) continue;
      assert.equal(solved.status, 204, text);
      solvedHash = blockHashOfWork(header);
      // The same solution again: its work is used up.
      const again = await fetch(`${base()}/mining/solved`, {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: header,
      });
      assert.equal(again.status, 404);
      assert.equal(await again.text(), "No associated Payload");
    }
    assert.ok(solvedHash !== undefined, "every work went stale");
    const view = new DataView(work.buffer, 36);
    const chainId = view.getUint32(HeaderOffset.chainId, true);
    const height = Number(view.getBigUint64(HeaderOffset.height, true));

    // `local` at rewindDepth (head − height) runs on top of the solved block.
    const local = async (rewindDepth: number) => {
      const cmd = JSON.stringify({
        payload: { exec: { code: "(+ 1 2)", data: {} } },
        meta: {
          creationTime: Math.floor(Date.now() / 1000) - 10,
          ttl: 3600,
          gasLimit: 1000,
          chainId: String(chainId),
          gasPrice: 1e-8,
          sender: "sender00",
        },
        signers: [],
        networkId: "development",
        nonce: `m-${rewindDepth}-${Math.random()}`,
      });
      const hash = encodeBase64Url(blake2b256(new TextEncoder().encode(cmd)));
      const response = await fetch(
        `${base()}/chain/${chainId}/pact/api/v1/local?rewindDepth=${rewindDepth}`,
        {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ cmd, hash, sigs: [] }),
        },
      );
      const text = await response.text();
      assert.equal(response.status, 200, text);
      return JSON.parse(text).metaData as { blockHeight: number; prevBlockHash: string };
    };
    const head = await local(0);
    const meta = await local(head.blockHeight - 1 - height);
    assert.equal(meta.prevBlockHash, encodeBase64Url(solvedHash));
  });

  it("refuses bad solutions and serves the update stream", async () => {
    const short = await fetch(`${base()}/mining/solved`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(10),
    });
    assert.equal(short.status, 400);
    assert.match(await short.text(), /^Decoding error/);
    const unknown = await fetch(`${base()}/mining/solved`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array(WORK_BYTES),
    });
    assert.equal(unknown.status, 404);
    // Unsolved work (nonce 0): its PoW hash is above the target, almost surely.
    const work = new Uint8Array(await (await fetch(`${base()}/mining/work`)).arrayBuffer());
    const unsolved = await fetch(`${base()}/mining/solved`, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: work.slice(36),
    });
    const unsolvedText = await unsolved.text();
    if (unsolved.status !== 204) {
      assert.equal(unsolved.status, 400);
      assert.match(unsolvedText, /^Invalid solved work: /);
    }
    // Seeded random and mutated bodies: only 400 and 404 (a lucky mutation could solve: 204).
    const random = new Random(0x5eed);
    const valid = work.slice(36);
    for (let i = 0; i < 300; i++) {
      let body: Uint8Array;
      if (random.int(2) === 0) {
        body = new Uint8Array(random.int(600));
        for (let j = 0; j < body.length; j++) body[j] = random.int(256);
      } else {
        body = valid.slice();
        for (let k = 0; k <= random.int(4); k++) body[random.int(body.length)] = random.int(256);
      }
      const method = random.int(10) === 0 ? "PUT" : "POST";
      const response = await fetch(`${base()}/mining/solved`, {
        method,
        headers: {
          "content-type": random.int(8) === 0 ? "application/json" : "application/octet-stream",
        },
        body,
      });
      const answer = await response.text();
      const expected = method === "PUT" ? [405] : [204, 400, 404];
      assert.ok(expected.includes(response.status), `${method} ${response.status}: ${answer}`);
    }
    const badChain = await fetch(`${base()}/mining/work?chain=20`);
    assert.equal(badChain.status, 400);

    // The watched chain as a query parameter; the node's own miner makes the blocks.
    const controller = new AbortController();
    const stream = await fetch(`${base()}/mining/updates?chain=0`, { signal: controller.signal });
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get("content-type"), "text/event-stream");
    const reader = stream.body!.getReader();
    let text = "";
    while (!text.includes("event:New Cut\n\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    assert.match(text, /event:New Cut\n\n/);
  });
});
