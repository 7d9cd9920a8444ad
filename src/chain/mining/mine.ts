/**
 * Proof-of-work nonce search: Blake2s-256 over the 286 work bytes, the nonce (u64 LE at offset
 * 278) counting up until the hash, read little-endian, is at most the target. No allocation per
 * try beyond the digest.
 */
import { blake2s256 } from "../../crypto/index.ts";
import { HeaderOffset, WORK_BYTES } from "../header/binary.ts";
import { word256ToBytes } from "../word256.ts";

export interface MinedNonce {
  readonly nonce: bigint;
  readonly powHash: Uint8Array;
  /** Nonces tried, the winning one included. */
  readonly tries: number;
}

/**
 * Tries `maxTries` nonces from `startNonce` (wrapping after 2^64 − 1) in `work`, the first 286
 * bytes of a header. On success `work` holds the winning nonce; otherwise the last one tried.
 */
export function mineNonce(
  work: Uint8Array,
  target: bigint,
  startNonce: bigint,
  maxTries: number,
): MinedNonce | undefined {
  if (work.length < WORK_BYTES) {
    throw new RangeError(`mining work must be at least ${WORK_BYTES} bytes, got ${work.length}`);
  }
  const input = work.subarray(0, WORK_BYTES);
  const view = new DataView(work.buffer, work.byteOffset, WORK_BYTES);
  const targetBytes = word256ToBytes(target);
  let low = Number(startNonce & 0xffff_ffffn);
  let high = Number((startNonce >> 32n) & 0xffff_ffffn);
  for (let tries = 1; tries <= maxTries; tries++) {
    view.setUint32(HeaderOffset.nonce, low, true);
    view.setUint32(HeaderOffset.nonce + 4, high, true);
    const hash = blake2s256(input);
    if (atMostLittleEndian(hash, targetBytes)) {
      return { nonce: (BigInt(high) << 32n) | BigInt(low), powHash: hash, tries };
    }
    low = (low + 1) >>> 0;
    if (low === 0) high = (high + 1) >>> 0;
  }
  return undefined;
}

/** a ≤ b for two 32-byte little-endian numbers. */
function atMostLittleEndian(a: Uint8Array, b: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    if (a[i] !== b[i]) return a[i]! < b[i]!;
  }
  return true;
}
