/**
 * Chainweb's Merkle trees (kadena-io/merkle-log) over SHA-512/256:
 * - a leaf is `H(0x00 ‖ input)`; a typed input is `tag (u16 BE) ‖ bytes`;
 * - an inner node is `H(0x01 ‖ left ‖ right)`;
 * - a value that is already a hash enters the tree as is (a "tree node");
 * - the shape is RFC 6962's: the left subtree holds the largest power of two of leaves below
 *   the total. The empty tree's root is `H("")`.
 */
import { sha512t256, sha512t256Parts } from "../../crypto/index.ts";

export const MERKLE_HASH_BYTES = 32;

const LEAF_PREFIX = new Uint8Array([0x00]);
const NODE_PREFIX = new Uint8Array([0x01]);
const EMPTY_TREE_ROOT = sha512t256(new Uint8Array());

/** The 3-byte prefix `0x00 ‖ tag` of a typed leaf, so hashing needs no concatenation. */
export function leafPrefix(tag: number): Uint8Array {
  return new Uint8Array([0x00, tag >> 8, tag & 0xff]);
}

/** The input of a typed leaf: `tag (u16 BE) ‖ bytes`, as SPV proof subjects carry it. */
export function taggedInput(tag: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(2 + bytes.length);
  out[0] = tag >> 8;
  out[1] = tag & 0xff;
  out.set(bytes, 2);
  return out;
}

/** `H(0x00 ‖ input)` */
export function merkleLeaf(input: Uint8Array): Uint8Array {
  return sha512t256Parts([LEAF_PREFIX, input]);
}

/** `H(0x00 ‖ tag ‖ bytes)`, with the prefix from `leafPrefix(tag)`. */
export function taggedLeaf(prefix: Uint8Array, bytes: Uint8Array): Uint8Array {
  return sha512t256Parts([prefix, bytes]);
}

/** `H(0x01 ‖ left ‖ right)` */
export function merkleNode(left: Uint8Array, right: Uint8Array): Uint8Array {
  return sha512t256Parts([NODE_PREFIX, left, right]);
}

/**
 * The root over already hashed leaves, built as merkle-log builds it: push each leaf, merging
 * the top two entries while they have equal height, then fold the stack from the top.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_TREE_ROOT;
  const hashes: Uint8Array[] = [];
  const heights: number[] = [];
  for (const leaf of leaves) {
    hashes.push(leaf);
    heights.push(0);
    while (heights.length >= 2 && heights.at(-1) === heights.at(-2)) {
      const right = hashes.pop()!;
      const left = hashes.pop()!;
      heights.pop();
      hashes.push(merkleNode(left, right));
      heights.push(heights.pop()! + 1);
    }
  }
  let root = hashes.pop()!;
  while (hashes.length > 0) root = merkleNode(hashes.pop()!, root);
  return root;
}
