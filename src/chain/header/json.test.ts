import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeBase64Url } from "../../crypto/index.ts";
import { Random } from "../test-support/random.ts";
import { randomHeader } from "../test-support/random-header.ts";
import { mainnetBlocks, mainnetHeaders, vectorsSkip } from "../test-support/vectors.ts";
import { decodeHeader, encodeHeader } from "./binary.ts";
import { computeBlockHash } from "./hash.ts";
import {
  decodeHeaderBase64,
  decodeHeaderObject,
  encodeHeaderBase64,
  encodeHeaderJson,
  encodeHeaderObject,
  encodeHeaderSortedJson,
  HeaderJsonError,
} from "./json.ts";

describe("header object form on mainnet headers", {
  skip: vectorsSkip("mainnet-headers.json", "mainnet-blocks.json"),
}, () => {
  const vectors = mainnetHeaders();
  it("decodes every object vector to the bytes of its binary twin, and hashes to its hash", () => {
    vectors.objectHeaders.forEach((object, i) => {
      const header = decodeHeaderObject(object);
      assert.equal(encodeHeaderBase64(header), vectors.binaryHeadersBase64Url[i]);
      assert.deepEqual(computeBlockHash(header), header.hash);
    });
    for (const item of mainnetBlocks().page.items) {
      const header = decodeHeaderObject(item.blockHeader);
      assert.deepEqual(computeBlockHash(header), header.hash);
    }
  });
  it("encodes the keys in chainweb-node's order, chainVersion right after chainwebVersion", () => {
    const header = decodeHeaderBase64(vectors.binaryHeadersBase64Url[0]!);
    assert.equal(
      encodeHeaderJson(header),
      '{"nonce":"13095611958898437","creationTime":1602382624629329,"parent":"HaXABq1PKSKlhncJk0_Mt75_lL7NS3wI627QfXZ_85k","adjacents":{"5":"Mpic85rur2MYf3zli8s8bHxTFjriFoMPTr6ZPs8sjxM","10":"VBKuhU_hQmuvKlx88A5o-FH0rzNo59NsdxmOGNBQ-yc","15":"MItdqgHZxf7j6l0oE8X-G9-VyMbnQmZrtSniuRe_EJ8"},"target":"QrcsbEm-3WjyCGAGlzIEhLEN3ZMWORoyYy8AAAAAAAA","payloadHash":"GpaWbHkHrCjRhY8hKE0qZ1WsBBaG3Y_zkFLV2sYumQA","chainId":0,"weight":"NQn4BGftuWAeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA","height":1000000,"chainwebVersion":"mainnet01","chainVersion":"mainnet01","epochStart":1602381443331834,"featureFlags":0,"hash":"k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k"}',
    );
    assert.deepEqual(decodeHeaderObject(encodeHeaderObject(header)), header);
  });
  it("encodes the header stream's sorted form, adjacent keys sorted as text", () => {
    const header = decodeHeaderBase64(vectors.binaryHeadersBase64Url[1]!);
    assert.equal(
      encodeHeaderSortedJson(header),
      '{"adjacents":{"10":"C76ElC60qXSJQCHePpzzJxsCYvvrqvmkoHPyZnex-4Q","15":"Kv0sz_rTANjoiJwMrdZFCJNFwdH0U_M5ouwMr3BXBfo","5":"ALcxv1ZiwwQ_QX9eOBZMbzIop6n7XtveS1FqOFwyvGM"},"chainId":0,"chainVersion":"mainnet01","chainwebVersion":"mainnet01","creationTime":1602382678045236,"epochStart":1602381443331834,"featureFlags":0,"hash":"vhVa6Deh10RXLRf3L-MSQTYqaL-_IY_mi-v58MjP9R8","height":1000001,"nonce":"110239794631051275","parent":"k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k","payloadHash":"smUiDW9jfD_0vrdt4-fXKT_lqC90RsgEGObdp3FznFY","target":"QrcsbEm-3WjyCGAGlzIEhLEN3ZMWORoyYy8AAAAAAAA","weight":"bOkHN2JUv2AeAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}',
    );
  });
  it("reads the network from chainwebVersion, chainVersion or both", () => {
    const { chainwebVersion, ...specOnly } = vectors.objectHeaders[0]!;
    const expected = vectors.binaryHeadersBase64Url[0];
    assert.equal(
      encodeHeaderBase64(decodeHeaderObject({ ...specOnly, chainVersion: chainwebVersion })),
      expected,
    );
    assert.equal(
      encodeHeaderBase64(
        decodeHeaderObject({ ...specOnly, chainwebVersion, chainVersion: chainwebVersion }),
      ),
      expected,
    );
  });
  it("accepts padded base64url and ignores extra keys", () => {
    const original = vectors.objectHeaders[0]!;
    const object = { ...original, parent: `${original["parent"]}=`, powHash: "x", forkNumber: 0 };
    assert.equal(encodeHeaderBase64(decodeHeaderObject(object)), vectors.binaryHeadersBase64Url[0]);
  });
});

