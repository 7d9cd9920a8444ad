/**
 * The one text form of a request key (a command's hash): unpadded base64url of exactly
 * {@link COMMAND_HASH_BYTES} bytes, 43 characters from `A-Z a-z 0-9 _ -` whose unused low bits are
 * zero. Every byte string has exactly one such text, so keys compare as strings: the command
 * parser, the endpoints, the result store and the mempool all refuse any other form (padding with
 * `=`, other lengths, set trailing bits) instead of decoding it leniently.
 */
import { Base64UrlError, decodeBase64Url } from "../crypto/index.ts";
import { COMMAND_HASH_BYTES } from "./hash-algorithm.ts";

/** Characters of a request key: 32 bytes in unpadded base64url. */
export const REQUEST_KEY_CHARS = 43;

/** 43 characters of the base64url alphabet (the trailing bits are checked separately). */
export const REQUEST_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What a request key must be, for messages. */
export const REQUEST_KEY_FORM = "43 characters of unpadded base64url encoding 32 bytes";

export type RequestKeyParse =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string };

/**
 * Reads a request key in its canonical form only; otherwise says why not (without quoting the
 * text, which may be large).
 */
export function parseRequestKey(text: string): RequestKeyParse {
  if (text.includes("=")) {
    return { ok: false, reason: "it is padded with '=' (request keys are unpadded base64url)" };
  }
  if (!/^[A-Za-z0-9_-]*$/.test(text)) {
    return { ok: false, reason: "it has characters outside A-Z, a-z, 0-9, _ and -" };
  }
  if (text.length !== REQUEST_KEY_CHARS) {
    return { ok: false, reason: `it has ${text.length} characters, not ${REQUEST_KEY_CHARS}` };
  }
  try {
    const bytes = decodeBase64Url(text);
    if (bytes.length === COMMAND_HASH_BYTES) return { ok: true, bytes };
    return { ok: false, reason: `it encodes ${bytes.length} bytes, not ${COMMAND_HASH_BYTES}` };
  } catch (e) {
    if (!(e instanceof Base64UrlError)) throw e;
    return { ok: false, reason: e.message.replace(/^invalid base64url: /, "") };
  }
}

/** Whether `text` is a request key in its canonical form. */
export function isRequestKey(text: string): boolean {
  return parseRequestKey(text).ok;
}
