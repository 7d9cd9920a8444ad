/**
 * Signing data (Pact's `SigData`): a command hash, the signers' public keys each with a signature
 * or null, and optionally the `cmd` itself. It lets a command be built once (`braid -u`), signed by
 * several people or a cold wallet (`braid add-sig`, `braid sign`), merged (`braid combine-sigs`),
 * and turned into a command once every signature is in.
 *
 * YAML form: `hash: <base64url>`, `sigs: {<64-hex public key>: <128-hex signature> | null}`,
 * `cmd: '<json>'` (absent or null when the data travels without it). JSON form (what `braid -u`
 * prints, Pact's `SigData` JSON): `{"hash": …, "sigs": {…}, "cmd": "<json>"}`, the same fields;
 * JSON is YAML, so one reader takes both.
 */
import { stringify } from "yaml";
import {
  Base64UrlError,
  decodeBase64Url,
  decodeHex,
  encodeHex,
  PUBLIC_KEY_BYTES,
  SIGNATURE_BYTES,
  sign,
  verify,
} from "../crypto/index.ts";
import { JsonNumber } from "../pact/values/json-text.ts";
import { CommandInputError } from "./errors.ts";
import { COMMAND_HASH_BYTES } from "./hash-algorithm.ts";
import { isJsonObject } from "./json-shape.ts";
import type { SigningKey } from "./key-file.ts";
import { parseCommandPayload } from "./payload.ts";
import type { CommandJson, CommandProblem, Signer } from "./types.ts";
import { matchingAlgorithm, parseCommand } from "./verify.ts";
import { parseYaml, YamlFields, YamlNumber } from "./yaml-input.ts";

export interface SigData {
  readonly hash: string;
  /** One entry per public key, in the order of the signers in `cmd` when it was made by `-u`. */
  readonly sigs: readonly SigDataEntry[];
  readonly cmd: string | null;
}

export interface SigDataEntry {
  readonly pubKey: string;
  /** Lowercase hex of the ED25519 signature of the hash, or `null` while unsigned. */
  readonly sig: string | null;
}

export type SigDataOutcome =
  /** Some signatures are missing; those present are valid. */
  | { readonly kind: "partial"; readonly sigData: SigData }
  /** Every signature is present and the command verifies. */
  | { readonly kind: "complete"; readonly command: CommandJson }
  | { readonly kind: "invalid"; readonly problems: readonly string[] };

export const SIG_DATA_KEYS = ["hash", "sigs", "cmd"] as const;

const HEX_PUBLIC_KEY = new RegExp(`^[0-9a-fA-F]{${PUBLIC_KEY_BYTES * 2}}$`);
const HEX_SIGNATURE = new RegExp(`^[0-9a-fA-F]{${SIGNATURE_BYTES * 2}}$`);

/** Unsigned signing data for a command, one null signature per distinct signer key. */
export function unsignedSigData(cmd: string, hash: string, signers: readonly Signer[]): SigData {
  const keys = [...new Set(signers.map((s) => s.pubKey))];
  return { hash, sigs: keys.map((pubKey) => ({ pubKey, sig: null })), cmd };
}

/** Reads signing data, YAML or JSON; `source` names the file in errors. */
export function parseSigData(text: string, source: string): SigData {
  const fields = YamlFields.of(parseYaml(text, source), source, "", "hash, sigs and cmd");
  fields.onlyKeys(SIG_DATA_KEYS, "signing data");
  const hash = fields.optionalText("hash") ?? fields.missing("hash");
  hashBytes(hash, source);
  const sigsJson = fields.get("sigs") ?? fields.missing("sigs");
  if (!isJsonObject(sigsJson)) {
    return fields.wrongType("sigs", "a mapping of public key to signature or null", sigsJson);
  }
  const sigs: SigDataEntry[] = [];
  for (const [pubKey, value] of sigsJson) {
    if (!HEX_PUBLIC_KEY.test(pubKey)) {
      fields.fail(
        `sigs: public key ${JSON.stringify(pubKey)} must be ${PUBLIC_KEY_BYTES * 2} hex characters`,
      );
    }
    const text =
      value instanceof YamlNumber
        ? value.written
        : value instanceof JsonNumber
          ? value.text
          : value;
    if (text !== null && (typeof text !== "string" || !HEX_SIGNATURE.test(text))) {
      fields.fail(
        `sigs.${pubKey} must be null or a signature of ${SIGNATURE_BYTES * 2} hex characters`,
      );
    }
    sigs.push({ pubKey, sig: typeof text === "string" ? text.toLowerCase() : null });
  }
  return { hash, sigs, cmd: fields.optionalString("cmd") ?? null };
}

