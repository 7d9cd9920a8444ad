/**
 * ED25519 keys as people write them: 64 hex characters each, in a key file (`public:` and `secret:`
 * lines, what `braid -g` prints) or in a request's `keyPairs`. A public key given next to a secret
 * must be the one the secret derives.
 */
import {
  decodeHex,
  encodeHex,
  HexError,
  type KeyPair,
  keyPairFromSeed,
  PUBLIC_KEY_BYTES,
  SECRET_KEY_BYTES,
} from "../crypto/index.ts";
import { CommandInputError } from "./errors.ts";
import { parseYaml, YamlFields } from "./yaml-input.ts";

export interface SigningKey extends KeyPair {
  /** Lowercase hex of the public key, as it appears in `signers` and `sigs` maps. */
  readonly publicHex: string;
}

export const KEY_FILE_KEYS = ["public", "secret"] as const;

/** `public: <hex>` and `secret: <hex>`, two lines of valid YAML. */
export function formatKeyPair(pair: KeyPair): string {
  return `public: ${encodeHex(pair.publicKey)}\nsecret: ${encodeHex(pair.secretKey)}\n`;
}

/** Reads a key file's text; `source` names it in errors. */
export function parseKeyFile(text: string, source: string): SigningKey {
  const fields = YamlFields.of(parseYaml(text, source), source, "", "public and secret keys");
  fields.onlyKeys(KEY_FILE_KEYS, "a key file");
  return signingKey(
    fields.optionalText("public"),
    fields.optionalText("secret") ?? fields.missing("secret"),
    source,
    "",
  );
}

/**
 * The key pair of a hex secret, checked against the hex public key when one is given.
 * `where` names the entry in messages (e.g. `keyPairs[0]`), "" for a key file.
 */
export function signingKey(
  publicHex: string | undefined,
  secretHex: string,
  source: string,
  where: string,
): SigningKey {
  const at = where === "" ? "" : `${where}.`;
  const secret = hexKey(secretHex, SECRET_KEY_BYTES, `${at}secret`, source);
  const pair = keyPairFromSeed(secret);
  const derived = encodeHex(pair.publicKey);
  if (publicHex !== undefined) {
    const given = publicKeyHex(publicHex, source, where);
    if (given !== derived) {
      throw new CommandInputError(
        `${source}: ${at}public ${publicHex} does not match the secret key, whose public key is ${derived}`,
      );
    }
  }
  return { ...pair, publicHex: derived };
}

/** A hex public key, checked and in lowercase (as `signers` and `sigs` maps hold it). */
export function publicKeyHex(text: string, source: string, where: string): string {
  const at = where === "" ? "" : `${where}.`;
  return encodeHex(hexKey(text, PUBLIC_KEY_BYTES, `${at}public`, source));
}

function hexKey(text: string, bytes: number, what: string, source: string): Uint8Array {
  try {
    return decodeHex(text, bytes, what);
  } catch (err) {
    if (err instanceof HexError) throw new CommandInputError(`${source}: ${err.message}`);
    throw err;
  }
}
