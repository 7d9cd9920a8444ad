import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex } from "../../crypto/index.ts";
import { Random } from "../test-support/random.ts";
import {
  applySteps,
  chainedProof,
  decodeProofObject,
  encodeProofObject,
  MerkleProofError,
  merklePath,
  runProofFromInput,
  Side,
} from "./proof.ts";
import { merkleLeaf, merkleNode, merkleRoot } from "./tree.ts";

const leaf = (n: number) => merkleLeaf(new Uint8Array([n]));
const leaves = (count: number) => Array.from({ length: count }, (_, i) => leaf(i));

describe("Merkle audit paths", () => {
  it("lists the siblings from the leaf up with their sides", () => {
    const ls = leaves(3);
    const path = merklePath(ls, 2);
    assert.deepEqual(path, [{ side: Side.Left, hash: merkleNode(ls[0]!, ls[1]!) }]);
    const first = merklePath(ls, 0);
    assert.deepEqual(first, [
      { side: Side.Right, hash: ls[1]! },
      { side: Side.Right, hash: ls[2]! },
    ]);
  });
  it("leads every leaf of every tree size up to the root", () => {
    for (let count = 1; count <= 33; count++) {
      const ls = leaves(count);
      const root = merkleRoot(ls);
      for (let i = 0; i < count; i++) {
        assert.deepEqual(applySteps(ls[i]!, merklePath(ls, i)), root, `leaf ${i} of ${count}`);
      }
    }
  });
  it("rejects a position outside the tree", () => {
    assert.throws(() => merklePath(leaves(3), 3), /position 3 is outside the tree's leaves 0..2/);
    assert.throws(() => merklePath(leaves(3), -1), MerkleProofError);
  });
});

describe("proof objects", () => {
  it("encodes count (u32 BE), position (u64 BE) and 33-byte steps", () => {
    const object = encodeProofObject({
      position: 258,
      steps: [{ side: Side.Right, hash: new Uint8Array(32).fill(0xab) }],
    });
    assert.equal(object.length, 12 + 33);
    assert.equal(encodeHex(object.subarray(0, 13)), `00000001${"0000000000000102"}01`);
    assert.deepEqual(decodeProofObject(object), {
      position: 258,
      steps: [{ side: Side.Right, hash: new Uint8Array(32).fill(0xab) }],
    });
  });
  it("reports malformed objects", () => {
    assert.throws(() => decodeProofObject(new Uint8Array(11)), /shorter than its 12-byte header/);
    const twoSteps = encodeProofObject({
      position: 0,
      steps: [
        { side: Side.Left, hash: new Uint8Array(32) },
        { side: Side.Left, hash: new Uint8Array(32) },
      ],
    });
    assert.throws(
      () => decodeProofObject(twoSteps.subarray(0, 50)),
      /proof object of 2 steps must be 78 bytes, got 50/,
    );
    const badSide = twoSteps.slice();
    badSide[12 + 33] = 2;
    assert.throws(() => decodeProofObject(badSide), /proof step 1 has side byte 0x02/);
    const huge = new Uint8Array(12);
    new DataView(huge.buffer).setUint32(0, 5000);
    assert.throws(() => decodeProofObject(huge), /claims 5000 steps; at most 1024/);
  });
});

describe("chained proofs", () => {
  it("carries the subject through trees that hold each previous root", () => {
    const random = new Random(11);
    const input = random.bytes(40);
    const first = [leaf(0), merkleLeaf(input), leaf(2)];
    const second = [leaf(9), merkleRoot(first), leaf(8), leaf(7), leaf(6)];
    const third = [leaf(5), leaf(4), leaf(3), merkleRoot(second)];
    const proof = chainedProof(merkleLeaf(input), [
      { leaves: first, position: 1 },
      { leaves: second, position: 1 },
      { leaves: third, position: 3 },
    ]);
    assert.equal(proof.position, 1);
    assert.equal(proof.steps.length, 2 + 3 + 2);
    assert.deepEqual(runProofFromInput(input, encodeProofObject(proof)), merkleRoot(third));
  });
  it("refuses a tree that does not hold the previous root", () => {
    assert.throws(
      () =>
        chainedProof(leaf(1), [
          { leaves: [leaf(0), leaf(1)], position: 1 },
          { leaves: [leaf(0), leaf(1)], position: 0 },
        ]),
      /tree 1 of the proof does not hold its subject at position 0/,
    );
  });
});