describe("header object form errors", { skip: vectorsSkip("mainnet-headers.json") }, () => {
  const vectors = mainnetHeaders();
  const good = vectors.objectHeaders[0]!;
  const errorOf = (value: unknown) => {
    try {
      decodeHeaderObject(value);
    } catch (e) {
      assert.ok(e instanceof HeaderJsonError);
      return e.message;
    }
    assert.fail("expected a HeaderJsonError");
  };
  it("rejects non-objects", () => {
    assert.equal(errorOf([1]), "a block header object must be a JSON object, got an array");
    assert.equal(errorOf("abc"), 'a block header object must be a JSON object, got "abc"');
  });
  it("names every bad or missing field at once", () => {
    const { hash: _hash, ...withoutHash } = good;
    assert.equal(
      errorOf({
        ...withoutHash,
        nonce: 5,
        target: "AAAA",
        chainwebVersion: "testnet99",
        adjacents: { "5": "x" },
      }),
      'invalid block header object: field "adjacents": expected 3 adjacent parents, got 1; ' +
        'field "target": expected base64url of 32 bytes, got 3 bytes; ' +
        'field "chainwebVersion": unknown chainweb version "testnet99" (known: development, mainnet01); ' +
        'field "nonce": expected a string, got number 5; missing field "hash"',
    );
  });
  it("names a missing network, a bad chainVersion and two names that disagree", () => {
    const { chainwebVersion: _version, ...noVersion } = good;
    assert.equal(
      errorOf(noVersion),
      'invalid block header object: missing field "chainwebVersion" (or "chainVersion")',
    );
    assert.equal(
      errorOf({ ...noVersion, chainVersion: 7 }),
      'invalid block header object: field "chainVersion": expected a string, got number 7',
    );
    assert.equal(
      errorOf({ ...good, chainVersion: "development" }),
      'invalid block header object: fields "chainwebVersion" and "chainVersion" name different networks (mainnet01, development)',
    );
  });
  it("names bad numbers, chain id keys and hashes", () => {
    assert.equal(
      errorOf({
        ...good,
        nonce: "-1",
        height: 1.5,
        chainId: -2,
        creationTime: "1",
        parent: "+++",
        adjacents: { "5": "a", x: "b", "7": "c" },
      }),
      'invalid block header object: field "creationTime": expected an integer, got "1"; ' +
        'field "parent": invalid base64url: character "+" is not in the alphabet A-Z a-z 0-9 - _; ' +
        'field "adjacents": chain 5: invalid base64url: length 1 cannot encode whole bytes; ' +
        'field "chainId": -2 is outside 0..4294967295; field "height": expected an integer, got number 1.5; ' +
        'field "nonce": expected a decimal string, got "-1"',
    );
    assert.match(errorOf({ ...good, nonce: "18446744073709551616" }), /does not fit in 64 bits/);
    assert.match(
      errorOf({
        ...good,
        adjacents: { "5": good["parent"], x: good["parent"], "7": good["parent"] },
      }),
      /field "adjacents": key "x" is not a chain id/,
    );
  });
  it("refuses featureFlags that a JSON number cannot hold", () => {
    const header = decodeHeaderBase64(vectors.binaryHeadersBase64Url[0]!);
    assert.throws(
      () => encodeHeaderObject({ ...header, featureFlags: 1n << 60n }),
      /featureFlags 1152921504606846976 is too large for the JSON object form/,
    );
  });
});

describe("header JSON properties", () => {
  it("round trips random headers through the object form and the base64 form", () => {
    const random = new Random(99);
    for (let i = 0; i < 300; i++) {
      const header = randomHeader(random, random.pick([0x02, 0x05]));
      const bytes = encodeHeader(header);
      const viaObject = decodeHeaderObject(JSON.parse(encodeHeaderJson(header)));
      assert.deepEqual(encodeHeader(viaObject), bytes);
      const viaSorted = decodeHeaderObject(JSON.parse(encodeHeaderSortedJson(header)));
      assert.deepEqual(encodeHeader(viaSorted), bytes);
      assert.deepEqual(decodeHeaderBase64(encodeHeaderBase64(header)), decodeHeader(bytes));
      assert.deepEqual(decodeBase64Url(encodeHeaderBase64(header)), bytes);
    }
  });
});
