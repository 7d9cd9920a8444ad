import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHeaderWithoutHash } from "../header/binary.ts";
import { genesisHeader } from "../header/genesis.ts";
import { computeBlockHash } from "../header/hash.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { MAX_WORD256 } from "../word256.ts";
import { headerFromWork, makeBlockHeader, NewHeaderError } from "./new-header.ts";

const genesis = (c: number) => genesisHeader(DEVELOPMENT, c);

describe("new headers", () => {
  const header = makeBlockHeader({
    version: DEVELOPMENT,
    parent: genesis(0),
    adjacentParents: new Map([5, 10, 15].map((c) => [c, genesis(c)])),
    payloadHash: new Uint8Array(32).fill(9),
    creationTime: genesis(0).creationTime + 30_000_000,
    nonce: 5n,
  });
  it("derives height, target, weight, epoch start and links from the parents", () => {
    assert.equal(header.height, 1);
    assert.equal(header.chainId, 0);
    assert.equal(header.target, MAX_WORD256 / 100_000n);
    assert.equal(header.weight, 100_000n);
    assert.equal(header.epochStart, 1_563_388_117_613_832);
    assert.equal(header.featureFlags, 0n);
    assert.equal(header.nonce, 5n);
    assert.deepEqual(header.parent, genesis(0).hash);
    assert.deepEqual(header.adjacents.get(10), genesis(10).hash);
    assert.deepEqual(header.hash, computeBlockHash(header));
  });
  it("rebuilds the header from its work bytes", () => {
    assert.deepEqual(headerFromWork(encodeHeaderWithoutHash(header)), header);
  });
  it("requires adjacent parents on exactly the graph's neighbours", () => {
    assert.throws(
      () =>
        makeBlockHeader({
          version: DEVELOPMENT,
          parent: genesis(0),
          adjacentParents: new Map([5, 10, 16].map((c) => [c, genesis(c)])),
          payloadHash: new Uint8Array(32),
          creationTime: 0,
        }),
      (e: unknown) =>
        e instanceof NewHeaderError &&
        e.message ===
          "a block on chain 0 after height 0 needs adjacent parents on chains 5, 10, 15, got 5, 10, 16",
    );
  });
});
