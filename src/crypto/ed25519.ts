/**
 * ED25519 over raw bytes with node:crypto (RFC 8032, the same signatures as Pact's).
 * Keys travel as raw 32-byte values; node:crypto wants DER, so the fixed SPKI/PKCS8 prefixes
 * are added here. Public KeyObjects are cached (`key-cache.ts`).
 */
import {
  createPrivateKey,
  createPublicKey,
  type KeyObject,
  sign as nodeSign,
  verify as nodeVerify,
  randomBytes,
} from "node:crypto";
import { PublicKeyCache } from "./key-cache.ts";

const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

export const PUBLIC_KEY_BYTES = 32;
export const SECRET_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

export interface KeyPair {
  publicKey: Uint8Array;
  /** The 32-byte seed, which is what Pact and @kadena/client call the secret key. */
  secretKey: Uint8Array;
}

export function generateKeyPair(): KeyPair {
  return keyPairFromSeed(randomBytes(SECRET_KEY_BYTES));
}

export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  checkLength(seed, SECRET_KEY_BYTES, "secret key");
  const privateKey = privateKeyObject(seed);
  const spki = createPublicKey(privateKey).export({ format: "der", type: "spki" });
  return {
    publicKey: new Uint8Array(spki.subarray(SPKI_ED25519_PREFIX.length)),
    secretKey: new Uint8Array(seed),
  };
}

export function sign(message: Uint8Array, secretKey: Uint8Array): Uint8Array {
  checkLength(secretKey, SECRET_KEY_BYTES, "secret key");
  return new Uint8Array(nodeSign(null, message, privateKeyObject(secretKey)));
}

/** False for a wrong signature, a malformed key or a signature of the wrong length; never throws. */
export function verify(message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false;
  const key = publicKeyObject(publicKey);
  if (key === undefined) return false;
  return nodeVerify(null, message, key, signature);
}

/**
 * `verify` on libuv's thread pool (node:crypto's asynchronous form): many verifications at once
 * use every core and leave the event loop free. Never rejects.
 */
export function verifyAsync(
  message: Uint8Array,
  signature: Uint8Array,
  publicKey: Uint8Array,
): Promise<boolean> {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) {
    return Promise.resolve(false);
  }
  const key = publicKeyObject(publicKey);
  if (key === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    nodeVerify(null, message, key, signature, (error, valid) => resolve(error === null && valid));
  });
}

const publicKeyCache = new PublicKeyCache();

function publicKeyObject(publicKey: Uint8Array): KeyObject | undefined {
  return publicKeyCache.get(Buffer.from(publicKey).toString("hex"), () => {
    try {
      return createPublicKey({
        key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]),
        format: "der",
        type: "spki",
      });
    } catch {
      return undefined; // not a point on the curve
    }
  });
}

function privateKeyObject(seed: Uint8Array): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]),
    format: "der",
    type: "pkcs8",
  });
}

function checkLength(bytes: Uint8Array, expected: number, what: string): void {
  if (bytes.length !== expected) {
    throw new Error(`${what} must be ${expected} bytes, got ${bytes.length}`);
  }
}
