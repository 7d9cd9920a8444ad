import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeBase64Url, encodeBase64Url, encodeHex } from "../../crypto/index.ts";
import { Random } from "../test-support/random.ts";
import { randomHeader } from "../test-support/random-header.ts";
import { mainnetHeaders, vectorsSkip } from "../test-support/vectors.ts";
import {
  decodeHeader,
  decodeHeaderWithoutHash,
  encodeHeader,
  encodeHeaderWithoutHash,
  HEADER_BYTES,
  HeaderCodecError,
  HeaderOffset,
  WORK_BYTES,
} from "./binary.ts";

const skip = vectorsSkip("mainnet-headers.json");

describe("binary header codec on mainnet headers", { skip }, () => {
  const vectors = mainnetHeaders();
  it("decodes the fields of block 1000000 of chain 0", () => {
    const header = decodeHeader(decodeBase64Url(vectors.binaryHeadersBase64Url[0]!));
    assert.equal(header.featureFlags, 0n);
    assert.equal(header.creationTime, 1602382624629329);
    assert.equal(encodeBase64Url(header.parent), "HaXABq1PKSKlhncJk0_Mt75_lL7NS3wI627QfXZ_85k");
    assert.deepEqual([...header.adjacents.keys()], [5, 10, 15]);
    assert.equal(
      encodeBase64Url(header.adjacents.get(10)!),
      "VBKuhU_hQmuvKlx88A5o-FH0rzNo59NsdxmOGNBQ-yc",
    );
    assert.equal(header.target, 0x2f63321a391693dd0db184043297066008f268ddbe496c2cb742n);
    assert.equal(
      encodeBase64Url(header.payloadHash),
      "GpaWbHkHrCjRhY8hKE0qZ1WsBBaG3Y_zkFLV2sYumQA",
    );
    assert.equal(header.chainId, 0);
    assert.equal(header.weight, 0x1e60b9ed6704f80935n);
    assert.equal(header.height, 1000000);
    assert.equal(header.versionCode, 0x05);
    assert.equal(header.epochStart, 1602381443331834);
    assert.equal(header.nonce, 13095611958898437n);
    assert.equal(encodeBase64Url(header.hash), "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k");
  });
  it("re-encodes every vector to the same bytes", () => {
    for (const text of vectors.binaryHeadersBase64Url) {
      const bytes = decodeBase64Url(text);
      assert.deepEqual(encodeHeader(decodeHeader(bytes)), bytes);
      assert.deepEqual(encodeHeaderWithoutHash(decodeHeader(bytes)), bytes.subarray(0, WORK_BYTES));
    }
  });
  it("copies hashes out of the input buffer", () => {
    const bytes = decodeBase64Url(vectors.binaryHeadersBase64Url[0]!);
    const header = decodeHeader(bytes);
    bytes.fill(0);
    assert.equal(encodeBase64Url(header.hash), "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k");
  });
});

describe("binary header codec errors", { skip }, () => {
  const good = decodeBase64Url(mainnetHeaders().binaryHeadersBase64Url[1]!);
  it("names a wrong length", () => {
    assert.throws(
      () => decodeHeader(good.subarray(0, 317)),
      (e: unknown) =>
        e instanceof HeaderCodecError && e.message === "a block header is 318 bytes, got 317",
    );
    assert.throws(
      () => decodeHeaderWithoutHash(good, new Uint8Array(32)),
      /a header without its hash is 286 bytes, got 318/,
    );
  });
  it("names a bad adjacent count", () => {
    const bad = good.slice();
    bad[HeaderOffset.adjacentCount] = 4;
    assert.throws(() => decodeHeader(bad), /the adjacent parent count at byte 48 must be 3, got 4/);
  });
  it("rejects adjacent chain ids out of order", () => {
    const bad = good.slice();
    bad[HeaderOffset.adjacents + 36] = 3; // second id 10 → 3, after 5
    assert.throws(() => decodeHeader(bad), /strictly ascending, got 3 after 5/);
  });
  it("refuses to encode fields that do not fit", () => {
    const header = decodeHeader(good);
    assert.throws(
      () => encodeHeader({ ...header, adjacents: new Map([[1, new Uint8Array(32)]]) }),
      /a header has 3 adjacent parents, got 1 \(chains 1\)/,
    );
    assert.throws(
      () => encodeHeader({ ...header, parent: new Uint8Array(31) }),
      /parent must be 32 bytes, got 31/,
    );
    assert.throws(
      () => encodeHeader({ ...header, nonce: 1n << 64n }),
      /nonce 18446744073709551616/,
    );
    assert.throws(() => encodeHeader({ ...header, height: -1 }), /height -1 is not a non-negative/);
    assert.throws(() => encodeHeader({ ...header, chainId: 2 ** 32 }), /chainId 4294967296/);
    assert.throws(() => encodeHeader({ ...header, creationTime: 0.5 }), /creationTime 0.5/);
  });
});

describe("binary header codec properties", () => {
  it("round trips random headers, and encodes adjacents sorted whatever the map order", () => {
    const random = new Random(20240601);
    for (let i = 0; i < 500; i++) {
      const header = randomHeader(random);
      const bytes = encodeHeader(header);
      assert.equal(bytes.length, HEADER_BYTES);
      const decoded = decodeHeader(bytes);
      assert.deepEqual(
        { ...decoded, adjacents: [...decoded.adjacents].sort((a, b) => a[0] - b[0]) },
        { ...header, adjacents: [...header.adjacents].sort((a, b) => a[0] - b[0]) },
      );
      assert.equal(encodeHex(encodeHeader(decoded)), encodeHex(bytes));
    }
  });
});
