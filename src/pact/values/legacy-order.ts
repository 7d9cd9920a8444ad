/**
 * The key order of Pact's JSON objects: the iteration order of the legacy Haskell HashMap
 * (unordered-containers 0.2.15 as pinned by pact-json), which Pact keeps for wire compatibility.
 *
 * A key's hash is 64-bit FNV-1 over its UTF-16LE bytes, starting from -2578643520546668380
 * (h = h·16777619 mod 2^64, then h ^= byte). The HAMT walks 4-bit chunks of the hash from the
 * least significant end, so keys are ordered by their hash nibbles read from the low end; keys
 * with equal hashes keep their sorted (code point) order.
 */

import { compareCodePoints } from "./text.ts";

/** Re-exported for modules that import it from here; its home is ./text.ts. */
export { compareCodePoints };

// The 64-bit state as four 16-bit limbs, least significant first (exact in doubles).
const SEED = BigInt.asUintN(64, -2578643520546668380n);
const SEED_LIMBS = [0, 1, 2, 3].map((i) => Number((SEED >> BigInt(16 * i)) & 0xffffn));
const PRIME = 16777619; // < 2^25, so limb products stay below 2^41

const HEX = "0123456789abcdef";

/** FNV-1 over the key's UTF-16LE bytes, as four 16-bit limbs, least significant first. */
function hashLimbs(key: string): [number, number, number, number] {
  let l0 = SEED_LIMBS[0] as number;
  let l1 = SEED_LIMBS[1] as number;
  let l2 = SEED_LIMBS[2] as number;
  let l3 = SEED_LIMBS[3] as number;
  for (let i = 0; i < key.length * 2; i++) {
    const unit = key.charCodeAt(i >> 1);
    const byte = i & 1 ? unit >>> 8 : unit & 0xff;
    // h = h·PRIME mod 2^64, limb by limb with carries
    let t = l0 * PRIME;
    l0 = t % 65536;
    t = l1 * PRIME + Math.floor(t / 65536);
    l1 = t % 65536;
    t = l2 * PRIME + Math.floor(t / 65536);
    l2 = t % 65536;
    t = l3 * PRIME + Math.floor(t / 65536);
    l3 = t % 65536;
    l0 ^= byte;
  }
  return [l0, l1, l2, l3];
}

/** The legacy hash of a key as the signed 64-bit Int Haskell computes. */
export function legacyHash(key: string): bigint {
  const [l0, l1, l2, l3] = hashLimbs(key);
  return BigInt.asIntN(
    64,
    (BigInt(l3) << 48n) | (BigInt(l2) << 32n) | (BigInt(l1) << 16n) | BigInt(l0),
  );
}

/**
 * The order key of one object key: its hash's 16 nibbles from least to most significant, as
 * hex text, so that comparing order keys as strings compares hash nibble sequences.
 */
export function legacyOrderKey(key: string): string {
  let out = "";
  for (const limb of hashLimbs(key)) {
    out += HEX[limb & 15];
    out += HEX[(limb >>> 4) & 15];
    out += HEX[(limb >>> 8) & 15];
    out += HEX[(limb >>> 12) & 15];
  }
  return out;
}

/** Order keys are cached: objects reuse the same few field names over and over. */
const MAX_CACHED_KEYS = 10_000;
const cache = new Map<string, string>();

function cachedOrderKey(key: string): string {
  let k = cache.get(key);
  if (k === undefined) {
    k = legacyOrderKey(key);
    if (cache.size >= MAX_CACHED_KEYS) cache.clear();
    cache.set(key, k);
  }
  return k;
}

/** The keys in Pact's JSON object order. */
export function legacyKeyOrder(keys: Iterable<string>): string[] {
  const entries = [...keys].map((key) => ({ key, order: cachedOrderKey(key) }));
  entries.sort((a, b) =>
    a.order < b.order ? -1 : a.order > b.order ? 1 : compareCodePoints(a.key, b.key),
  );
  return entries.map((e) => e.key);
}
