/**
 * WebAuthn signers of a command, read as Pact reads them (passkeys, @kadena/client's `WebAuthn`
 * scheme). The signer's `pubKey` is the hex of the credential's COSE key, after an optional
 * `WEBAUTHN-` (older wallets sent it bare). The signature slot's `sig` is the text of a JSON
 * object with three strings: `authenticatorData` and `signature` in padded standard base64, and
 * `clientDataJSON` in base64url — the browser's client data, whose `challenge` must be the
 * command's hash in unpadded base64url. What is signed is `src/crypto/webauthn.ts`'s concern.
 */
import {
  type CoseKeyParse,
  decodeBase64,
  decodeBase64Url,
  decodeHex,
  encodeBase64Url,
  parseCoseKey,
  WEBAUTHN_PREFIX,
  webAuthnSignedBytes,
} from "../crypto/index.ts";

/** The three fields of a WebAuthn signature, as text. */
export interface WebAuthnSignature {
  readonly authenticatorData: string;
  readonly clientDataJSON: string;
  readonly signature: string;
}

/** What a WebAuthn signature checks: the bytes signed and the signature over them. */
export interface WebAuthnAssertion {
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
}

const FIELDS = ["authenticatorData", "clientDataJSON", "signature"] as const;
const JSON_OBJECT_TEXT = /^\s*\{/;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The signature a `sig` text holds when it is a JSON object with the three string fields (other
 * fields are ignored, as in Pact); undefined for any other text, such as an ED25519 hex signature.
 */
export function readWebAuthnSignature(sig: string): WebAuthnSignature | undefined {
  if (!JSON_OBJECT_TEXT.test(sig)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(sig);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
  const fields = parsed as Record<string, unknown>;
  const [authenticatorData, clientDataJSON, signature] = FIELDS.map((name) => fields[name]);
  if (
    typeof authenticatorData !== "string" ||
    typeof clientDataJSON !== "string" ||
    typeof signature !== "string"
  ) {
    return undefined;
  }
  return { authenticatorData, clientDataJSON, signature };
}

/**
 * The signature as Pact writes it back (in a block's transactions): the three fields in this
 * order, nothing else, no spaces.
 */
export function encodeWebAuthnSignature(sig: WebAuthnSignature): string {
  return `{${FIELDS.map((name) => `${JSON.stringify(name)}:${JSON.stringify(sig[name])}`).join(",")}}`;
}

/** The COSE key of a WebAuthn signer's `pubKey`: hex (either case), `WEBAUTHN-` optional. */
export function webAuthnSignerKey(pubKey: string): CoseKeyParse {
  const hex = pubKey.startsWith(WEBAUTHN_PREFIX) ? pubKey.slice(WEBAUTHN_PREFIX.length) : pubKey;
  let bytes: Uint8Array;
  try {
    bytes = decodeHex(hex);
  } catch {
    return { ok: false, reason: "it is not hexadecimal" };
  }
  return parseCoseKey(bytes);
}

/**
 * Decodes the signature's fields and checks that its challenge is `hash`. The reason of a
 * failure starts with the field at fault (`authenticatorData`, `clientDataJSON`, `signature`).
 */
export function decodeWebAuthnAssertion(
  sig: WebAuthnSignature,
  hash: Uint8Array,
): { ok: true; assertion: WebAuthnAssertion } | { ok: false; reason: string } {
  const fail = (reason: string) => ({ ok: false as const, reason });
  let authenticatorData: Uint8Array;
  let clientData: Uint8Array;
  let signature: Uint8Array;
  try {
    authenticatorData = decodeBase64(sig.authenticatorData);
  } catch (e) {
    return fail(`authenticatorData: ${(e as Error).message}`);
  }
  try {
    clientData = decodeBase64Url(sig.clientDataJSON);
  } catch (e) {
    return fail(`clientDataJSON: ${(e as Error).message}`);
  }
  try {
    signature = decodeBase64(sig.signature);
  } catch (e) {
    return fail(`signature: ${(e as Error).message}`);
  }
  const challenge = clientDataChallenge(clientData);
  if (challenge === undefined) {
    return fail('clientDataJSON: it is not a UTF-8 JSON object with a string "challenge"');
  }
  const expected = encodeBase64Url(hash);
  if (challenge !== expected) {
    return fail(
      `clientDataJSON: its challenge is not the command's hash "${expected}", so it signs another command`,
    );
  }
  return {
    ok: true,
    assertion: { message: webAuthnSignedBytes(authenticatorData, clientData), signature },
  };
}

function clientDataChallenge(clientData: Uint8Array): string | undefined {
  try {
    const parsed: unknown = JSON.parse(strictUtf8.decode(clientData));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const { challenge } = parsed as { challenge?: unknown };
    return typeof challenge === "string" ? challenge : undefined;
  } catch {
    return undefined;
  }
}
