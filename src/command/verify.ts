/**
 * Validation of a contract command `{cmd, hash, sigs}` as received (the request body already read
 * with `JSON.parse`; `cmd` stays the raw string). Pure: the same input always gives the same result.
 *
 * Order of work, cheapest first, each done once: shape of the envelope, hash of the raw `cmd`
 * (the algorithm Braid emits first, then the other), the payload, then one verification per signer:
 * ED25519 over the received hash bytes, or for a `WebAuthn` signer its authenticator's signature
 * whose challenge is the hash (`webauthn-signature.ts`). Every problem is collected, so one
 * response lists them all.
 */
import {
  type CoseKey,
  decodeHex,
  encodeBase64Url,
  PUBLIC_KEY_BYTES,
  SIGNATURE_BYTES,
  verifyAsync,
  verifyCoseSignature,
  verifyCoseSignatureAsync,
  verify as verifyEd25519,
  WEBAUTHN_PREFIX,
} from "../crypto/index.ts";
import {
  COMMAND_HASH_NAMES,
  type CommandHashAlgorithm,
  commandHash,
  DEFAULT_COMMAND_HASH,
} from "./hash-algorithm.ts";
import { parseCommandPayload } from "./payload.ts";
import { parseRequestKey, REQUEST_KEY_FORM } from "./request-key.ts";
import type {
  CommandParseResult,
  CommandPayload,
  CommandProblem,
  CommandProblemKind,
  ParsedCommand,
  Signer,
} from "./types.ts";
import {
  decodeWebAuthnAssertion,
  encodeWebAuthnSignature,
  readWebAuthnSignature,
  webAuthnSignerKey,
} from "./webauthn-signature.ts";

export interface VerifyOptions {
  /**
   * Check one valid signature per signer (the default). When false (a `local` call with
   * `signatureVerification=false`), slots may be empty (`null`, `{"sig":""}`), no signature is
   * checked and the number of entries is not compared with the signers.
   */
  readonly verifySignatures?: boolean;
}

const HEX_PUBLIC_KEY = new RegExp(`^[0-9a-fA-F]{${PUBLIC_KEY_BYTES * 2}}$`);
const HEX_SIGNATURE = new RegExp(`^[0-9a-fA-F]{${SIGNATURE_BYTES * 2}}$`);
const OTHER_ALGORITHM: Readonly<Record<CommandHashAlgorithm, CommandHashAlgorithm>> = {
  blake2s: "blake2b",
  blake2b: "blake2s",
};

/** Parses and verifies a command; returns it, or every problem found. */
export function parseCommand(body: unknown, options: VerifyOptions = {}): CommandParseResult {
  return parseWith(body, options, (check) =>
    check.key instanceof Uint8Array
      ? verifyEd25519(check.message, check.sig, check.key)
      : verifyCoseSignature(check.key, check.message, check.sig),
  );
}

/**
 * {@link parseCommand} with the signatures verified on the thread pool: the same result, but a
 * batch of commands no longer holds the event loop for every signature.
 */
export function parseCommandAsync(
  body: unknown,
  options: VerifyOptions = {},
): Promise<CommandParseResult> {
  return parseCommandAhead(body, options).result;
}

/** A command parsed now whose signatures are still being verified ({@link parseCommandAhead}). */
export interface CommandParsedAhead {
  /** The command as parsed, its signatures not yet known good; null when it does not parse. */
  readonly parsed: ParsedCommand | null;
  /** {@link parseCommandAsync}'s result: `parsed` itself when its signatures are good. */
  readonly result: Promise<CommandParseResult>;
}

/**
 * Parses a command now and verifies its signatures on the thread pool, so that the caller can
 * check what does not depend on them (the mempool buys its gas) while they are verified.
 */
export function parseCommandAhead(body: unknown, options: VerifyOptions = {}): CommandParsedAhead {
  const checks: SignatureCheck[] = [];
  const parsed = parseWith(body, options, (check) => {
    checks.push(check);
    return true;
  });
  return {
    parsed: parsed.ok ? parsed.command : null,
    result: checks.length === 0 ? Promise.resolve(parsed) : withSignatures(parsed, checks),
  };
}

/** `parsed`, or its problems with those of the signatures that are not valid. */
async function withSignatures(
  parsed: CommandParseResult,
  checks: readonly SignatureCheck[],
): Promise<CommandParseResult> {
  const valid = await Promise.all(
    checks.map((c) =>
      c.key instanceof Uint8Array
        ? verifyAsync(c.message, c.sig, c.key)
        : verifyCoseSignatureAsync(c.key, c.message, c.sig),
    ),
  );
  const problems: CommandProblem[] = parsed.ok ? [] : [...parsed.problems];
  checks.forEach((check, i) => {
    if (!valid[i]) problems.push({ kind: "invalid-signature", message: check.failure });
  });
  return problems.length > 0 ? { ok: false, problems } : parsed;
}

