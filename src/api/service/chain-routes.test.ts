/**
 * The block, header, payload, cut and info endpoints against an in-process node whose blocks
 * are made by the test (issue #12 items 1 and 4): pages, paging with `next`, branches, orphans,
 * every error row of the spec's Errors table for the block endpoints, and the headers the node
 * serves re-hash, validate and decode the same in every encoding.
 */

import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { decodeHeader } from "../../chain/header/binary.ts";
import { computeBlockHash } from "../../chain/header/hash.ts";
import { decodeHeaderBase64, decodeHeaderObject } from "../../chain/header/json.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { validateHeader } from "../../chain/validation/validate.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { DEV_ACCOUNTS } from "../../node/genesis/accounts.ts";
import type { BraidNode } from "../../node/node.ts";
import { blocksAfterGenesis, manualNode } from "../../node/test-support/dev-node.ts";
import type { RunningNodeServer } from "./server.ts";
import { serveForTest } from "./test-support/test-server.ts";

const faults: unknown[] = [];

const b64 = encodeBase64Url;

describe("block, header and payload endpoints", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  let base: string;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the JSON answers field by field
  const json = async (response: Response): Promise<any> => {
    assert.equal(response.status, 200, await response.clone().text());
    return response.json();
  };

  before(async () => {
    node = manualNode();
    for (let i = 0; i < 12; i++) node.producer.mineAll();
    server = await serveForTest(node, faults);
    base = `${server.url}/chainweb/0.0/development`;
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  it("pages a chain's blocks ascending with next: no gaps, no repeats, null at the end", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    let pages = 0;
    do {
      const query: string = next === null ? "limit=5" : `limit=5&next=${next}`;
      const page = await json(await get(`/chain/3/block?${query}`));
      assert.ok(page.limit <= 5);
      assert.equal(page.items.length, page.limit);
      for (const item of page.items) {
        seen.push(item.header.hash);
        assert.equal(item.header.payloadHash, item.payloadWithOutputs.payloadHash);
      }
      next = page.next;
      pages++;
    } while (next !== null);
    const expected = node.chainDb
      .scanBlocks(3, { height: 0, hash: new Uint8Array(0), inclusive: true }, 1e9, 1000)
      .map((b) => b64(b.header.hash));
    assert.deepEqual(seen, expected);
    assert.equal(seen.length, node.chains[3]!.head.height + 1);
    assert.equal(pages, Math.ceil(seen.length / 5));
  });

  it("bounds pages by minheight and maxheight; hash and header pages list the same blocks", async () => {
    const page = await json(await get("/chain/0/block?minheight=2&maxheight=4"));
    assert.deepEqual(
      page.items.map((i: { header: BlockHeader }) => i.header.height),
      [2, 3, 4],
    );
    const hashes = await json(await get("/chain/0/hash?minheight=2&maxheight=4"));
    assert.deepEqual(
      hashes.items,
      page.items.map((i: { header: { hash: string } }) => i.header.hash),
    );
    const headers = await json(await get("/chain/0/header?minheight=2&maxheight=4"));
    assert.deepEqual(
      headers.items.map((h: string) => b64(decodeHeaderBase64(h).hash)),
      hashes.items,
    );
    const objects = await json(
      await get("/chain/0/header?minheight=2&maxheight=4", {
        accept: "application/json;blockheader-encoding=object",
      }),
    );
    assert.deepEqual(
      objects.items,
      page.items.map((i: { header: unknown }) => i.header),
    );
  });

  it("serves branches descending from upper, without ancestors of lower", async () => {
    const head = node.chains[1]!.head;
    const lower = node.chainDb.ancestorAt(head.hash, 5)!;
    const page = await json(
      await post("/chain/1/block/branch", { lower: [b64(lower.hash)], upper: [b64(head.hash)] }),
    );
    assert.deepEqual(
      page.items.map((i: { header: BlockHeader }) => i.header.height),
      Array.from({ length: head.height - 5 }, (_, i) => head.height - i),
    );
    assert.equal(page.next, null);
    // Paging a branch.
    const first = await json(
      await post("/chain/1/block/branch?limit=3", { lower: [], upper: [b64(head.hash)] }),
    );
    assert.equal(first.items.length, 3);
    const second = await json(
      await post(`/chain/1/hash/branch?limit=3&next=${first.next}`, {
        lower: [],
        upper: [b64(head.hash)],
      }),
    );
    assert.equal(second.items[0], b64(node.chainDb.ancestorAt(head.hash, head.height - 3)!.hash));
  });

  it("answers every error row of the Errors table for the block endpoints", async () => {
    const head = b64(node.chains[0]!.head.hash);
    const unknown = b64(new Uint8Array(32).fill(7));
    const cases: [string, Promise<Response>, number][] = [
      ["unknown chain", get("/chain/20/block"), 404],
      [
        "unknown network",
        get("/chainweb/0.0/mainnet01/chain/0/block".replace("/chainweb/0.0/development", "")),
        404,
      ],
      ["next: unknown hash", get(`/chain/0/block?next=inclusive:${unknown}`), 404],
      ["next: malformed", get("/chain/0/block?next=sideways:abc"), 404],
      ["maxheight: malformed", get("/chain/0/block?maxheight=-1"), 404],
      ["no block matches", get("/chain/0/block?minheight=1000"), 404],
      ["limit: malformed", get("/chain/0/block?limit=x"), 400],
      [
        "branch: no block matches",
        post("/chain/0/block/branch", { lower: [head], upper: [head] }),
        404,
      ],
      [
        "branch: unknown upper",
        post("/chain/0/block/branch", { lower: [], upper: [unknown] }),
        404,
      ],
      [
        "branch: unknown lower",
        post("/chain/0/block/branch", { lower: [unknown], upper: [head] }),
        404,
      ],
      ["branch: bad next", post("/chain/0/block/branch?next=x", { lower: [], upper: [head] }), 404],
      [
        "branch: bad maxheight",
        post("/chain/0/block/branch?maxheight=z", { lower: [], upper: [head] }),
        404,
      ],
      [
        "branch: bounds exceeded",
        post("/chain/0/block/branch", {
          lower: [],
          upper: Array.from({ length: 33 }, (_, i) => b64(new Uint8Array(32).fill(i))),
        }),
        400,
      ],
      ["branch: malformed body", post("/chain/0/block/branch", { upper: "x" }), 400],
      [
        "branch: Accept",
        post("/chain/0/block/branch", { lower: [], upper: [head] }, { accept: "text/html" }),
        406,
      ],
      ["block: Accept", get("/chain/0/block", { accept: "application/xml" }), 406],
      ["header: unknown hash", get(`/chain/0/header/${unknown}`), 404],
      ["header: other chain's block", get(`/chain/1/header/${head}`), 404],
    ];
    for (const [name, response, status] of cases) {
      const r = await response;
      assert.equal(r.status, status, `${name}: ${await r.text()}`);
    }
    const bounds = await post("/chain/0/block/branch", {
      lower: [],
      upper: Array.from({ length: 33 }, (_, i) => b64(new Uint8Array(32).fill(i))),
    });
    assert.match(await bounds.text(), /upper branch bound limit exceeded\. Only 32 values/);
    const missing = await get(`/chain/0/block?next=inclusive:${unknown}`);
    assert.deepEqual(await missing.json(), { reason: "key not found", key: unknown });
  });

  it("serves headers that validate, re-hash to their hash, and decode the same in every encoding", async () => {
    const page = await json(await get("/chain/7/block?minheight=1"));
    for (const item of page.items) {
      const hash: string = item.header.hash;
      const object = decodeHeaderObject(item.header);
      assert.equal(b64(computeBlockHash(object)), hash);
      const parent = node.chainDb.header(object.parent);
      const adjacentParents = new Map<number, BlockHeader>();
      for (const [c, h] of object.adjacents) adjacentParents.set(c, node.chainDb.header(h)!);
      const result = validateHeader({
        version: node.version,
        header: object,
        parent,
        adjacentParents,
      });
      assert.ok(result.ok, JSON.stringify(result));
      const binary = await get(`/chain/7/header/${hash}`, { accept: "application/octet-stream" });
      assert.equal(binary.status, 200);
      assert.equal(binary.headers.get("content-type"), "application/octet-stream");
      const fromBinary = decodeHeader(new Uint8Array(await binary.arrayBuffer()));
      assert.deepEqual(fromBinary, object);
      const text = await json(await get(`/chain/7/header/${hash}`));
      assert.deepEqual(decodeHeaderBase64(text), object);
      const asObject = await json(
        await get(`/chain/7/header/${hash}`, {
          accept: "application/json;blockheader-encoding=object",
        }),
      );
      assert.deepEqual(asObject, item.header);
    }
  });

  it("writes chainVersion and chainwebVersion in every object-form header, typed as chainweb-node types it", async () => {
    const objectForm = { accept: "application/json;blockheader-encoding=object" };
    const head = node.chains[5]!.head;
    const bounds = { lower: [], upper: [b64(head.hash)] };
    const answers = [
      await get("/chain/5/block?limit=2"),
      await post("/chain/5/block/branch?limit=2", bounds),
      await get("/chain/5/header?limit=2", objectForm),
      await post("/chain/5/header/branch?limit=2", bounds, objectForm),
      await get(`/chain/5/header/${b64(head.hash)}`, objectForm),
    ];
    const expectedKeys = [
      "nonce",
      "creationTime",
      "parent",
      "adjacents",
      "target",
      "payloadHash",
      "chainId",
      "weight",
      "height",
      "chainwebVersion",
      "chainVersion",
      "epochStart",
      "featureFlags",
      "hash",
    ];
    const types: (string | null)[] = [];
    for (const answer of answers) {
      types.push(answer.headers.get("content-type"));
      const body = await json(answer);
      const headers =
        body.items === undefined
          ? [body]
          : body.items.map((item: { header?: unknown }) => item.header ?? item);
      assert.equal(headers.length > 0, true);
      for (const header of headers) {
        assert.deepEqual(Object.keys(header), expectedKeys);
        assert.equal(header.chainVersion, "development");
        assert.equal(header.chainwebVersion, "development");
      }
    }
    assert.deepEqual(types, [
      "application/json; charset=utf-8",
      "application/json; charset=utf-8",
      "application/json;blockheader-encoding=object",
      "application/json;blockheader-encoding=object",
      "application/json;blockheader-encoding=object",
    ]);
  });

  it("serves payloads by hash, with outputs and in batches", async () => {
    const head = node.chains[2]!.head;
    const ph = b64(head.payloadHash);
    const data = await json(await get(`/chain/2/payload/${ph}`));
    assert.equal(data.payloadHash, ph);
    assert.ok(Array.isArray(data.transactions));
    assert.equal(data.coinbase, undefined);
    const outputs = await json(await get(`/chain/2/payload/${ph}/outputs?height=${head.height}`));
    assert.equal(outputs.payloadHash, ph);
    assert.equal(typeof outputs.coinbase, "string");
    const missing = b64(new Uint8Array(32));
    assert.deepEqual(await json(await post("/chain/2/payload/batch", [ph, missing])), [data]);
    assert.deepEqual(
      await json(
        await post("/chain/2/payload/outputs/batch", { hashes: [ph], heights: [head.height] }),
      ),
      [outputs],
    );
    assert.equal((await get(`/chain/2/payload/${missing}`)).status, 404);
  });

  it("serves /info and the cut", async () => {
    const info = await json(await fetch(`${server.url}/info`));
    assert.equal(info.nodeVersion, "development");
    assert.equal(info.nodeNumberOfChains, 20);
    assert.equal(info.nodeApiVersion, "0.0");
    const cut = await json(await get("/cut"));
    assert.equal(Object.keys(cut.hashes).length, 20);
    assert.equal(cut.hashes["0"].hash, b64(node.chainDb.cut().get(0)!.hash));
    assert.equal(cut.instance, "development");
    const lower = await json(await get("/cut?maxheight=20"));
    assert.ok(lower.height <= 20);
  });
});

