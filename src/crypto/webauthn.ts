/**
 * WebAuthn assertion signatures, checked as Pact checks them: the authenticator signs its
 * authenticator data followed by the SHA-256 of the client data JSON, with the credential's COSE
 * key — ES256 (an ASN.1 DER ECDSA signature, hashed with SHA-256) or EdDSA (a raw 64-byte Ed25519
 * signature). node:crypto does the curve work; the asynchronous form runs on libuv's thread pool.
 */
import { createHash, createPublicKey, type KeyObject, verify as nodeVerify } from "node:crypto";
import type { CoseKey } from "./cose-key.ts";
import { verify as verifyEd25519, verifyAsync as verifyEd25519Async } from "./ed25519.ts";
import { PublicKeyCache } from "./key-cache.ts";

/** The bytes a WebAuthn authenticator signs: authenticatorData ‖ SHA-256(clientDataJSON). */
export function webAuthnSignedBytes(
  authenticatorData: Uint8Array,
  clientDataJson: Uint8Array,
): Uint8Array {
  const clientDataHash = createHash("sha256").update(clientDataJson).digest();
  return new Uint8Array(Buffer.concat([authenticatorData, clientDataHash]));
}

/** False for a wrong or malformed signature; never throws. */
export function verifyCoseSignature(
  key: CoseKey,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  if (key.alg === "EdDSA") return verifyEd25519(message, signature, key.publicKey);
  const ecKey = ecdsaKeyObject(key);
  if (ecKey === undefined) return false;
  try {
    return nodeVerify("sha256", message, { key: ecKey, dsaEncoding: "der" }, signature);
  } catch {
    return false; // not a DER ECDSA signature
  }
}

/** {@link verifyCoseSignature} on libuv's thread pool. Never rejects. */
export function verifyCoseSignatureAsync(
  key: CoseKey,
  message: Uint8Array,
  signature: Uint8Array,
): Promise<boolean> {
  if (key.alg === "EdDSA") return verifyEd25519Async(message, signature, key.publicKey);
  const ecKey = ecdsaKeyObject(key);
  if (ecKey === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      nodeVerify("sha256", message, { key: ecKey, dsaEncoding: "der" }, signature, (error, valid) =>
        resolve(error === null && valid),
      );
    } catch {
      resolve(false);
    }
  });
}

const ecdsaKeyCache = new PublicKeyCache();

function ecdsaKeyObject(key: Extract<CoseKey, { alg: "ES256" }>): KeyObject | undefined {
  const x = Buffer.from(key.x).toString("base64url");
  const y = Buffer.from(key.y).toString("base64url");
  return ecdsaKeyCache.get(`${key.curve}:${x}:${y}`, () => {
    try {
      return createPublicKey({ key: { kty: "EC", crv: key.curve, x, y }, format: "jwk" });
    } catch {
      return undefined; // parseCoseKey already checked the point; this is only a guard
    }
  });
}
