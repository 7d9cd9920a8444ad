/**
 * The public key formats Pact accepts when the flag `EnforceKeyFormats` is set (Pact's
 * `isValidKeyFormat`): an ED25519 key as 64 lowercase hex digits, or a WebAuthn key —
 * `WEBAUTHN-` and the lowercase hex of a COSE public key (`src/crypto/cose-key.ts`).
 */
import { parseCoseKey, WEBAUTHN_PREFIX } from "../../crypto/index.ts";

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
  return parseCoseKey(Buffer.from(hex, "hex")).ok;
}