/** One signature to verify, and the problem to report when it is invalid. */
interface SignatureCheck {
  readonly message: Uint8Array;
  readonly sig: Uint8Array;
  /** A raw ED25519 public key, or a WebAuthn signer's COSE key. */
  readonly key: Uint8Array | CoseKey;
  readonly failure: string;
}

function parseWith(
  body: unknown,
  options: VerifyOptions,
  verifySignature: (check: SignatureCheck) => boolean,
): CommandParseResult {
  const verifySignatures = options.verifySignatures ?? true;
  const problems: CommandProblem[] = [];
  const fail = (kind: CommandProblemKind, message: string) => problems.push({ kind, message });

  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    fail("not-an-object", `a command must be a JSON object {cmd, hash, sigs}, got ${typeOf(body)}`);
    return { ok: false, problems };
  }
  const { cmd, hash, sigs } = body as Record<string, unknown>;
  for (const [name, value, type] of [
    ["cmd", cmd, "string"],
    ["hash", hash, "string"],
    ["sigs", sigs, "array"],
  ] as const) {
    if (value === undefined) fail("missing-field", `the command is missing the field "${name}"`);
    else if (type === "array" ? !Array.isArray(value) : typeof value !== type) {
      fail(
        "wrong-type",
        `the command's "${name}" must be ${type === "array" ? "an array" : "a string"}, got ${typeOf(value)}`,
      );
    }
  }

  const hashBytes = typeof hash === "string" ? decodeHash(hash, fail) : undefined;
  let hashAlgorithm: CommandHashAlgorithm | undefined;
  if (typeof cmd === "string" && hashBytes !== undefined) {
    hashAlgorithm = matchingAlgorithm(cmd, hashBytes);
    if (hashAlgorithm === undefined) {
      const computed = (alg: CommandHashAlgorithm) =>
        `"${encodeBase64Url(commandHash(cmd, alg))}" with ${COMMAND_HASH_NAMES[alg]}`;
      fail(
        "hash-mismatch",
        `hash mismatch: received "${hash}", but cmd hashes to ${computed(DEFAULT_COMMAND_HASH)} and ${computed(OTHER_ALGORITHM[DEFAULT_COMMAND_HASH])}`,
      );
    }
  }

  const payload = typeof cmd === "string" ? parseCommandPayload(cmd, problems) : undefined;
  const sigTexts = Array.isArray(sigs) ? readSigs(sigs, fail) : undefined;

  if (payload !== undefined && sigTexts !== undefined && verifySignatures) {
    checkSignatures(payload, sigTexts, hashBytes, fail, verifySignature);
  }

  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    command: {
      cmd: cmd as string,
      hash: hash as string,
      hashBytes: hashBytes as Uint8Array,
      hashAlgorithm: hashAlgorithm as CommandHashAlgorithm,
      sigs: sigTexts as (string | null)[],
      payload: payload as CommandPayload,
    },
  };
}

/** Which algorithm, if either, turns `cmd` into `hashBytes`. */
export function matchingAlgorithm(
  cmd: string,
  hashBytes: Uint8Array,
): CommandHashAlgorithm | undefined {
  if (bytesEqual(commandHash(cmd, DEFAULT_COMMAND_HASH), hashBytes)) return DEFAULT_COMMAND_HASH;
  const other = OTHER_ALGORITHM[DEFAULT_COMMAND_HASH];
  if (bytesEqual(commandHash(cmd, other), hashBytes)) return other;
  return undefined;
}

type Fail = (kind: CommandProblemKind, message: string) => void;

function decodeHash(hash: string, fail: Fail): Uint8Array | undefined {
  const parsed = parseRequestKey(hash);
  if (parsed.ok) return parsed.bytes;
  fail("bad-hash", `hash "${abbreviate(hash)}" must be ${REQUEST_KEY_FORM}, but ${parsed.reason}`);
  return undefined;
}

/**
 * The signature text of each entry; `null` for an empty slot (`null`, `{}`, `{"sig":null}` or
 * `{"sig":""}`), which `checkSignatures` reports as missing when signatures are verified.
 * Fields other than `sig` (such as @kadena/client's `pubKey`) are ignored. A WebAuthn signature
 * is kept in the form Pact writes it back, so a block holds the same bytes as Chainweb's.
 */
function readSigs(sigs: readonly unknown[], fail: Fail): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  let ok = true;
  for (let i = 0; i < sigs.length; i++) {
    const entry = sigs[i];
    if (entry === null) {
      out.push(null);
      continue;
    }
    if (typeof entry !== "object" || Array.isArray(entry)) {
      fail("wrong-type", `sigs[${i}] must be an object {"sig": "<hex>"}, got ${typeOf(entry)}`);
      ok = false;
      continue;
    }
    const sig = (entry as { sig?: unknown }).sig;
    if (sig === undefined || sig === null || sig === "") out.push(null);
    else if (typeof sig === "string") {
      const webAuthnSig = readWebAuthnSignature(sig);
      out.push(webAuthnSig === undefined ? sig : encodeWebAuthnSignature(webAuthnSig));
    } else {
      fail("wrong-type", `sigs[${i}].sig must be a string, got ${typeOf(sig)}`);
      ok = false;
    }
  }
  return ok ? out : undefined;
}

