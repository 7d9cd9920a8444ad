/**
 * Chainweb's `signed_list` verifier plugin: a secp256k1 signature over a list of message parts.
 *
 * The proof is `[parts, publicKey, signature]`: `parts` a list of strings, decimals, nested lists
 * and `{"0x": hex}` byte chunks; the public key compressed secp256k1 (33 bytes, hex); the
 * signature `r ‖ s` (64 bytes, hex). The signed digest is SHA3-256 of the parts' bytes in order:
 * a string's UTF-8, a decimal's text, a byte chunk's bytes, a nested list's own digest. The one
 * capability must take `(parts-without-byte-chunks, publicKey)`, so the contract sees what was
 * signed.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha3_256 } from "@noble/hashes/sha3.js";
import { decodeHex, HexError } from "../../crypto/index.ts";
import { VerifierError, type VerifierPlugin } from "../../execution/index.ts";
import { Decimal, type PactValue, pactValueEquals } from "../../pact/values/index.ts";

/** What verifying the signature costs, in gas (nothing else is charged). */
export const SIGNATURE_VERIFICATION_GAS = 650;

const utf8 = new TextEncoder();

export const signedListPlugin: VerifierPlugin = (proof, caps, gas) => {
  if (caps.length !== 1) throw new VerifierError("Expected exactly one capability");
  const capArgs = caps[0]!.args;
  const [capParts, capPublicKey] = capArgs;
  if (capArgs.length !== 2 || !Array.isArray(capParts) || typeof capPublicKey !== "string") {
    throw new VerifierError("Capability args must be: (list, pubKey)");
  }
  const [parts, publicKey, signature] = Array.isArray(proof) ? proof : [];
  if (
    !Array.isArray(proof) ||
    proof.length !== 3 ||
    !Array.isArray(parts) ||
    typeof publicKey !== "string" ||
    typeof signature !== "string"
  ) {
    throw new VerifierError("Proof must be: [message parts, pubKey, sig]");
  }
  if (!wellFormed(parts)) throw new VerifierError("Parsing hash list failed");
  const { digest, shown } = hashParts(parts);
  if (!pactValueEquals(shown, capParts) || publicKey !== capPublicKey) {
    throw new VerifierError("Capability arguments do not match proof data");
  }
  gas.charge(SIGNATURE_VERIFICATION_GAS);
  const valid = verifySignature(digest, signature, publicKey);
  if (valid === null) throw new VerifierError("Malformed signature verification inputs");
  if (!valid) throw new VerifierError("Signature verification failed");
};

/** A `{"0x": hex}` byte chunk's hex, or null for any other value. */
function byteChunk(v: PactValue): string | null {
  if (!(v instanceof Map) || v.size !== 1) return null;
  const hex = v.get("0x");
  return typeof hex === "string" ? hex : null;
}

/** Whether every part is a string, a decimal, a byte chunk or a list of such parts. */
function wellFormed(parts: readonly PactValue[]): boolean {
  return parts.every(
    (p) =>
      typeof p === "string" ||
      p instanceof Decimal ||
      byteChunk(p) !== null ||
      (Array.isArray(p) && wellFormed(p)),
  );
}

/** The digest of the parts, and the parts as the capability must show them (no byte chunks). */
function hashParts(parts: readonly PactValue[]): {
  digest: Uint8Array;
  shown: PactValue[];
} {
  const chunks: Uint8Array[] = [];
  const shown: PactValue[] = [];
  for (const part of parts) {
    if (typeof part === "string") {
      chunks.push(utf8.encode(part));
      shown.push(part);
    } else if (part instanceof Decimal) {
      chunks.push(utf8.encode(part.toString()));
      shown.push(part);
    } else if (Array.isArray(part)) {
      const nested = hashParts(part);
      chunks.push(nested.digest);
      shown.push(nested.shown);
    } else {
      chunks.push(bytesOfHex(byteChunk(part)!));
    }
  }
  const h = sha3_256.create();
  for (const c of chunks) h.update(c);
  return { digest: h.digest(), shown };
}

function bytesOfHex(hex: string): Uint8Array {
  try {
    return decodeHex(hex);
  } catch (e) {
    if (e instanceof HexError) throw new VerifierError(`Malformed hex encoding: ${hex}`);
    throw e;
  }
}

/**
 * Plain ECDSA verification of `digest` (not hashed again; high `s` accepted): true or false, or
 * null when the signature or key cannot be read.
 */
function verifySignature(
  digest: Uint8Array,
  signatureHex: string,
  publicKeyHex: string,
): boolean | null {
  let signature: Uint8Array;
  let publicKey: Uint8Array;
  try {
    signature = decodeHex(signatureHex, 64);
    publicKey = decodeHex(publicKeyHex, 33);
    secp256k1.Point.fromBytes(publicKey);
  } catch {
    return null;
  }
  try {
    return secp256k1.verify(signature, digest, publicKey, {
      prehash: false,
      lowS: false,
    });
  } catch {
    return false;
  }
}
