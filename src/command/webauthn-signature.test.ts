import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import { encodeHex, verifyCoseSignature } from "../crypto/index.ts";
import { SoftwareAuthenticator, signatureText } from "./test-support/authenticator.ts";
import {
  decodeWebAuthnAssertion,
  encodeWebAuthnSignature,
  readWebAuthnSignature,
  type WebAuthnSignature,
  webAuthnSignerKey,
} from "./webauthn-signature.ts";

const HASH = createHash("sha256").update("a command").digest();
const authenticator = new SoftwareAuthenticator();

function fields(text: string): WebAuthnSignature {
  const sig = readWebAuthnSignature(text);
  if (sig === undefined) assert.fail(`not read as a WebAuthn signature: ${text}`);
  return sig;
}

function failure(sig: WebAuthnSignature, hash: Uint8Array = HASH): string {
  const decoded = decodeWebAuthnAssertion(sig, hash);
  if (decoded.ok) assert.fail("decoded a bad signature");
  return decoded.reason;
}

const good = fields(signatureText(authenticator.assert(HASH)));

describe("reading a WebAuthn sig", () => {
  it("reads the JSON object text wallets send, ignoring other fields", () => {
    const sig = fields(
      ' {"signature":"MEU=","extra":1,"clientDataJSON":"e30","authenticatorData":"AA=="}',
    );
    assert.deepEqual(sig, { authenticatorData: "AA==", clientDataJSON: "e30", signature: "MEU=" });
    assert.equal(
      encodeWebAuthnSignature(sig),
      '{"authenticatorData":"AA==","clientDataJSON":"e30","signature":"MEU="}',
    );
  });

  it("reads nothing from hex, broken JSON, or an object missing a string field", () => {
    for (const text of [
      "ab".repeat(64),
      "{",
      "[]",
      '{"authenticatorData":"AA==","clientDataJSON":"e30"}',
      '{"authenticatorData":"AA==","clientDataJSON":"e30","signature":5}',
    ]) {
      assert.equal(readWebAuthnSignature(text), undefined, text);
    }
  });
});

describe("a WebAuthn signer's key", () => {
  it("is the hex of a COSE key, with or without WEBAUTHN-, in either case", () => {
    for (const pubKey of [
      authenticator.publicKey,
      authenticator.coseKeyHex,
      authenticator.coseKeyHex.toUpperCase(),
    ]) {
      assert.equal(webAuthnSignerKey(pubKey).ok, true, pubKey);
    }
  });

  it("names why another text is not one", () => {
    assert.deepEqual(webAuthnSignerKey("WEBAUTHN-xyz"), {
      ok: false,
      reason: "it is not hexadecimal",
    });
    assert.deepEqual(webAuthnSignerKey("WEBAUTHN-"), {
      ok: false,
      reason: "it is not a canonical CBOR map",
    });
  });
});

describe("decoding a WebAuthn assertion", () => {
  it("gives the bytes the authenticator signed and its DER signature", () => {
    const decoded = decodeWebAuthnAssertion(good, HASH);
    if (!decoded.ok) assert.fail(decoded.reason);
    const key = webAuthnSignerKey(authenticator.publicKey);
    if (!key.ok) assert.fail(key.reason);
    const { message, signature } = decoded.assertion;
    assert.equal(message.length, 37 + 32);
    assert.equal(
      encodeHex(message.subarray(0, 32)),
      createHash("sha256").update("wallet.example").digest("hex"),
    );
    assert.equal(signature[0], 0x30); // an ASN.1 SEQUENCE
    assert.equal(verifyCoseSignature(key.key, message, signature), true);
  });

  it("names authenticatorData when it is not padded standard base64", () => {
    assert.equal(
      failure({ ...good, authenticatorData: good.authenticatorData.replace(/=+$/, "") }),
      "authenticatorData: invalid base64: it must be the alphabet A-Z a-z 0-9 + / padded with = to a multiple of 4 characters",
    );
  });

  it("names clientDataJSON when it is not base64url", () => {
    assert.equal(
      failure({ ...good, clientDataJSON: `+${good.clientDataJSON.slice(1)}` }),
      'clientDataJSON: invalid base64url: character "+" is not in the alphabet A-Z a-z 0-9 - _',
    );
  });

  it("names signature when it is not padded standard base64", () => {
    assert.equal(
      failure({ ...good, signature: "MEU" }),
      "signature: invalid base64: it must be the alphabet A-Z a-z 0-9 + / padded with = to a multiple of 4 characters",
    );
  });

  it("names clientDataJSON when it holds no string challenge", () => {
    const expected = 'clientDataJSON: it is not a UTF-8 JSON object with a string "challenge"';
    for (const clientData of ['{"type":"webauthn.get"}', '{"challenge":7}', "[]", "\xff{}"]) {
      const encoded = Buffer.from(clientData, "latin1").toString("base64url");
      assert.equal(failure({ ...good, clientDataJSON: encoded }), expected, clientData);
    }
  });

  it("names clientDataJSON when its challenge is another command's hash", () => {
    const other = createHash("sha256").update("another command").digest();
    assert.equal(
      failure(good, other),
      `clientDataJSON: its challenge is not the command's hash "${other.toString("base64url")}", so it signs another command`,
    );
  });
});
