/**
 * The hash functions of the Chainweb and Pact wire formats.
 * - Blake2b-256: the command hash every deployed client uses, and Pact's `hash` native.
 *   node:crypto cannot produce a 32-byte Blake2b, so hash-wasm (WASM, synchronous once created) does it.
 * - Blake2s-256: the command hash of the interface spec, and the proof-of-work hash. node:crypto
 *   has it, but hash-wasm's reused instance is about 1.8× faster per call on header-sized input,
 *   which is what the miner's nonce loop does all day.
 * - SHA-512/256: Chainweb's Merkle hash (node:crypto; hash-wasm has no SHA-512/256).
 * The WASM instances are synchronous once created and shared: each call runs init, update and
 * digest without yielding, so calls never interleave.
 */
import { createHash } from "node:crypto";
import { createBLAKE2b, createBLAKE2s } from "hash-wasm";

const blake2b = await createBLAKE2b(256);
const blake2s = await createBLAKE2s(256);

export function blake2b256(data: Uint8Array | string): Uint8Array {
  blake2b.init();
  blake2b.update(data);
  return blake2b.digest("binary");
}

export function blake2s256(data: Uint8Array | string): Uint8Array {
  blake2s.init();
  blake2s.update(data);
  return blake2s.digest("binary");
}

export function sha512t256(data: Uint8Array | string): Uint8Array {
  return new Uint8Array(createHash("sha512-256").update(data).digest());
}

/** Incremental SHA-512/256, for Merkle nodes built from several parts without concatenating. */
export function sha512t256Parts(parts: readonly Uint8Array[]): Uint8Array {
  const h = createHash("sha512-256");
  for (const part of parts) h.update(part);
  return new Uint8Array(h.digest());
}
