/**
 * COSE public keys (RFC 9052/9053) as WebAuthn authenticators hand them out and as Pact accepts
 * them: a canonical CBOR map signing with EdDSA (an Ed25519 key) or ES256 (ECDSA with SHA-256 on
 * a NIST curve, the point checked to be on it). Pact writes such a key in a keyset or a signer as
 * `WEBAUTHN-` and the key's lowercase hex.
 */
import { p256, p384, p521 } from "@noble/curves/nist.js";
import { PUBLIC_KEY_BYTES } from "./ed25519.ts";

/** The prefix of WebAuthn public keys in keysets and signers. */
export const WEBAUTHN_PREFIX = "WEBAUTHN-";

export type NistCurve = "P-256" | "P-384" | "P-521";

export type CoseKey =
  | { readonly alg: "EdDSA"; readonly publicKey: Uint8Array }
  | {
      readonly alg: "ES256";
      readonly curve: NistCurve;
      /** The point's coordinates, big-endian, each the curve's coordinate size. */
      readonly x: Uint8Array;
      readonly y: Uint8Array;
    };

export type CoseKeyParse =
  | { readonly ok: true; readonly key: CoseKey }
  | { readonly ok: false; readonly reason: string };

// COSE labels and values (the IANA COSE registries).
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
/** Entries of the map: kty, alg, crv, x, and y for EC2. */
const OKP_ENTRIES = 4n;
const EC2_ENTRIES = 5n;

/** NIST curves by COSE curve id, with their coordinate sizes in bytes. */
const EC2_CURVES: ReadonlyMap<bigint, { name: NistCurve; bytes: number; curve: typeof p256 }> =
  new Map([
    [1n, { name: "P-256", bytes: 32, curve: p256 }],
    [2n, { name: "P-384", bytes: 48, curve: p384 }],
    [3n, { name: "P-521", bytes: 66, curve: p521 }],
  ]);

/** Reads a COSE key in canonical CBOR; the reason names what is wrong when it is not one. */
export function parseCoseKey(bytes: Uint8Array): CoseKeyParse {
  const fail = (reason: string): CoseKeyParse => ({ ok: false, reason });
  const r = new CanonicalCbor(bytes);
  const entries = r.mapLength();
  if (entries === null) return fail("it is not a canonical CBOR map");
  if (!r.expect(KTY)) return fail("its first entry is not the key type (label 1)");
  const kty = r.int();
  if (!r.expect(ALG)) return fail("its second entry is not the algorithm (label 3)");
  const alg = r.int();
  let key: CoseKey | string;
  if (alg === ALG_EDDSA) {
    key =
      kty === KTY_OKP && entries === OKP_ENTRIES
        ? readEd25519(r)
        : "EdDSA needs an OKP key of 4 entries";
  } else if (alg === ALG_ES256) {
    key =
      kty === KTY_EC2 && entries === EC2_ENTRIES
        ? readEc2(r)
        : "ES256 needs an EC2 key of 5 entries";
  } else {
    return fail(`its algorithm ${alg ?? "(not an integer)"} is neither EdDSA (-8) nor ES256 (-7)`);
  }
  if (typeof key === "string") return fail(key);
  if (!r.done) return fail("bytes follow the key");
  return { ok: true, key };
}

function readEd25519(r: CanonicalCbor): CoseKey | string {
  if (!r.expect(CRV) || r.int() !== CRV_ED25519) return "its curve is not Ed25519 (6)";
  if (!r.expect(X)) return "its x coordinate (label -2) is missing";
  const x = r.bytesOf();
  if (x?.length !== PUBLIC_KEY_BYTES) return `its Ed25519 key is not ${PUBLIC_KEY_BYTES} bytes`;
  return { alg: "EdDSA", publicKey: x };
}

function readEc2(r: CanonicalCbor): CoseKey | string {
  if (!r.expect(CRV)) return "its curve (label -1) is missing";
  const crv = r.int();
  const spec = crv === null ? undefined : EC2_CURVES.get(crv);
  if (spec === undefined) return "its curve is not P-256 (1), P-384 (2) or P-521 (3)";
  if (!r.expect(X)) return "its x coordinate (label -2) is missing";
  const x = r.bytesOf();
  if (x?.length !== spec.bytes) return `its x coordinate is not ${spec.bytes} bytes`;
  if (!r.expect(Y)) return "its y coordinate (label -3) is missing";
  // Compressed points (a boolean y) are not supported, as in Pact.
  const y = r.bytesOf();
  if (y?.length !== spec.bytes) return `its y coordinate is not ${spec.bytes} bytes`;
  try {
    spec.curve.Point.fromAffine({ x: toBigInt(x), y: toBigInt(y) }).assertValidity();
  } catch {
    return `its point is not on ${spec.name}`;
  }
  return { alg: "ES256", curve: spec.name, x, y };
}

/** Reads canonical CBOR (shortest-form lengths, definite lengths only); null on anything else. */
class CanonicalCbor {
  private pos = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get done(): boolean {
    return this.pos === this.bytes.length;
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
    const b = this.bytes[this.pos];
    const major = b === undefined ? null : b >> 5;
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

function toBigInt(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return n;
}
