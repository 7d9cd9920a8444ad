/**
 * How the chain database's columns hold the chain's values: blobs read back as plain
 * Uint8Arrays, and a header's weight as bytes whose order is numeric order.
 */
import { word256ToBytes } from "../word256.ts";

/**
 * better-sqlite3 returns blobs as Buffers; callers get plain Uint8Arrays (a view, no copy), so
 * values compare equal to the ones inserted and `slice` copies as it does for Uint8Array.
 */
export function plain(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Weight as 32 big-endian bytes, so that bytewise order is numeric order. */
export function weightSortKey(weight: bigint): Uint8Array {
  return word256ToBytes(weight).reverse();
}
