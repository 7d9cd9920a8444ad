/**
 * A seeded fuzz run of the block, hash, header, payload, cut, info, stream and mempool P2P
 * endpoints (issue #12): odd query parameters, odd hashes in paths and bodies, mutated branch,
 * batch and mempool bodies,
 * odd `Accept` headers, good and bad chains and networks. Every answer is a 200 or a 400, 404 or
 * 406 (never a 5xx), and the server reports no fault.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Random } from "../../chain/test-support/random.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { transactionText } from "../../node/executor/block/block-executor.ts";
import { makeLogger } from "../../node/logger.ts";
import { BraidNode } from "../../node/node.ts";
import { resolveNodeOptions } from "../../node/options.ts";
import { devCommand, GAS_CAP } from "../../node/test-support/dev-node.ts";
import { fuzzBody, oddRequestKey, randomText } from "../http/test-support/fuzz-bodies.ts";
import type { RunningNodeServer } from "./server.ts";
import { serveForTest } from "./test-support/test-server.ts";

const FUZZ_SEED = 0x12b10c;
const FUZZ_MS = 3_000;
const WORKERS = 2;

const CHAINS = ["0", "7", "19", "20", "-1", "01", "x", "99999999999"];
const NETWORKS = ["development", "development", "development", "mainnet01", "x"];
const ACCEPTS = [
  undefined,
  undefined,
  "*/*",
  "application/json",
  "application/json;blockheader-encoding=object",
  "application/octet-stream",
  "text/event-stream",
  "text/html",
  "application/*;q=0",
  "application/json;q=0.5, text/plain",
  ";;;,,=",
  "application/json;blockheader-encoding=weird",
];
const NUMBERS = [
  "0",
  "1",
  "5",
  "360",
  "361",
  "100000",
  "-1",
  "1.5",
  "1e3",
  "",
  "x",
  "9".repeat(30),
];

