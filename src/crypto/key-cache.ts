/**
 * Parsed public keys by their bytes: building a node:crypto KeyObject costs as much as a
 * verification (more for an ECDSA key), and one signer signs many commands. Holds at most
 * `PUBLIC_KEY_CACHE_SIZE` keys per cache; the oldest is dropped past that. A key that failed to
 * parse is remembered as `undefined`.
 */
import type { KeyObject } from "node:crypto";

/** How many public keys a cache keeps parsed. */
export const PUBLIC_KEY_CACHE_SIZE = 4096;

export class PublicKeyCache {
  private readonly keys = new Map<string, KeyObject | undefined>();

  /** The KeyObject stored under `id`, built with `parse` the first time. */
  get(id: string, parse: () => KeyObject | undefined): KeyObject | undefined {
    if (this.keys.has(id)) return this.keys.get(id);
    const key = parse();
    if (this.keys.size >= PUBLIC_KEY_CACHE_SIZE) {
      this.keys.delete(this.keys.keys().next().value as string);
    }
    this.keys.set(id, key);
    return key;
  }
}