/** The YAML form, `hash`, `sigs`, `cmd` in that order, each on one line. */
export function formatSigData(sigData: SigData): string {
  const doc = new Map<string, unknown>([
    ["hash", sigData.hash],
    ["sigs", new Map(sigData.sigs.map((e) => [e.pubKey, e.sig]))],
  ]);
  if (sigData.cmd !== null) doc.set("cmd", sigData.cmd);
  return stringify(doc, { lineWidth: 0 });
}

/** The JSON form, `hash`, `sigs`, `cmd` in that order (`cmd` left out when absent), one line. */
export function encodeSigDataJson(sigData: SigData): string {
  const sigs = sigData.sigs.map((e) => `${JSON.stringify(e.pubKey)}:${JSON.stringify(e.sig)}`);
  const cmd = sigData.cmd === null ? "" : `,"cmd":${JSON.stringify(sigData.cmd)}`;
  return `{"hash":${JSON.stringify(sigData.hash)},"sigs":{${sigs.join(",")}}${cmd}}`;
}

/**
 * Signs the hash with every key whose public key is listed. Returns the keys that are not listed
 * (they signed nothing) so the caller can say so.
 */
export function addSignatures(
  sigData: SigData,
  keys: readonly SigningKey[],
): { sigData: SigData; unused: SigningKey[] } {
  const hash = hashBytes(sigData.hash, "signing data");
  const listed = new Set(sigData.sigs.map((e) => e.pubKey));
  const bySigner = new Map<string, string>();
  for (const key of keys) {
    if (listed.has(key.publicHex))
      bySigner.set(key.publicHex, encodeHex(sign(hash, key.secretKey)));
  }
  return {
    sigData: {
      ...sigData,
      sigs: sigData.sigs.map((e) => ({ pubKey: e.pubKey, sig: bySigner.get(e.pubKey) ?? e.sig })),
    },
    unused: keys.filter((k) => !listed.has(k.publicHex)),
  };
}

/**
 * Merges signing data for one command from several files: the hashes (and the `cmd`s that are
 * present) must agree and every file must list the same public keys. The first signature found for
 * a key is kept.
 */
export function combineSigData(files: readonly { source: string; sigData: SigData }[]): SigData {
  const [first, ...rest] = files;
  if (first === undefined) throw new CommandInputError("combine-sigs needs at least one file");
  const withCmd = files.find((f) => f.sigData.cmd !== null);
  const keys = (sd: SigData) =>
    sd.sigs
      .map((e) => e.pubKey)
      .sort()
      .join(",");
  const merged = new Map(first.sigData.sigs.map((e) => [e.pubKey, e.sig]));
  for (const file of rest) {
    const sd = file.sigData;
    if (sd.hash !== first.sigData.hash) {
      throw new CommandInputError(
        `${file.source} is for hash ${sd.hash} but ${first.source} is for hash ${first.sigData.hash}`,
      );
    }
    if (withCmd !== undefined && sd.cmd !== null && sd.cmd !== withCmd.sigData.cmd) {
      throw new CommandInputError(`${file.source} and ${withCmd.source} hold different cmd texts`);
    }
    if (keys(sd) !== keys(first.sigData)) {
      throw new CommandInputError(`${file.source} and ${first.source} list different public keys`);
    }
    for (const entry of sd.sigs) {
      if (merged.get(entry.pubKey) === null) merged.set(entry.pubKey, entry.sig);
    }
  }
  return {
    hash: first.sigData.hash,
    sigs: first.sigData.sigs.map((e) => ({ pubKey: e.pubKey, sig: merged.get(e.pubKey) ?? null })),
    cmd: withCmd?.sigData.cmd ?? null,
  };
}

/**
 * What signing data amounts to: with every signature and the `cmd`, the command (verified like any
 * received command); otherwise the signing data itself, once the signatures present, the hash and
 * the signer list have been checked.
 */
