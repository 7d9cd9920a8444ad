import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex, sha512t256 } from "../../crypto/index.ts";
import { leafPrefix, merkleLeaf, merkleNode, merkleRoot, taggedInput, taggedLeaf } from "./tree.ts";

const concat = (...parts: number[][]) => new Uint8Array(parts.flat());
const leaf = (n: number) => merkleLeaf(new Uint8Array([n]));

describe("Merkle hashing", () => {
  it("hashes a leaf as H(0x00 ‖ input) and a node as H(0x01 ‖ left ‖ right)", () => {
    assert.deepEqual(merkleLeaf(new Uint8Array([7, 8])), sha512t256(concat([0, 7, 8])));
    const a = leaf(1);
    const b = leaf(2);
    assert.deepEqual(merkleNode(a, b), sha512t256(concat([1], [...a], [...b])));
  });
  it("prefixes a typed leaf with its big-endian tag", () => {
    assert.deepEqual(leafPrefix(0x0014), new Uint8Array([0, 0, 0x14]));
    assert.deepEqual(taggedInput(0x1234, new Uint8Array([9])), new Uint8Array([0x12, 0x34, 9]));
    assert.deepEqual(
      taggedLeaf(leafPrefix(0x0014), new Uint8Array([9])),
      merkleLeaf(taggedInput(0x0014, new Uint8Array([9]))),
    );
  });
  it("gives the empty tree the hash of the empty string", () => {
    assert.equal(
      encodeHex(merkleRoot([])),
      "c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a",
    );
  });
  it("makes a single leaf its own root", () => {
    assert.deepEqual(merkleRoot([leaf(1)]), leaf(1));
  });
  it("splits at the largest power of two below the leaf count", () => {
    const n = merkleNode;
    const leaves = (count: number) => Array.from({ length: count }, (_, i) => leaf(i + 1));
    const [a, b, c, d, e, f, g] = [1, 2, 3, 4, 5, 6, 7].map(leaf) as [
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
      Uint8Array,
    ];
    assert.deepEqual(merkleRoot(leaves(3)), n(n(a, b), c));
    assert.deepEqual(merkleRoot(leaves(4)), n(n(a, b), n(c, d)));
    assert.deepEqual(merkleRoot(leaves(5)), n(n(n(a, b), n(c, d)), e));
    assert.deepEqual(merkleRoot(leaves(6)), n(n(n(a, b), n(c, d)), n(e, f)));
    assert.deepEqual(merkleRoot(leaves(7)), n(n(n(a, b), n(c, d)), n(n(e, f), g)));
  });
  it("builds every tree of 1 to 100 leaves as RFC 6962 splits them, each root its own copy", () => {
    const split = (ls: Uint8Array[]): Uint8Array => {
      if (ls.length === 1) return ls[0]!;
      let k = 1;
      while (k * 2 < ls.length) k *= 2;
      return merkleNode(split(ls.slice(0, k)), split(ls.slice(k)));
    };
    const all = Array.from({ length: 100 }, (_, i) => leaf(i));
    const roots = all.map((_, i) => merkleRoot(all.slice(0, i + 1)));
    for (const [i, root] of roots.entries()) {
      assert.deepEqual(root, split(all.slice(0, i + 1)), `${i + 1} leaves`);
    }
    assert.equal(
      encodeHex(roots[99]!),
      encodeHex(split(all)),
      "a root is unchanged by the roots computed after it",
    );
  });
  it("refuses a leaf that is not a 32-byte hash", () => {
    assert.throws(() => merkleRoot([leaf(1), new Uint8Array(33)]), {
      name: "RangeError",
      message: "a Merkle leaf hash is 32 bytes, got 33",
    });
  });
});
