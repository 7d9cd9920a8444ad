/**
 * The block hash and the proof-of-work hash.
 * - The block hash is the Merkle root of the header fields (not a hash of the 318 bytes): eleven
 *   typed or tree-node entries in a fixed order, then the adjacent hashes sorted by chain id.
 * - The PoW hash is Blake2s-256 of the 286 bytes before the hash, read as a little-endian
 *   Word256; a block satisfies its target when that number is ≤ the target.
 * Facts: `chainweb-wire.md` §2.
 */
import { blake2s256 } from "../../crypto/index.ts";
import { MerkleTag } from "../merkle/tags.ts";
import { leafPrefix, merkleRoot, taggedLeaf } from "../merkle/tree.ts";
import { word256FromBytes } from "../word256.ts";
import {
  ADJACENT_COUNT,
  encodeHeaderWithoutHash,
  HASH_BYTES,
  HeaderOffset,
  WORK_BYTES,
} from "./binary.ts";
import type { BlockHeader } from "./types.ts";

/** A typed field: its tag's leaf prefix and its byte range in the header. */
interface TypedField {
  readonly prefix: Uint8Array;
  readonly start: number;
  readonly end: number;
}

const typed = (tag: number, start: number, end: number): TypedField => ({
  prefix: leafPrefix(tag),
  start,
  end,
});

const O = HeaderOffset;

/** The Merkle log order of the header: typed fields and tree-node (hash) fields. */
const HEADER_ENTRIES: readonly (TypedField | number)[] = [
  typed(MerkleTag.FeatureFlags, O.featureFlags, O.creationTime),
  typed(MerkleTag.BlockCreationTime, O.creationTime, O.parent),
  O.parent,
  typed(MerkleTag.HashTarget, O.target, O.payloadHash),
  O.payloadHash,
  typed(MerkleTag.ChainId, O.chainId, O.weight),
  typed(MerkleTag.BlockWeight, O.weight, O.height),
  typed(MerkleTag.BlockHeight, O.height, O.versionCode),
  typed(MerkleTag.ChainwebVersion, O.versionCode, O.epochStart),
  typed(MerkleTag.EpochStartTime, O.epochStart, O.nonce),
  typed(MerkleTag.BlockNonce, O.nonce, O.hash),
];

/** Position of the parent hash among the header's Merkle leaves. */
export const PARENT_LEAF_POSITION = 2;
/** Position of the payload hash among the header's Merkle leaves. */
export const PAYLOAD_LEAF_POSITION = 4;
/** Position of the first adjacent hash; the i-th adjacent (by chain id) is at this + i. */
export const FIRST_ADJACENT_LEAF_POSITION = HEADER_ENTRIES.length;

/** The header's Merkle leaf hashes, computed from its first 286 encoded bytes. */
export function headerLeavesOfWork(work: Uint8Array): Uint8Array[] {
  if (work.length < WORK_BYTES) {
    throw new RangeError(`header work must be at least ${WORK_BYTES} bytes, got ${work.length}`);
  }
  const leaves: Uint8Array[] = [];
  for (const entry of HEADER_ENTRIES) {
    leaves.push(
      typeof entry === "number"
        ? work.subarray(entry, entry + HASH_BYTES)
        : taggedLeaf(entry.prefix, work.subarray(entry.start, entry.end)),
    );
  }
  for (let i = 0; i < ADJACENT_COUNT; i++) {
    const at = O.adjacents + i * (4 + HASH_BYTES) + 4;
    leaves.push(work.subarray(at, at + HASH_BYTES));
  }
  return leaves;
}

/** The block hash of the header whose first 286 encoded bytes are `work`. */
export function blockHashOfWork(work: Uint8Array): Uint8Array {
  return merkleRoot(headerLeavesOfWork(work));
}

/** The block hash the header's fields commit to (its `hash` field is ignored). */
export function computeBlockHash(header: BlockHeader): Uint8Array {
  return blockHashOfWork(encodeHeaderWithoutHash(header));
}

/** The header's Merkle leaf hashes, for proofs through the header. */
export function headerLeaves(header: BlockHeader): Uint8Array[] {
  return headerLeavesOfWork(encodeHeaderWithoutHash(header));
}

/** Blake2s-256 of the first 286 bytes of an encoded header. */
export function powHashOfWork(work: Uint8Array): Uint8Array {
  return blake2s256(work.length === WORK_BYTES ? work : work.subarray(0, WORK_BYTES));
}

export function computePowHash(header: BlockHeader): Uint8Array {
  return blake2s256(encodeHeaderWithoutHash(header));
}

/** Whether a PoW hash, read as a little-endian Word256, is at most the target. */
export function meetsTarget(powHash: Uint8Array, target: bigint): boolean {
  return word256FromBytes(powHash) <= target;
}

/** The SSE form of a PoW hash: hex of the byte-reversed digest (big-endian), 64 digits. */
export function powHashHex(powHash: Uint8Array): string {
  return Buffer.from(powHash).reverse().toString("hex");
}