describe("orphans", () => {
  it("lists orphaned blocks in the ascending query, not in a branch from the new head", async () => {
    const a = manualNode();
    // Another miner, so b's blocks differ from a's even when made in the same millisecond (the
    // same parent, miner and time would make the same block).
    const b = manualNode({ minerAccount: "sender01", minerKeys: DEV_ACCOUNTS[1]!.publicKey });
    const server = await serveForTest(a, faults);
    try {
      a.producer.mine(0);
      const orphan = a.chains[0]!.head;
      for (let i = 0; i < 3; i++) b.producer.mine(0);
      a.insertBlocks(blocksAfterGenesis(b));
      const head = a.chains[0]!.head;
      assert.deepEqual(head.hash, b.chains[0]!.head.hash);
      const base = `${server.url}/chainweb/0.0/development/chain/0`;
      const all = (await (await fetch(`${base}/hash`)).json()) as { items: string[] };
      assert.ok(all.items.includes(b64(orphan.hash)));
      assert.equal(all.items.length, 5);
      const branch = (await (
        await fetch(`${base}/hash/branch`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ lower: [], upper: [b64(head.hash)] }),
        })
      ).json()) as { items: string[] };
      assert.equal(branch.items.length, 4);
      assert.ok(!branch.items.includes(b64(orphan.hash)));
    } finally {
      await server.close();
      a.close();
      b.close();
    }
  });
});
