/**
 * Unpadded base64url, the encoding of every hash, key and payload on the Chainweb wire.
 * The decoder also accepts `=` padding (as Chainweb's does) but rejects the standard
 * alphabet's `+` and `/` and any other character, so a mistyped hash is reported, not guessed.
 * Also standard padded base64 (RFC 4648 §4), which WebAuthn signatures carry in two fields.
 */

const BASE64URL_BODY = /^[A-Za-z0-9_-]*$/;
const BASE64_PADDED = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export class Base64UrlError extends Error {
  override name = "Base64UrlError";
}

export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

export function decodeBase64Url(text: string): Uint8Array {
  const body = stripPadding(text);
  if (!BASE64URL_BODY.test(body)) {
    const bad = [...body].find((c) => !BASE64URL_BODY.test(c));
    throw new Base64UrlError(
      `invalid base64url: character ${JSON.stringify(bad)} is not in the alphabet A-Z a-z 0-9 - _`,
    );
  }
  if (body.length % 4 === 1) {
    throw new Base64UrlError(`invalid base64url: length ${body.length} cannot encode whole bytes`);
  }
  const bytes = Buffer.from(body, "base64url");
  // Reject non-canonical encodings (unused low bits set), so every byte string has one text form.
  if (bytes.toString("base64url") !== body) {
    throw new Base64UrlError("invalid base64url: trailing bits are not zero");
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Standard base64 with its `=` padding, as Pact's WebAuthn verification reads it: the alphabet
 * with `+` and `/`, the length a multiple of 4, and unused low bits zero.
 */
export function decodeBase64(text: string): Uint8Array {
  if (!BASE64_PADDED.test(text)) {
    throw new Base64UrlError(
      "invalid base64: it must be the alphabet A-Z a-z 0-9 + / padded with = to a multiple of 4 characters",
    );
  }
  const bytes = Buffer.from(text, "base64");
  if (bytes.toString("base64") !== text) {
    throw new Base64UrlError("invalid base64: trailing bits are not zero");
  }
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function stripPadding(text: string): string {
  const padStart = text.indexOf("=");
  if (padStart === -1) return text;
  const body = text.slice(0, padStart);
  const padding = text.slice(padStart);
  if (!/^={1,2}$/.test(padding) || (body.length + padding.length) % 4 !== 0) {
    throw new Base64UrlError("invalid base64url: malformed '=' padding");
  }
  return body;
}