export function finishSigData(sigData: SigData): SigDataOutcome {
  const complete = sigData.sigs.every((e) => e.sig !== null);
  if (complete && sigData.cmd !== null) return toCommand(sigData, sigData.cmd);
  const problems = checkPartial(sigData);
  return problems.length > 0 ? { kind: "invalid", problems } : { kind: "partial", sigData };
}

function toCommand(sigData: SigData, cmd: string): SigDataOutcome {
  const payloadProblems: CommandProblem[] = [];
  const payload = parseCommandPayload(cmd, payloadProblems);
  if (payload === undefined) return invalid(payloadProblems.map((p) => p.message));
  const bySigner = new Map(sigData.sigs.map((e) => [e.pubKey, e.sig]));
  const sigs = payload.signers.flatMap((s) => {
    const sig = bySigner.get(s.pubKey);
    return typeof sig === "string" ? [{ sig }] : [];
  });
  const command: CommandJson = { hash: sigData.hash, sigs, cmd };
  const result = parseCommand(command);
  return result.ok ? { kind: "complete", command } : invalid(result.problems.map((p) => p.message));
}

function checkPartial(sigData: SigData): string[] {
  const problems: string[] = [];
  const hash = hashBytes(sigData.hash, "signing data");
  if (sigData.cmd !== null) {
    const payloadProblems: CommandProblem[] = [];
    const payload = parseCommandPayload(sigData.cmd, payloadProblems);
    problems.push(...payloadProblems.map((p) => p.message));
    if (matchingAlgorithm(sigData.cmd, hash) === undefined) {
      problems.push(
        `hash ${sigData.hash} is not the hash of cmd (neither Blake2s-256 nor Blake2b-256)`,
      );
    }
    if (payload !== undefined) {
      const listed = new Set(sigData.sigs.map((e) => e.pubKey));
      const signerKeys = new Set(payload.signers.map((s) => s.pubKey));
      if (signerKeys.size !== listed.size) {
        problems.push(`cmd has ${signerKeys.size} signer key(s) but sigs lists ${listed.size}`);
      }
      for (const key of signerKeys) {
        if (!listed.has(key)) problems.push(`signer ${key} of cmd is not listed in sigs`);
      }
    }
  }
  for (const { pubKey, sig } of sigData.sigs) {
    if (sig !== null && !verify(hash, decodeHex(sig), decodeHex(pubKey))) {
      problems.push(`invalid signature for public key ${pubKey}`);
    }
  }
  return problems;
}

function invalid(problems: readonly string[]): SigDataOutcome {
  return { kind: "invalid", problems };
}

/**
 * Signs base64url data of any length (what `braid sign` reads: a command hash, or anything else,
 * as Pact's `sign` does) with each key: `{public key: sig}`.
 */
export function signData(text: string, keys: readonly SigningKey[]): Map<string, string> {
  const data = base64UrlBytes(text.trim(), "standard input", "data");
  return new Map(keys.map((key) => [key.publicHex, encodeHex(sign(data, key.secretKey))]));
}

/** The `sign` output: one `<public key>: <signature>` line per key. */
export function formatSignatures(signatures: ReadonlyMap<string, string>): string {
  return stringify(signatures, { lineWidth: 0 });
}

function base64UrlBytes(text: string, source: string, what: string): Uint8Array {
  try {
    return decodeBase64Url(text);
  } catch (err) {
    if (!(err instanceof Base64UrlError)) throw err;
    throw new CommandInputError(
      `${source}: ${what} ${JSON.stringify(abbreviate(text))} is not base64url: ${err.message}`,
    );
  }
}

function hashBytes(hash: string, source: string): Uint8Array {
  const bytes = base64UrlBytes(hash, source, "hash");
  if (bytes.length !== COMMAND_HASH_BYTES) {
    throw new CommandInputError(
      `${source}: hash ${JSON.stringify(abbreviate(hash))} must be ${COMMAND_HASH_BYTES} bytes of base64url, got ${bytes.length}`,
    );
  }
  return bytes;
}

function abbreviate(text: string): string {
  return text.length > 100 ? `${text.slice(0, 97)}...` : text;
}
