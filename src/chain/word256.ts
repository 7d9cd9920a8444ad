/**
 * Word256: the unsigned 256-bit integers of proof-of-work targets, pow hashes and weights.
 * Chainweb writes them as 32 bytes little-endian, and its arithmetic on them wraps modulo 2^256.
 */

export const WORD256_BYTES = 32;

/** 2^256 − 1: the largest Word256, and the easiest possible target. */
export const MAX_WORD256 = (1n << 256n) - 1n;

export class Word256Error extends Error {
  override name = "Word256Error";
}

/** Writes `value` as 32 little-endian bytes at `offset` of `out` (a new array by default). */
export function word256ToBytes(
  value: bigint,
  out: Uint8Array = new Uint8Array(WORD256_BYTES),
  offset = 0,
): Uint8Array {
  if (value < 0n || value > MAX_WORD256) {
    throw new Word256Error(`${value} does not fit in 256 unsigned bits`);
  }
  // Eight 32-bit limbs, least significant first: far fewer BigInt operations than byte by byte.
  const view = new DataView(out.buffer, out.byteOffset + offset, WORD256_BYTES);
  let rest = value;
  for (let i = 0; i < 8; i++) {
    view.setUint32(i * 4, Number(BigInt.asUintN(32, rest)), true);
    rest >>= 32n;
  }
  return out;
}

/** Reads 32 little-endian bytes at `offset` as an unsigned integer. */
export function word256FromBytes(bytes: Uint8Array, offset = 0): bigint {
  if (bytes.length < offset + WORD256_BYTES) {
    throw new Word256Error(
      `a Word256 needs ${WORD256_BYTES} bytes at offset ${offset}, got ${bytes.length - offset}`,
    );
  }
  // Eight 32-bit limbs, most significant first: far fewer BigInt operations than byte by byte.
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset, WORD256_BYTES);
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 32n) | BigInt(view.getUint32(i * 4, true));
  return value;
}

/** Lowercase hex, zero padded to 64 digits, most significant first (Chainweb's `%064x`). */
export function word256Hex(value: bigint): string {
  return value.toString(16).padStart(64, "0");
}
