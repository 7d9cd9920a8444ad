import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { blake2s256, decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import { merkleLeaf, merkleNode, merkleRoot } from "../merkle/tree.ts";
import { mainnetHeaders, vectorsSkip } from "../test-support/vectors.ts";
import { MAX_WORD256 } from "../word256.ts";
import { decodeHeader, HeaderOffset, WORK_BYTES } from "./binary.ts";
import {
  blockHashOfWork,
  computeBlockHash,
  computePowHash,
  FIRST_ADJACENT_LEAF_POSITION,
  headerLeaves,
  meetsTarget,
  PARENT_LEAF_POSITION,
  PAYLOAD_LEAF_POSITION,
  powHashHex,
  powHashOfWork,
} from "./hash.ts";

const skip = vectorsSkip("mainnet-headers.json");
const mainnetBinaries = () => mainnetHeaders().binaryHeadersBase64Url.map(decodeBase64Url);

describe("block hash", { skip }, () => {
  const binaries = mainnetBinaries();
  it("reproduces the hash of every mainnet vector", () => {
    assert.deepEqual(
      binaries.map((b) => encodeBase64Url(computeBlockHash(decodeHeader(b)))),
      [
        "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k",
        "vhVa6Deh10RXLRf3L-MSQTYqaL-_IY_mi-v58MjP9R8",
      ],
    );
    for (const bytes of binaries) {
      assert.deepEqual(blockHashOfWork(bytes), bytes.subarray(HeaderOffset.hash));
    }
  });
  it("is the root of 11 field leaves then the 3 adjacent hashes", () => {
    const header = decodeHeader(binaries[0]!);
    const leaves = headerLeaves(header);
    assert.equal(leaves.length, 14);
    assert.deepEqual(leaves[PARENT_LEAF_POSITION], header.parent);
    assert.deepEqual(leaves[PAYLOAD_LEAF_POSITION], header.payloadHash);
    assert.deepEqual(leaves[FIRST_ADJACENT_LEAF_POSITION + 2], header.adjacents.get(15));
    // the chain id leaf: H(0x00 ‖ 0x0002 ‖ u32 LE 0)
    assert.deepEqual(leaves[5], merkleLeaf(new Uint8Array([0, 2, 0, 0, 0, 0])));
    const n = merkleNode;
    const l = leaves;
    const eight = n(n(n(l[0]!, l[1]!), n(l[2]!, l[3]!)), n(n(l[4]!, l[5]!), n(l[6]!, l[7]!)));
    const six = n(n(n(l[8]!, l[9]!), n(l[10]!, l[11]!)), n(l[12]!, l[13]!));
    assert.deepEqual(merkleRoot(leaves), n(eight, six));
    assert.deepEqual(computeBlockHash(header), n(eight, six));
  });
  it("commits to every work byte except the adjacent count and adjacent chain ids", () => {
    const work = binaries[0]!.slice(0, WORK_BYTES);
    const original = blockHashOfWork(work);
    const uncommitted: number[] = [];
    for (let i = 0; i < WORK_BYTES; i++) {
      work[i]! ^= 0x01;
      if (encodeBase64Url(blockHashOfWork(work)) === encodeBase64Url(original)) uncommitted.push(i);
      work[i]! ^= 0x01;
    }
    const ids = (at: number) => [at, at + 1, at + 2, at + 3];
    assert.deepEqual(uncommitted, [48, 49, ...ids(50), ...ids(86), ...ids(122)]);
  });
});

describe("proof of work", { skip }, () => {
  const binaries = mainnetBinaries();
  it("hashes the first 286 bytes with Blake2s-256", () => {
    const bytes = binaries[0]!;
    assert.deepEqual(powHashOfWork(bytes), blake2s256(bytes.subarray(0, WORK_BYTES)));
    assert.deepEqual(computePowHash(decodeHeader(bytes)), powHashOfWork(bytes));
  });
  it("gives the mainnet vectors PoW hashes below their targets", () => {
    const hex = binaries.map((b) => powHashHex(powHashOfWork(b)));
    assert.deepEqual(hex, [
      "00000000000018080775e8eae2fbd2053efcb410a3255c9bfcbaf7f9baa072d9",
      "000000000000102cc92e1657bacaab7d4fd30de0c40cbbd13f1ddce4ad16e5de",
    ]);
    for (const bytes of binaries) {
      const header = decodeHeader(bytes);
      assert.equal(meetsTarget(powHashOfWork(bytes), header.target), true);
      assert.equal(meetsTarget(powHashOfWork(bytes), header.target / 1_000_000n), false);
    }
  });
  it("reads the PoW hash as a little-endian number against the target", () => {
    const hash = new Uint8Array(32);
    hash[0] = 5; // the number 5
    assert.equal(meetsTarget(hash, 5n), true);
    assert.equal(meetsTarget(hash, 4n), false);
    hash[31] = 1; // now 2^248 + 5
    assert.equal(meetsTarget(hash, (1n << 248n) + 4n), false);
    assert.equal(meetsTarget(new Uint8Array(32).fill(0xff), MAX_WORD256), true);
  });
});