function checkSignatures(
  payload: CommandPayload,
  sigs: readonly (string | null)[],
  hashBytes: Uint8Array | undefined,
  fail: Fail,
  verifySignature: (check: SignatureCheck) => boolean,
): void {
  const { signers } = payload;
  if (sigs.length !== signers.length) {
    fail(
      "signature-count",
      `wrong number of signatures: cmd has ${signers.length} signer(s) but sigs has ${sigs.length} entr${sigs.length === 1 ? "y" : "ies"}`,
    );
    return;
  }
  for (let i = 0; i < signers.length; i++) {
    const signer = signers[i];
    if (signer === undefined) continue;
    const sig = sigs[i] ?? null;
    const check =
      signer.scheme === "WebAuthn"
        ? webAuthnCheck(i, signer, sig, hashBytes, fail)
        : ed25519Check(i, signer, sig, hashBytes, fail);
    if (check !== undefined && !verifySignature(check)) fail("invalid-signature", check.failure);
  }
}

function signerName(i: number, signer: Signer): string {
  return `signer ${i} (${abbreviate(signer.pubKey)})`;
}

/** The ED25519 signature to verify for signer `i`, after reporting what is malformed. */
function ed25519Check(
  i: number,
  signer: Signer,
  sig: string | null,
  hashBytes: Uint8Array | undefined,
  fail: Fail,
): SignatureCheck | undefined {
  let keyOk = true;
  if (!HEX_PUBLIC_KEY.test(signer.pubKey)) {
    fail(
      "bad-public-key",
      `cmd.signers[${i}].pubKey must be ${PUBLIC_KEY_BYTES * 2} hex characters, got "${abbreviate(signer.pubKey)}"`,
    );
    keyOk = false;
  }
  if (signer.addr !== null && signer.addr !== signer.pubKey) {
    fail(
      "bad-public-key",
      `cmd.signers[${i}].addr "${abbreviate(signer.addr)}" does not match its pubKey`,
    );
  }
  if (sig === null) {
    fail("missing-signature", `sigs[${i}]: missing signature for ${signerName(i, signer)}`);
    return undefined;
  }
  if (!HEX_SIGNATURE.test(sig)) {
    fail(
      "invalid-signature",
      `sigs[${i}].sig must be ${SIGNATURE_BYTES * 2} hex characters, got "${abbreviate(sig)}"`,
    );
    return undefined;
  }
  if (!keyOk || hashBytes === undefined) return undefined;
  return {
    message: hashBytes,
    sig: decodeHex(sig, SIGNATURE_BYTES),
    key: decodeHex(signer.pubKey, PUBLIC_KEY_BYTES),
    failure: `sigs[${i}]: invalid signature for ${signerName(i, signer)}`,
  };
}

/**
 * The WebAuthn assertion to verify for signer `i`, after reporting what is malformed. As in Pact,
 * a WebAuthn signer's `addr` is not compared with its key.
 */
function webAuthnCheck(
  i: number,
  signer: Signer,
  sig: string | null,
  hashBytes: Uint8Array | undefined,
  fail: Fail,
): SignatureCheck | undefined {
  const key = webAuthnSignerKey(signer.pubKey);
  if (!key.ok) {
    fail(
      "bad-public-key",
      `cmd.signers[${i}].pubKey "${abbreviate(signer.pubKey)}" is not a WebAuthn public key (the hex of a COSE key, after an optional "${WEBAUTHN_PREFIX}"): ${key.reason}`,
    );
  }
  if (sig === null) {
    fail("missing-signature", `sigs[${i}]: missing signature for ${signerName(i, signer)}`);
    return undefined;
  }
  const webAuthnSig = readWebAuthnSignature(sig);
  if (webAuthnSig === undefined) {
    fail(
      "invalid-signature",
      `sigs[${i}].sig must be a WebAuthn signature for ${signerName(i, signer)}: the text of a JSON object with the string fields "authenticatorData", "clientDataJSON" and "signature", got "${abbreviate(sig)}"`,
    );
    return undefined;
  }
  if (hashBytes === undefined) return undefined;
  const decoded = decodeWebAuthnAssertion(webAuthnSig, hashBytes);
  if (!decoded.ok) {
    fail("invalid-signature", `sigs[${i}].sig.${decoded.reason}`);
    return undefined;
  }
  if (!key.ok) return undefined;
  return {
    message: decoded.assertion.message,
    sig: decoded.assertion.signature,
    key: key.key,
    failure: `sigs[${i}]: invalid WebAuthn signature for ${signerName(i, signer)}: the authenticator's signature does not verify with its key`,
  };
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string "${abbreviate(value)}"`;
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

function abbreviate(text: string): string {
  return text.length > 70 ? `${text.slice(0, 67)}...` : text;
}
