import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sha512_256 } from "@noble/hashes/sha2.js";
import { encodeBase64Url } from "../../crypto/index.ts";
import { encodeHeaderBase64 } from "../header/json.ts";
import type { BlockHeader } from "../header/types.ts";
import { payloadDataOf } from "../payload/payload.ts";
import { EMPTY_PAYLOAD, payloadWithTransaction } from "../test-support/history.ts";
import { Random } from "../test-support/random.ts";
import { randomHeader } from "../test-support/random-header.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import {
  CUT_ATTACHMENT_LIMIT,
  cutHeight,
  cutId,
  cutWeight,
  decodeCutHashes,
  encodeCutHashes,
  limitCutHeight,
} from "./cut.ts";

const random = new Random(7);

/** A head of `chainId` at `height` with `weight`, its parent the previous height's head. */
function head(chainId: number, height: number, weight: bigint): BlockHeader {
  return { ...randomHeader(random), chainId, height, weight };
}

describe("a cut", () => {
  const heads = [head(1, 5, 300n), head(0, 4, 200n), head(2, 6, (1n << 256n) - 1n)];
  const cut = new Map(heads.map((h) => [h.chainId, h]));

  it("has the sum of the heights, the weights modulo 2^256, and the hash of its heads in chain order", () => {
    assert.equal(cutHeight(cut), 15);
    assert.equal(cutWeight(cut), 499n);
    const ordered = [heads[1]!.hash, heads[0]!.hash, heads[2]!.hash];
    const joined = new Uint8Array(96);
    for (const [i, hash] of ordered.entries()) joined.set(hash, i * 32);
    assert.deepEqual(cutId(cut), sha512_256(joined));
  });

  it("is written as CutHashes, chains in order", () => {
    const json = JSON.parse(encodeCutHashes(cut, "development", null));
    assert.deepEqual(Object.keys(json), ["hashes", "origin", "weight", "height", "instance", "id"]);
    assert.deepEqual(Object.keys(json.hashes), ["0", "1", "2"]);
    assert.deepEqual(json.hashes["1"], { height: 5, hash: encodeBase64Url(heads[0]!.hash) });
    assert.equal(json.origin, null);
    assert.equal(json.weight, `8wE${"A".repeat(40)}`);
    assert.equal(json.height, 15);
    assert.equal(json.instance, "development");
    assert.equal(json.id, encodeBase64Url(cutId(cut)));
  });

  it("limited to a cut height, puts every chain at most at the average chain height there (chainweb-node's limitCut)", () => {
    const heads = new Map(
      Array.from({ length: 20 }, (_, c) => [c, head(c, c === 3 ? 101 : 100, 0n)] as const),
    );
    const asked: number[] = [];
    const ancestorAt = (h: BlockHeader, height: number) => {
      asked.push(height);
      return head(h.chainId, height, 0n);
    };
    const limited = limitCutHeight(DEVELOPMENT, heads, 1_019, ancestorAt);
    assert.deepEqual(
      [...limited.values()].map((h) => h.height),
      Array(20).fill(50),
      "floor(1019 / 20) on every chain",
    );
    assert.equal(cutHeight(limited), 1_000, "below the bound asked for");
    assert.deepEqual(asked, Array(20).fill(50), "each head's ancestor looked up once");
    assert.equal(limitCutHeight(DEVELOPMENT, heads, 2_020, ancestorAt), heads, "within: unchanged");
    const low = new Map([...heads].map(([c, h]) => [c, c === 0 ? head(0, 40, 0n) : h]));
    assert.equal(limitCutHeight(DEVELOPMENT, low, 1_000, ancestorAt).get(0), low.get(0));
  });

  it("limited below a graph change, counts the chains of the graph there and leaves out the newer chains", () => {
    const top = 852_060;
    const heads = new Map(Array.from({ length: 20 }, (_, c) => [c, head(c, top, 0n)] as const));
    const ancestorAt = (h: BlockHeader, height: number) =>
      h.chainId >= 10 && height < 852_054 ? undefined : head(h.chainId, height, 0n);
    const limited = limitCutHeight(MAINNET01, heads, 8_520_509, ancestorAt);
    assert.deepEqual(
      [...limited].map(([c, h]) => [c, h.height]),
      Array.from({ length: 10 }, (_, c) => [c, 852_050]),
    );
    const newer = limitCutHeight(MAINNET01, heads, 17_041_100, ancestorAt);
    assert.deepEqual(
      [...newer.values()].map((h) => h.height),
      Array(20).fill(852_055),
      "at or above the change's cut height, 20 chains share it",
    );
  });
});

