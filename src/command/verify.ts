/**
 * Validation of a contract command `{cmd, hash, sigs}` as received (the request body already read
 * with `JSON.parse`; `cmd` stays the raw string). Pure: the same input always gives the same result.
 *
 * Order of work, cheapest first, each done once: shape of the envelope, hash of the raw `cmd`
 * (the algorithm Braid emits first, then the other), the payload, then one ED25519 verification per
 * signer over the received hash bytes. Every problem is collected, so one response lists them all.
 */
import {
  decodeHex,
  encodeBase64Url,
  PUBLIC_KEY_BYTES,
  SIGNATURE_BYTES,
  verifyAsync,
  verify as verifyEd25519,
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
} from "./types.ts";

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
  return parseWith(body, options, (check) => verifyEd25519(check.message, check.sig, check.key));
}

/**
 * {@link parseCommand} with the signatures verified on the thread pool: the same result, but a
 * batch of commands no longer holds the event loop for every signature.
 */
export async function parseCommandAsync(
  body: unknown,
  options: VerifyOptions = {},
): Promise<CommandParseResult> {
  const checks: SignatureCheck[] = [];
  const parsed = parseWith(body, options, (check) => {
    checks.push(check);
    return true;
  });
  if (checks.length === 0) return parsed;
  const valid = await Promise.all(checks.map((c) => verifyAsync(c.message, c.sig, c.key)));
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
  readonly key: Uint8Array;
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
 * Fields other than `sig` (such as @kadena/client's `pubKey`) are ignored.
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
    else if (typeof sig === "string") out.push(sig);
    else {
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
    const sig = sigs[i];
    if (signer === undefined) continue;
    const who = `signer ${i} (${abbreviate(signer.pubKey)})`;
    if (signer.scheme === "WebAuthn") {
      fail("unsupported-scheme", `${who}: WebAuthn signatures are not supported`);
      continue;
    }
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
    if (sig === null || sig === undefined) {
      fail("missing-signature", `sigs[${i}]: missing signature for ${who}`);
      continue;
    }
    if (!HEX_SIGNATURE.test(sig)) {
      fail(
        "invalid-signature",
        `sigs[${i}].sig must be ${SIGNATURE_BYTES * 2} hex characters, got "${abbreviate(sig)}"`,
      );
      continue;
    }
    if (!keyOk || hashBytes === undefined) continue;
    const failure = `sigs[${i}]: invalid signature for ${who}`;
    const valid = verifySignature({
      message: hashBytes,
      sig: decodeHex(sig, SIGNATURE_BYTES),
      key: decodeHex(signer.pubKey, PUBLIC_KEY_BYTES),
      failure,
    });
    if (!valid) fail("invalid-signature", failure);
  }
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
