import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { SoftwareAuthenticator } from "../command/test-support/authenticator.ts";
import {
  type CoseKey,
  decodeHex,
  encodeHex,
  parseCoseKey,
  verifyCoseSignature,
  verifyCoseSignatureAsync,
  webAuthnSignedBytes,
} from "./index.ts";

// The P-256 public point of the secret key 0707…07.
const P256_X = "1e18532fd4754c02f3041d9c75ceb33b83ffd81ac7ce4fe882ccb1c98bc5896e";
const P256_Y = "a46c311c4e2ff40dd96a3653e6e45445d32dfe486eced75c7a90c6a18881c0a3";
const ES256_KEY = `a5010203262001215820${P256_X}225820${P256_Y}`;
const EDDSA_KEY =
  "a4010103272006215820c18831c6f15306d6271e154842906b68f26c1af79b132dde6f6add79710303bf";

const HASH = createHash("sha256").update("a command").digest();

function coseKey(hex: string): CoseKey {
  const parsed = parseCoseKey(decodeHex(hex));
  if (!parsed.ok) assert.fail(parsed.reason);
  return parsed.key;
}

function reason(hex: string): string {
  const parsed = parseCoseKey(decodeHex(hex));
  if (parsed.ok) assert.fail("parsed a bad key");
  return parsed.reason;
}

/** The signed bytes and the key of a fresh assertion over `HASH`. */
function assertion(algorithm: "ES256" | "EdDSA") {
  const authenticator = new SoftwareAuthenticator(algorithm);
  const { authenticatorData, clientDataJSON, signature } = authenticator.assert(HASH);
  return {
    key: coseKey(authenticator.coseKeyHex),
    message: webAuthnSignedBytes(authenticatorData, clientDataJSON),
    signature,
  };
}

describe("COSE public keys", () => {
  it("reads an ES256 key on P-256 and an EdDSA key", () => {
    const es256 = coseKey(ES256_KEY);
    assert.equal(es256.alg, "ES256");
    if (es256.alg !== "ES256") return;
    assert.equal(es256.curve, "P-256");
    assert.equal(encodeHex(es256.x), P256_X);
    assert.equal(encodeHex(es256.y), P256_Y);
    const eddsa = coseKey(EDDSA_KEY);
    assert.equal(eddsa.alg, "EdDSA");
    if (eddsa.alg !== "EdDSA") return;
    assert.equal(encodeHex(eddsa.publicKey), EDDSA_KEY.slice(-64));
  });

  it("names what is wrong with a key that is not one Pact accepts", () => {
    assert.equal(reason("80"), "it is not a canonical CBOR map");
    assert.equal(reason("a1"), "its first entry is not the key type (label 1)");
    assert.equal(reason("a5010204"), "its second entry is not the algorithm (label 3)");
    assert.equal(
      reason("a5010203"),
      "its algorithm (not an integer) is neither EdDSA (-8) nor ES256 (-7)",
    );
    assert.equal(
      reason(ES256_KEY.replace("0326", "033822")),
      "its algorithm -35 is neither EdDSA (-8) nor ES256 (-7)",
    );
    assert.equal(
      reason(ES256_KEY.replace("a50102", "a50101")),
      "ES256 needs an EC2 key of 5 entries",
    );
    assert.equal(
      reason(EDDSA_KEY.replace("a40101", "a50101")),
      "EdDSA needs an OKP key of 4 entries",
    );
    assert.equal(
      reason(ES256_KEY.replace("200121", "200421")),
      "its curve is not P-256 (1), P-384 (2) or P-521 (3)",
    );
    assert.equal(
      reason(ES256_KEY.replace("215820", "21581f").slice(0, -2)),
      "its x coordinate is not 32 bytes",
    );
    assert.equal(reason(ES256_KEY.slice(0, -2)), "its y coordinate is not 32 bytes");
    assert.equal(reason(`${ES256_KEY.slice(0, -2)}a4`), "its point is not on P-256");
    assert.equal(reason(`${ES256_KEY}00`), "bytes follow the key");
    assert.equal(reason(EDDSA_KEY.replace("2006", "2001")), "its curve is not Ed25519 (6)");
  });
});

describe("WebAuthn signatures", () => {
  it("signs authenticatorData followed by the SHA-256 of clientDataJSON", () => {
    assert.equal(
      encodeHex(webAuthnSignedBytes(new Uint8Array([1, 2]), new TextEncoder().encode("{}"))),
      `0102${createHash("sha256").update("{}").digest("hex")}`,
    );
  });

  for (const algorithm of ["ES256", "EdDSA"] as const) {
    it(`verifies an ${algorithm} assertion, on the event loop and on the thread pool`, async () => {
      const { key, message, signature } = assertion(algorithm);
      assert.equal(verifyCoseSignature(key, message, signature), true);
      assert.equal(await verifyCoseSignatureAsync(key, message, signature), true);
      const changed = Uint8Array.from(message);
      changed[0]! ^= 1;
      assert.equal(verifyCoseSignature(key, changed, signature), false);
      assert.equal(await verifyCoseSignatureAsync(key, changed, signature), false);
    });
  }

  it("refuses an ES256 signature that is not ASN.1 DER, without throwing", async () => {
    const { key, message, signature } = assertion("ES256");
    const notDer = [new Uint8Array(64), signature.subarray(0, 10), new Uint8Array()];
    for (const bad of [...notDer, Uint8Array.from([...signature, 0])]) {
      assert.equal(verifyCoseSignature(key, message, bad), false);
      assert.equal(await verifyCoseSignatureAsync(key, message, bad), false);
    }
  });

  it("refuses a signature made with another credential", () => {
    const one = assertion("ES256");
    const other = assertion("ES256");
    assert.equal(verifyCoseSignature(other.key, one.message, one.signature), false);
  });
});
