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
import { createHash, hash } from "node:crypto";
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
  return latin1Bytes(hash("sha512-256", data, "binary"));
}

/**
 * SHA-512/256 of `input`, its 32 bytes written into `out` at `offset`: nothing allocated but the
 * digest's text, for Merkle trees that hash many small inputs in working memory they reuse.
 */
export function sha512t256Into(input: Uint8Array, out: Uint8Array, offset: number): void {
  const digest = hash("sha512-256", input, "binary");
  for (let i = 0; i < digest.length; i++) out[offset + i] = digest.charCodeAt(i);
}

/**
 * The bytes of a digest that `hash` returned in its "binary" encoding (latin1: one character per
 * byte). A string result and this copy cost about 0.45 µs for a Merkle node, against 0.75 µs for
 * a Buffer result: allocating the Buffer is most of a one-shot hash's cost.
 */
function latin1Bytes(digest: string): Uint8Array {
  const bytes = new Uint8Array(digest.length);
  for (let i = 0; i < digest.length; i++) bytes[i] = digest.charCodeAt(i);
  return bytes;
}

/**
 * Inputs up to this many bytes are hashed by {@link sha512t256Parts} in one call over a copy: a
 * one-shot `hash` costs about two thirds of a `createHash` object (Merkle nodes are 65 bytes, and
 * an empty block hashes about 35 of them).
 */
const ONE_SHOT_MAX_BYTES = 1_024;
const scratch = new Uint8Array(ONE_SHOT_MAX_BYTES);
/** Views of the start of `scratch` by length, made once each (a view is an allocation). */
const scratchViews: (Uint8Array | undefined)[] = [];

/** SHA-512/256 of the parts' concatenation, for Merkle nodes built from several parts. */
export function sha512t256Parts(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  if (length > ONE_SHOT_MAX_BYTES) {
    const h = createHash("sha512-256");
    for (const part of parts) h.update(part);
    return new Uint8Array(h.digest());
  }
  let offset = 0;
  for (const part of parts) {
    scratch.set(part, offset);
    offset += part.length;
  }
  let input = scratchViews[length];
  if (input === undefined) {
    input = scratch.subarray(0, length);
    scratchViews[length] = input;
  }
  return latin1Bytes(hash("sha512-256", input, "binary"));
}
