/**
 * The 318-byte binary block header (chainweb-node's `encodeBlockHeader`). Integers are
 * little-endian; adjacent parents are sorted by chain id. The first 286 bytes, everything but the
 * hash, are the proof-of-work input and the mining work. Facts: `chainweb-wire.md` §2.
 */
import { word256FromBytes, word256ToBytes } from "../word256.ts";
import type { BlockHeader } from "./types.ts";

/** Every Chainweb graph has degree 3, so every header has three adjacent parents. */
export const ADJACENT_COUNT = 3;
export const HASH_BYTES = 32;
/** Bytes of a header without its hash: the proof-of-work input. */
export const WORK_BYTES = 286;
export const HEADER_BYTES = WORK_BYTES + HASH_BYTES;

/** Byte offsets of the header fields. */
export const HeaderOffset = Object.freeze({
  featureFlags: 0,
  creationTime: 8,
  parent: 16,
  adjacentCount: 48,
  adjacents: 50,
  target: 158,
  payloadHash: 190,
  chainId: 222,
  weight: 226,
  height: 258,
  versionCode: 266,
  epochStart: 270,
  nonce: 278,
  hash: 286,
});

const ADJACENT_ENTRY_BYTES = 4 + HASH_BYTES;

export class HeaderCodecError extends Error {
  override name = "HeaderCodecError";
}

/** Writes the 286 bytes before the hash into `out` (at least 286 bytes long) and returns it. */
export function encodeHeaderWithoutHash(
  header: BlockHeader,
  out: Uint8Array = new Uint8Array(WORK_BYTES),
): Uint8Array {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setBigUint64(HeaderOffset.featureFlags, u64(header.featureFlags, "featureFlags"), true);
  view.setBigInt64(HeaderOffset.creationTime, i64(header.creationTime, "creationTime"), true);
  out.set(hash32(header.parent, "parent"), HeaderOffset.parent);
  const adjacentIds = [...header.adjacents.keys()].sort((a, b) => a - b);
  if (adjacentIds.length !== ADJACENT_COUNT) {
    throw new HeaderCodecError(
      `a header has ${ADJACENT_COUNT} adjacent parents, got ${adjacentIds.length} (chains ${adjacentIds.join(", ")})`,
    );
  }
  view.setUint16(HeaderOffset.adjacentCount, ADJACENT_COUNT, true);
  adjacentIds.forEach((id, i) => {
    const at = HeaderOffset.adjacents + i * ADJACENT_ENTRY_BYTES;
    view.setUint32(at, u32(id, "adjacent chain id"), true);
    out.set(hash32(header.adjacents.get(id)!, `adjacent hash of chain ${id}`), at + 4);
  });
  word256ToBytes(header.target, out, HeaderOffset.target);
  out.set(hash32(header.payloadHash, "payloadHash"), HeaderOffset.payloadHash);
  view.setUint32(HeaderOffset.chainId, u32(header.chainId, "chainId"), true);
  word256ToBytes(header.weight, out, HeaderOffset.weight);
  view.setBigUint64(HeaderOffset.height, BigInt(uint53(header.height, "height")), true);
  view.setUint32(HeaderOffset.versionCode, u32(header.versionCode, "versionCode"), true);
  view.setBigInt64(HeaderOffset.epochStart, i64(header.epochStart, "epochStart"), true);
  view.setBigUint64(HeaderOffset.nonce, u64(header.nonce, "nonce"), true);
  return out;
}

export function encodeHeader(header: BlockHeader): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  encodeHeaderWithoutHash(header, out);
  out.set(hash32(header.hash, "hash"), HeaderOffset.hash);
  return out;
}

/**
 * Decodes a 318-byte header. The hash is taken as given; checking it is validation's job.
 * Decoded hashes are copies, so the input buffer may be reused.
 */