describe("CutHashes from a peer", () => {
  const heads = [head(0, 4, 200n), head(1, 5, 300n), head(2, 6, 7n)];
  const cut = new Map(heads.map((h) => [h.chainId, h]));
  const origin = { id: null, address: { hostname: "10.0.0.2", port: 1789 } };
  const good = () => JSON.parse(encodeCutHashes(cut, "development", origin));
  const decode = (value: unknown) => decodeCutHashes(value, 3);

  it("reads every head, the weight, the height and the origin", () => {
    const decoded = decode(good());
    assert.ok(typeof decoded !== "string", decoded as string);
    assert.deepEqual(
      [...decoded.heads],
      heads.map((h) => [h.chainId, { hash: h.hash, height: h.height }]),
    );
    assert.equal(decoded.weight, 507n);
    assert.equal(decoded.height, 15);
    assert.deepEqual(decoded.origin, origin);
  });

  it("refuses what is not a cut of this network, naming what is wrong", () => {
    const hash = encodeBase64Url(heads[0]!.hash);
    // biome-ignore lint/suspicious/noExplicitAny: each case changes the JSON one field at a time
    const cases: [string, (json: Record<string, any>) => unknown, string][] = [
      ["an array", () => [], "a cut must be a JSON object"],
      [
        "no hashes",
        (j) => ({ ...j, hashes: undefined }),
        '"hashes" must be an object of chain ids',
      ],
      ["hashes an array", (j) => ({ ...j, hashes: [] }), '"hashes" must be an object of chain ids'],
      [
        "a missing chain",
        (j) => ({ ...j, hashes: { "0": j.hashes["0"], "1": j.hashes["1"] } }),
        "the cut names 2 of 3 chains",
      ],
      [
        "a chain the network lacks",
        (j) => ({ ...j, hashes: { ...j.hashes, "3": { hash, height: 1 } } }),
        '"3" is not a chain of this network',
      ],
      [
        "a chain id that is not a number",
        (j) => ({ ...j, hashes: { ...j.hashes, x: { hash, height: 1 } } }),
        '"x" is not a chain of this network',
      ],
      [
        "a chain named twice, once with a leading zero",
        (j) => ({ ...j, hashes: { ...j.hashes, "01": { hash, height: 1 } } }),
        '"01" is not a chain of this network',
      ],
      [
        "a hash whose unused low bits are set (not the hash's one text form)",
        (j) => ({
          ...j,
          hashes: { ...j.hashes, "1": { hash: `${hash.slice(0, 42)}B`, height: 5 } },
        }),
        "the hash of chain 1 is not a base64url block hash",
      ],
      [
        "a short hash",
        (j) => ({ ...j, hashes: { ...j.hashes, "1": { hash: hash.slice(1), height: 5 } } }),
        "the hash of chain 1 is not a base64url block hash",
      ],
      [
        "a padded hash",
        (j) => ({ ...j, hashes: { ...j.hashes, "1": { hash: `${hash}=`, height: 5 } } }),
        "the hash of chain 1 is not a base64url block hash",
      ],
      [
        "a head without a hash",
        (j) => ({ ...j, hashes: { ...j.hashes, "2": null } }),
        "the hash of chain 2 is not a base64url block hash",
      ],
      [
        "a negative height",
        (j) => ({ ...j, hashes: { ...j.hashes, "1": { hash, height: -1 } } }),
        "the height of chain 1 is not a height",
      ],
      [
        "a height as text",
        (j) => ({ ...j, hashes: { ...j.hashes, "1": { hash, height: "5" } } }),
        "the height of chain 1 is not a height",
      ],
      [
        "a fractional height",
        (j) => ({ ...j, hashes: { ...j.hashes, "1": { hash, height: 1.5 } } }),
        "the height of chain 1 is not a height",
      ],
      [
        "no weight",
        (j) => ({ ...j, weight: undefined }),
        '"weight" must be a base64url 256-bit word',
      ],
      [
        "a number weight",
        (j) => ({ ...j, weight: 507 }),
        '"weight" must be a base64url 256-bit word',
      ],
      [
        "a short weight",
        (j) => ({ ...j, weight: "AAAA" }),
        '"weight" must be a base64url 256-bit word',
      ],
      ["no height", (j) => ({ ...j, height: undefined }), '"height" must be a height'],
      ["a negative height", (j) => ({ ...j, height: -15 }), '"height" must be a height'],
      ["headers an array", (j) => ({ ...j, headers: [] }), '"headers" must be an object of hashes'],
      [
        "a header that does not decode",
        (j) => ({ ...j, headers: { [hash]: "AAAA" } }),
        `"headers": the entry ${hash} does not decode`,
      ],
      [
        "a payload without its hashes",
        (j) => ({ ...j, payloads: { [hash]: { transactions: [] } } }),
        `"payloads": the entry ${hash} does not decode`,
      ],
      [
        "more headers than a cut may carry",
        (j) => ({
          ...j,
          headers: Object.fromEntries(
            Array.from({ length: CUT_ATTACHMENT_LIMIT + 1 }, (_, i) => [String(i), ""]),
          ),
        }),
        `"headers" holds ${CUT_ATTACHMENT_LIMIT + 1} entries, more than this node takes (${CUT_ATTACHMENT_LIMIT})`,
      ],
    ];
    for (const [what, change, expected] of cases) {
      assert.equal(decode(change(good())), expected, what);
    }
  });
});