describe("block and header endpoints under a seeded fuzz run", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  const faults: unknown[] = [];
  let hashes: string[] = [];
  let payloads: string[] = [];
  /** Commands for the mempool bodies: their request keys and transaction texts. */
  const commands = [0, 1, 2].map((i) =>
    devCommand({ code: "(+ 1 2)", caps: [GAS_CAP], nonce: `chain fuzz ${i}` }),
  );

  before(async () => {
    node = BraidNode.open(
      resolveNodeOptions({ inMemory: true, mining: "none" }, {}),
      makeLogger("error"),
    );
    for (let i = 0; i < 4; i++) node.producer.mineAll();
    for (const chain of node.chains) {
      for (let h = 0; h <= chain.head.height; h++) {
        const header = node.chainDb.ancestorAt(chain.head.hash, h)!;
        hashes.push(encodeBase64Url(header.hash));
        payloads.push(encodeBase64Url(header.payloadHash));
      }
    }
    hashes = [...new Set(hashes)];
    payloads = [...new Set(payloads)];
    node.commands.submit(0, [commands[0]!]);
    server = await serveForTest(node, faults, 1);
  });
  after(async () => {
    await server.close();
    node.close();
  });

  it("answers only 200, 400, 404 and 406, never a fault", async () => {
    const statuses = new Map<number, number>();
    let requests = 0;
    // Odd keys stay short enough for a URL (longer ones are Node's 431, before any route).
    const odd = (r: Random) => oddRequestKey(r).slice(0, 2000);
    const hash = (r: Random) => (r.int(3) === 0 ? odd(r) : r.pick(hashes));
    const cursor = (r: Random) =>
      r.int(4) === 0
        ? randomText(r, 60)
        : `${r.pick(["inclusive", "exclusive", "other", ""])}:${hash(r)}`;
    const query = (r: Random) => {
      const parts: string[] = [];
      for (const name of ["limit", "minheight", "maxheight", "next", "height"]) {
        if (r.int(3) !== 0) continue;
        const value = name === "next" ? cursor(r) : r.pick(NUMBERS);
        parts.push(`${name}=${encodeURIComponent(value)}`);
        if (r.int(10) === 0) parts.push(`${name}=1`);
      }
      return parts.length === 0 ? "" : `?${parts.join("&")}`;
    };
    const branchBodies = (r: Random) => [
      JSON.stringify({ lower: [], upper: [r.pick(hashes)] }),
      JSON.stringify({ lower: [r.pick(hashes)], upper: [r.pick(hashes), r.pick(hashes)] }),
      JSON.stringify({ lower: [], upper: Array.from({ length: 40 }, () => r.pick(hashes)) }),
    ];
    const batchBodies = (r: Random) => [
      JSON.stringify([r.pick(payloads), r.pick(payloads)]),
      JSON.stringify({ hashes: [r.pick(payloads)], heights: [1] }),
    ];

    const keys = commands.map((c) => c.hash);
    const texts = commands.map(transactionText);
    const keyBodies = (r: Random) => [
      JSON.stringify([r.pick(keys), r.pick(hashes)]),
      JSON.stringify([]),
    ];
    const insertBodies = (r: Random) => [JSON.stringify([r.pick(texts)]), JSON.stringify(texts)];
    const markQuery = (r: Random) =>
      `?nonce=${r.pick([...NUMBERS, String(node.chains[0]!.mempool.nonce)])}&since=${r.pick(NUMBERS)}`;

    const one = async (r: Random) => {
      const base = `/chainweb/0.0/${r.pick(NETWORKS)}`;
      const chain = `${base}/chain/${r.pick(CHAINS)}`;
      let method = "GET";
      let path: string;
      let body: { text: string; contentType: string | undefined } | undefined;
      switch (r.int(11)) {
        case 0:
        case 1:
          path = `${chain}/${r.pick(["block", "hash", "header"])}${query(r)}`;
          break;
        case 2:
        case 3:
          method = "POST";
          path = `${chain}/${r.pick(["block", "hash", "header"])}/branch${query(r)}`;
          body = fuzzBody(r, branchBodies(r), ["lower", "upper"]);
          break;
        case 4:
          path = `${chain}/header/${encodeURIComponent(hash(r))}`;
          break;
        case 5:
          path = `${chain}/payload/${encodeURIComponent(r.int(3) === 0 ? odd(r) : r.pick(payloads))}${r.int(2) === 0 ? "/outputs" : ""}${query(r)}`;
          break;
        case 6:
          method = "POST";
          path = `${chain}/payload/${r.pick(["batch", "outputs/batch"])}`;
          body = fuzzBody(r, batchBodies(r), ["hashes", "heights"]);
          break;
        case 7:
          path = r.pick([`${base}/cut${query(r)}`, "/info"]);
          break;
        case 8:
          method = "POST";
          path = `${chain}/mempool/${r.pick(["getPending", `getPending${markQuery(r)}`, "member", "lookup"])}`;
          body = fuzzBody(r, keyBodies(r), ["hashes"]);
          break;
        case 9:
          method = "PUT";
          path = `${chain}/mempool/insert`;
          body = fuzzBody(r, insertBodies(r), ["cmd", "hash", "sigs"]);
          break;
        default:
          path = `${base}/${r.pick(["header", "block"])}/updates`;
      }
      const headers: Record<string, string> = {};
      const accept = r.pick(ACCEPTS);
      if (accept !== undefined) headers.accept = accept;
      if (body?.contentType !== undefined) headers["content-type"] = body.contentType;
      const abort = new AbortController();
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: body.text }),
        signal: abort.signal,
      });
      const streaming = response.headers.get("content-type") === "text/event-stream";
      const text = streaming ? "" : await response.text();
      if (streaming) abort.abort();
      requests++;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      assert.ok(
        [200, 400, 404, 406].includes(response.status),
        `seed ${FUZZ_SEED}: ${response.status} for ${method} ${path.slice(0, 300)} (${JSON.stringify(headers)}) with ${JSON.stringify(body?.text.slice(0, 300))}: ${text.slice(0, 500)}`,
      );
      assert.ok(response.headers.get("x-chainweb-node-version"), path);
    };
    const deadline = performance.now() + FUZZ_MS;
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        const r = new Random(FUZZ_SEED + w);
        while (performance.now() < deadline) await one(r);
      }),
    );
    assert.deepEqual(faults, []);
    assert.ok(requests > 200, `only ${requests} requests`);
    for (const status of [200, 400, 404, 406]) {
      assert.ok(
        (statuses.get(status) ?? 0) > 0,
        `no ${status} in ${JSON.stringify([...statuses])}`,
      );
    }
    console.log(`chain fuzz: ${requests} requests, statuses ${JSON.stringify([...statuses])}`);
  });
});