export function decodeHeader(bytes: Uint8Array): BlockHeader {
  if (bytes.length !== HEADER_BYTES) {
    throw new HeaderCodecError(`a block header is ${HEADER_BYTES} bytes, got ${bytes.length}`);
  }
  return decodeFields(bytes, bytes.slice(HeaderOffset.hash, HEADER_BYTES));
}

/** Decodes the 286 bytes before the hash, with the hash supplied (e.g. freshly computed). */
export function decodeHeaderWithoutHash(bytes: Uint8Array, hash: Uint8Array): BlockHeader {
  if (bytes.length !== WORK_BYTES) {
    throw new HeaderCodecError(
      `a header without its hash is ${WORK_BYTES} bytes, got ${bytes.length}`,
    );
  }
  return decodeFields(bytes, hash32(hash, "hash"));
}

function decodeFields(bytes: Uint8Array, hash: Uint8Array): BlockHeader {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint16(HeaderOffset.adjacentCount, true);
  if (count !== ADJACENT_COUNT) {
    throw new HeaderCodecError(
      `the adjacent parent count at byte ${HeaderOffset.adjacentCount} must be ${ADJACENT_COUNT}, got ${count}`,
    );
  }
  const adjacents = new Map<number, Uint8Array>();
  let previous = -1;
  for (let i = 0; i < ADJACENT_COUNT; i++) {
    const at = HeaderOffset.adjacents + i * ADJACENT_ENTRY_BYTES;
    const id = view.getUint32(at, true);
    if (id <= previous) {
      throw new HeaderCodecError(
        `adjacent chain ids must be strictly ascending, got ${id} after ${previous}`,
      );
    }
    previous = id;
    adjacents.set(id, bytes.slice(at + 4, at + ADJACENT_ENTRY_BYTES));
  }
  return {
    featureFlags: view.getBigUint64(HeaderOffset.featureFlags, true),
    creationTime: safeNumber(view.getBigInt64(HeaderOffset.creationTime, true), "creationTime"),
    parent: bytes.slice(HeaderOffset.parent, HeaderOffset.parent + HASH_BYTES),
    adjacents,
    target: word256FromBytes(bytes, HeaderOffset.target),
    payloadHash: bytes.slice(HeaderOffset.payloadHash, HeaderOffset.payloadHash + HASH_BYTES),
    chainId: view.getUint32(HeaderOffset.chainId, true),
    weight: word256FromBytes(bytes, HeaderOffset.weight),
    height: safeNumber(view.getBigUint64(HeaderOffset.height, true), "height"),
    versionCode: view.getUint32(HeaderOffset.versionCode, true),
    epochStart: safeNumber(view.getBigInt64(HeaderOffset.epochStart, true), "epochStart"),
    nonce: view.getBigUint64(HeaderOffset.nonce, true),
    hash,
  };
}

function safeNumber(value: bigint, field: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new HeaderCodecError(`${field} ${value} is beyond ±2^53 and not supported`);
  }
  return Number(value);
}

function hash32(bytes: Uint8Array, field: string): Uint8Array {
  if (bytes.length !== HASH_BYTES) {
    throw new HeaderCodecError(`${field} must be ${HASH_BYTES} bytes, got ${bytes.length}`);
  }
  return bytes;
}

function u64(value: bigint, field: string): bigint {
  if (value < 0n || value > 0xffff_ffff_ffff_ffffn) {
    throw new HeaderCodecError(`${field} ${value} does not fit in an unsigned 64-bit integer`);
  }
  return value;
}

function i64(value: number, field: string): bigint {
  if (!Number.isSafeInteger(value)) {
    throw new HeaderCodecError(`${field} ${value} is not a safe integer`);
  }
  return BigInt(value);
}

function uint53(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new HeaderCodecError(`${field} ${value} is not a non-negative safe integer`);
  }
  return value;
}

function u32(value: number, field: string): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff_ffff) {
    throw new HeaderCodecError(`${field} ${value} does not fit in an unsigned 32-bit integer`);
  }
  return value;
}