describe("CutHashes carrying blocks", () => {
  const heads = [head(0, 4, 200n), head(1, 5, 300n)];
  const cut = new Map(heads.map((h) => [h.chainId, h]));
  const payloads = [payloadDataOf(EMPTY_PAYLOAD), payloadDataOf(payloadWithTransaction("carried"))];

  it("writes the headers and payloads in maps by hash, as chainweb-node does, and reads them back", () => {
    const text = encodeCutHashes(cut, "development", null, { headers: heads, payloads });
    const json = JSON.parse(text);
    assert.deepEqual(Object.keys(json.headers), [
      encodeBase64Url(heads[0]!.hash),
      encodeBase64Url(heads[1]!.hash),
    ]);
    assert.equal(json.headers[encodeBase64Url(heads[1]!.hash)], encodeHeaderBase64(heads[1]!));
    assert.deepEqual(json.payloads[encodeBase64Url(payloads[1]!.payloadHash)], {
      transactions: payloads[1]!.transactions.map(encodeBase64Url),
      minerData: encodeBase64Url(payloads[1]!.minerData),
      transactionsHash: encodeBase64Url(payloads[1]!.transactionsHash),
      outputsHash: encodeBase64Url(payloads[1]!.outputsHash),
      payloadHash: encodeBase64Url(payloads[1]!.payloadHash),
    });
    const decoded = decodeCutHashes(json, 2);
    assert.ok(typeof decoded !== "string", decoded as string);
    assert.deepEqual(decoded.attached, { headers: heads, payloads });
  });

  it("leaves the maps out when it carries nothing, and reads none from a cut without them", () => {
    const json = JSON.parse(
      encodeCutHashes(cut, "development", null, { headers: [], payloads: [] }),
    );
    assert.equal("headers" in json, false);
    assert.equal("payloads" in json, false);
    const decoded = decodeCutHashes(json, 2);
    assert.ok(typeof decoded !== "string", decoded as string);
    assert.deepEqual(decoded.attached, { headers: [], payloads: [] });
  });
});
