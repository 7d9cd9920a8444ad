import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isEd25519HexKey, isValidKeyFormat, isWebAuthnKey } from "./key-format.ts";

const ED = "12440d374865bdf0a3349634a70d1317fc279e7e13db98f2199ac5e7378975ea";

// A COSE EdDSA key (kty OKP, alg -8, crv Ed25519, x): Pact's own WebAuthn test key.
const WEBAUTHN_ED25519 =
  "WEBAUTHN-a4010103272006215820c18831c6f15306d6271e154842906b68f26c1af79b132dde6f6add79710303bf";

// The P-256 public point of the secret key 0707…07.
const P256_X = "1e18532fd4754c02f3041d9c75ceb33b83ffd81ac7ce4fe882ccb1c98bc5896e";
const P256_Y = "a46c311c4e2ff40dd96a3653e6e45445d32dfe486eced75c7a90c6a18881c0a3";

/** A COSE ES256 key (kty EC2, alg -7, crv P-256, x, y) in canonical CBOR. */
function es256(x: string, y: string): string {
  return `WEBAUTHN-a5010203262001215820${x}225820${y}`;
}

describe("key formats", () => {
  it("accepts 64 lowercase hex digits as an ED25519 key", () => {
    assert.equal(isEd25519HexKey(ED), true);
    assert.equal(isEd25519HexKey(ED.toUpperCase()), false);
    assert.equal(isEd25519HexKey(ED.slice(2)), false);
    assert.equal(isEd25519HexKey(`${ED}ea`), false);
    assert.equal(isValidKeyFormat("foo"), false);
  });

  it("accepts a WebAuthn EdDSA key", () => {
    assert.equal(isWebAuthnKey(WEBAUTHN_ED25519), true);
    assert.equal(isValidKeyFormat(WEBAUTHN_ED25519), true);
  });

  it("accepts a WebAuthn ES256 key whose point is on the curve", () => {
    assert.equal(isWebAuthnKey(es256(P256_X, P256_Y)), true);
    const offCurve = `${P256_Y.slice(0, -1)}4`;
    assert.equal(isWebAuthnKey(es256(P256_X, offCurve)), false);
  });

  it("refuses keys without the prefix, in uppercase hex, or with trailing bytes", () => {
    assert.equal(isWebAuthnKey(WEBAUTHN_ED25519.slice("WEBAUTHN-".length)), false);
    assert.equal(isWebAuthnKey(`WEBAUTHN-${WEBAUTHN_ED25519.slice(9).toUpperCase()}`), false);
    assert.equal(isWebAuthnKey(`${WEBAUTHN_ED25519}00`), false);
    assert.equal(isWebAuthnKey(`${WEBAUTHN_ED25519}0`), false);
  });

  it("refuses other algorithms, mismatched key types and short key material", () => {
    // alg -35 (ES384) is a valid COSE algorithm but not one Pact allows.
    assert.equal(isWebAuthnKey(es256(P256_X, P256_Y).replace("0326", "033822")), false);
    // kty EC2 with the EdDSA algorithm.
    assert.equal(isWebAuthnKey(WEBAUTHN_ED25519.replace("a4010103", "a4010203")), false);
    // a 31-byte x coordinate.
    assert.equal(isWebAuthnKey(WEBAUTHN_ED25519.replace("215820c1", "21581f")), false);
  });

  it("refuses lengths not written in their shortest form", () => {
    // The map length 4 written with a one-byte length (0xb8 0x04).
    assert.equal(isWebAuthnKey(WEBAUTHN_ED25519.replace("WEBAUTHN-a4", "WEBAUTHN-b804")), false);
  });
});
