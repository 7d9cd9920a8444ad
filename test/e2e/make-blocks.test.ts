/**
 * `POST /make-blocks` (issue 36): the block trigger of Kadena's devnet setups, as
 * chainweb-mining-client's on-demand worker takes it — a JSON object of chain ids to block counts,
 * with or without a JSON content type — answered 200 `[]` as text/plain once the blocks are made;
 * a bad body is a 400 naming why, and mines nothing. The node mines nothing by itself
 * (`--mining none`), so the heights are exactly what the requests asked for.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type NodeProcess, startNode } from "../support/node-process.ts";

let node: NodeProcess;
before(async () => {
  node = await startNode({ args: ["--mining", "none"] });
});
after(async () => {
  await node?.stop();
});

async function makeBlocks(body: string, type?: string) {
  const response = await fetch(`${node.url}/make-blocks`, {
    method: "POST",
    headers: type === undefined ? {} : { "content-type": type },
    body,
  });
  return {
    status: response.status,
    type: response.headers.get("content-type"),
    text: await response.text(),
  };
}

/** The heights of chains 0 and 3 on the node's cut. */
async function heights(): Promise<[number, number]> {
  const cut = (await (await fetch(`${node.url}/chainweb/0.0/development/cut`)).json()) as {
    hashes: Record<string, { height: number }>;
  };
  return [cut.hashes["0"]!.height, cut.hashes["3"]!.height];
}

const MADE = { status: 200, type: "text/plain", text: "[]" };

describe("POST /make-blocks", { timeout: 60_000 }, () => {
  it("makes the blocks each chain is given, and answers as the mining client does", async () => {
    assert.deepEqual(await heights(), [0, 0]);
    assert.deepEqual(await makeBlocks('{"0": 2, "3": 2}', "application/json"), MADE);
    assert.deepEqual(await heights(), [2, 2]);
    // As `curl -d` sends it (a form's content type), as devnet's readiness probe does.
    assert.deepEqual(await makeBlocks('{"3": 1}', "application/x-www-form-urlencoded"), MADE);
    assert.deepEqual(await heights(), [2, 3]);
    assert.deepEqual(await makeBlocks("{}", "application/x-www-form-urlencoded"), MADE);
    assert.deepEqual(await makeBlocks('{"0": 0}'), MADE);
    assert.deepEqual(await heights(), [2, 3]);
  });

  it("refuses a bad body with a 400 naming why, and mines nothing", async () => {
    const refused = (text: string) => ({ status: 400, type: "text/plain; charset=utf-8", text });
    for (const [body, text] of [
      ['{"20": 1}', 'make-blocks: "20" is not a chain id: the keys are chain ids from "0" to "19"'],
      ['{"03": 1}', 'make-blocks: "03" is not a chain id: the keys are chain ids from "0" to "19"'],
      ['{"0": -1}', "make-blocks: the count of chain 0 must be a whole number of blocks, got -1"],
      ['{"0": 1.5}', "make-blocks: the count of chain 0 must be a whole number of blocks, got 1.5"],
      ['{"0": "1"}', 'make-blocks: the count of chain 0 must be a whole number of blocks, got "1"'],
      ["[1]", 'the request body must be a JSON object {"<chain id>": <blocks>, …}'],
      ["", "the request body is empty: expected JSON"],
      ['{"0": 10001}', "blocks must be an integer from 1 to 10000, got 10001"],
    ] as const) {
      assert.deepEqual(await makeBlocks(body, "application/json"), refused(text), body);
    }
    assert.deepEqual(await heights(), [2, 3]);
  });

  it("refuses a web page of another origin (any content type is taken, so no preflight guards it)", async () => {
    const response = await fetch(`${node.url}/make-blocks`, {
      method: "POST",
      headers: { "content-type": "text/plain", origin: "http://evil.example" },
      body: '{"0": 1}',
    });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("access-control-allow-origin"), null);
    assert.deepEqual(await heights(), [2, 3]);
  });
});
