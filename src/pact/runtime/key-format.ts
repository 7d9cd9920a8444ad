/**
 * The public key formats Pact accepts when the flag `EnforceKeyFormats` is set (Pact's
 * `isValidKeyFormat`): an ED25519 key as 64 lowercase hex digits, or a WebAuthn key —
 * `WEBAUTHN-` and the lowercase hex of a COSE public key in canonical CBOR, signing with EdDSA
 * (Ed25519) or ES256 (ECDSA on a NIST curve, the point checked to be on it).
 */
import { p256, p384, p521 } from "@noble/curves/nist.js";

/** The prefix of WebAuthn public keys. */
export const WEBAUTHN_PREFIX = "WEBAUTHN-";

const ED25519_HEX = /^[0-9a-f]{64}$/;
const LOWER_HEX = /^(?:[0-9a-f]{2})*$/;

export function isEd25519HexKey(key: string): boolean {
  return ED25519_HEX.test(key);
}

export function isValidKeyFormat(key: string): boolean {
  return isEd25519HexKey(key) || isWebAuthnKey(key);
}

export function isWebAuthnKey(key: string): boolean {
  if (!key.startsWith(WEBAUTHN_PREFIX)) return false;
  const hex = key.slice(WEBAUTHN_PREFIX.length);
  if (!LOWER_HEX.test(hex)) return false;
  return isCoseKeyWithValidAlg(Buffer.from(hex, "hex"));
}

// COSE labels and values (RFC 9052/9053 registries).
const KTY = 1n;
const ALG = 3n;
const CRV = -1n;
const X = -2n;
const Y = -3n;
const KTY_OKP = 1n;
const KTY_EC2 = 2n;
const ALG_EDDSA = -8n;
const ALG_ES256 = -7n;
const CRV_ED25519 = 6n;
const ED25519_KEY_BYTES = 32;

/** NIST curves by COSE curve id, with their coordinate sizes in bytes. */
const EC2_CURVES: ReadonlyMap<bigint, { bytes: number; curve: typeof p256 }> = new Map([
  [1n, { bytes: 32, curve: p256 }],
  [2n, { bytes: 48, curve: p384 }],
  [3n, { bytes: 66, curve: p521 }],
]);

/** Reads canonical CBOR (shortest-form lengths, definite lengths only); null on anything else. */
class CanonicalCbor {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos === this.bytes.length;
  }

  /** The next item's major type, without reading it. */
  peekMajor(): number | null {
    const b = this.bytes[this.pos];
    return b === undefined ? null : b >> 5;
  }

  private header(major: number): bigint | null {
    const b = this.bytes[this.pos];
    if (b === undefined || b >> 5 !== major) return null;
    const info = b & 0x1f;
    this.pos++;
    if (info < 24) return BigInt(info);
    const width = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
    if (width === 0 || this.pos + width > this.bytes.length) return null;
    let n = 0n;
    for (let i = 0; i < width; i++) n = (n << 8n) | BigInt(this.bytes[this.pos + i]!);
    this.pos += width;
    // Canonical: no longer form than needed.
    const minimum = width === 1 ? 24n : 1n << BigInt(4 * width);
    return n < minimum ? null : n;
  }

  int(): bigint | null {
    const major = this.peekMajor();
    if (major === 0) return this.header(0);
    if (major === 1) {
      const n = this.header(1);
      return n === null ? null : -1n - n;
    }
    return null;
  }

  bytesOf(): Uint8Array | null {
    const n = this.header(2);
    if (n === null || this.pos + Number(n) > this.bytes.length) return null;
    const out = this.bytes.subarray(this.pos, this.pos + Number(n));
    this.pos += Number(n);
    return out;
  }

  mapLength(): bigint | null {
    return this.header(5);
  }

  /** Reads an integer label and checks it is `expected`. */
  expect(expected: bigint): boolean {
    return this.int() === expected;
  }
}

/** A COSE key whose algorithm is EdDSA or ES256 and whose key material is well formed. */
function isCoseKeyWithValidAlg(bytes: Uint8Array): boolean {
  const r = new CanonicalCbor(bytes);
  const entries = r.mapLength();
  if (entries === null || !r.expect(KTY)) return false;
  const kty = r.int();
  if (!r.expect(ALG)) return false;
  const alg = r.int();
  let ok: boolean;
  if (alg === ALG_EDDSA) ok = kty === KTY_OKP && entries === 4n && readEd25519(r);
  else if (alg === ALG_ES256) ok = kty === KTY_EC2 && entries === 5n && readEc2(r);
  else ok = false;
  return ok && r.done;
}

function readEd25519(r: CanonicalCbor): boolean {
  if (!r.expect(CRV) || r.int() !== CRV_ED25519 || !r.expect(X)) return false;
  return r.bytesOf()?.length === ED25519_KEY_BYTES;
}

function readEc2(r: CanonicalCbor): boolean {
  if (!r.expect(CRV)) return false;
  const crv = r.int();
  const spec = crv === null ? undefined : EC2_CURVES.get(crv);
  if (spec === undefined || !r.expect(X)) return false;
  const x = r.bytesOf();
  if (x === null || x.length !== spec.bytes || !r.expect(Y)) return false;
  // Compressed points (a boolean y) are not supported, as in Pact.
  const y = r.bytesOf();
  if (y === null || y.length !== spec.bytes) return false;
  try {
    spec.curve.Point.fromAffine({ x: toBigInt(x), y: toBigInt(y) }).assertValidity();
    return true;
  } catch {
    return false;
  }
}

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}
