import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blake2s256 } from "../../crypto/index.ts";
import { encodeHeaderWithoutHash, HeaderOffset } from "../header/binary.ts";
import { genesisHeader } from "../header/genesis.ts";
import { meetsTarget } from "../header/hash.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { MAX_WORD256 } from "../word256.ts";
import { mineNonce } from "./mine.ts";

const work = () => encodeHeaderWithoutHash(genesisHeader(DEVELOPMENT, 3));
const nonceIn = (w: Uint8Array) =>
  new DataView(w.buffer, w.byteOffset).getBigUint64(HeaderOffset.nonce, true);

describe("nonce search", () => {
  it("finds a nonce whose Blake2s hash meets the target and leaves it in the work", () => {
    const w = work();
    const target = MAX_WORD256 >> 10n;
    const found = mineNonce(w, target, 1000n, 100_000);
    assert.ok(found);
    assert.equal(nonceIn(w), found.nonce);
    assert.equal(found.nonce, 1000n + BigInt(found.tries - 1));
    assert.deepEqual(found.powHash, blake2s256(w));
    assert.equal(meetsTarget(found.powHash, target), true);
    // every earlier nonce misses the target
    for (let n = 1000n; n < found.nonce; n++) {
      new DataView(w.buffer).setBigUint64(HeaderOffset.nonce, n, true);
      assert.equal(meetsTarget(blake2s256(w), target), false);
    }
  });
  it("takes the first nonce when any hash will do", () => {
    const found = mineNonce(work(), MAX_WORD256, 42n, 1);
    assert.equal(found?.nonce, 42n);
    assert.equal(found?.tries, 1);
  });
  it("gives up after maxTries, carrying into the high word and wrapping at 2^64", () => {
    const w = work();
    assert.equal(mineNonce(w, 0n, 0xffff_fffen, 3), undefined);
    assert.equal(nonceIn(w), 0x1_0000_0000n);
    assert.equal(mineNonce(w, 0n, 0xffff_ffff_ffff_ffffn, 2), undefined);
    assert.equal(nonceIn(w), 0n);
  });
  it("rejects work shorter than a header without its hash", () => {
    assert.throws(() => mineNonce(new Uint8Array(100), 1n, 0n, 1), /at least 286 bytes, got 100/);
  });
});
