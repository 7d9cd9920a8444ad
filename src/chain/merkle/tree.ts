/**
 * Chainweb's Merkle trees (kadena-io/merkle-log) over SHA-512/256:
 * - a leaf is `H(0x00 ‖ input)`; a typed input is `tag (u16 BE) ‖ bytes`;
 * - an inner node is `H(0x01 ‖ left ‖ right)`;
 * - a value that is already a hash enters the tree as is (a "tree node");
 * - the shape is RFC 6962's: the left subtree holds the largest power of two of leaves below
 *   the total. The empty tree's root is `H("")`.
 */
import { sha512t256, sha512t256Into, sha512t256Parts } from "../../crypto/index.ts";

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

/** The bytes of an inner node's input: `0x01 ‖ left ‖ right`. */
const NODE_INPUT_BYTES = 1 + 2 * MERKLE_HASH_BYTES;
/** Stack entries {@link merkleRoot} may need: one per bit of the leaf count, and one more. */
const MAX_STACK_ENTRIES = 64;
/**
 * {@link merkleRoot}'s working memory: an inner node's input, then the stack of subtree roots,
 * 32 bytes each. Two neighbouring entries are merged by copying them behind the node prefix and
 * hashing that into the lower one: a block hashes dozens of nodes, and allocating each one's
 * input and digest was a third of their cost.
 */
const stack = new Uint8Array(NODE_INPUT_BYTES + MAX_STACK_ENTRIES * MERKLE_HASH_BYTES);
stack[0] = 0x01;
const nodeInput = stack.subarray(0, NODE_INPUT_BYTES);
const entryAt = (i: number) => NODE_INPUT_BYTES + i * MERKLE_HASH_BYTES;

/** Replaces stack entries `i` and `i + 1` by their inner node. */
function mergeEntries(i: number): void {
  stack.copyWithin(1, entryAt(i), entryAt(i + 2));
  sha512t256Into(nodeInput, stack, entryAt(i));
}

/**
 * The root over already hashed leaves (32 bytes each), built as merkle-log builds it: push each
 * leaf, merging the top two entries while they have equal height, then fold the stack from the
 * top.
 */
export function merkleRoot(leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return EMPTY_TREE_ROOT;
  const heights: number[] = [];
  for (const leaf of leaves) {
    if (leaf.length !== MERKLE_HASH_BYTES) {
      throw new RangeError(`a Merkle leaf hash is ${MERKLE_HASH_BYTES} bytes, got ${leaf.length}`);
    }
    stack.set(leaf, entryAt(heights.length));
    heights.push(0);
    while (heights.length >= 2 && heights.at(-1) === heights.at(-2)) {
      heights.pop();
      mergeEntries(heights.length - 1);
      heights.push(heights.pop()! + 1);
    }
  }
  for (let top = heights.length - 1; top > 0; top--) mergeEntries(top - 1);
  return stack.slice(entryAt(0), entryAt(1));
}
