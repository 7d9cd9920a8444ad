/**
 * The contract command: the JSON object `{cmd, hash, sigs}` a client sends, and the payload
 * inside its `cmd` string. Field names follow the wire; comments say where Pact's rules apply.
 */

import type { JsonNumber, JsonValue } from "../pact/values/json-text.ts";
import type { CommandHashAlgorithm } from "./hash-algorithm.ts";

/** A command as it travels: `cmd` is the signed JSON text and must never be re-serialised. */
export interface CommandJson {
  readonly hash: string;
  readonly sigs: readonly UserSigJson[];
  readonly cmd: string;
}

/** One entry of `sigs`. Clients such as @kadena/client add the signer's `pubKey`; it is ignored. */
export interface UserSigJson {
  readonly sig: string;
}

/** The JSON inside `cmd`. */
export interface CommandPayload {
  readonly payload: ExecMessage | ContMessage;
  readonly meta: PublicMeta | PrivateMeta;
  readonly signers: readonly Signer[];
  /** `null` when the field is absent, which Pact keeps distinct from an empty list. */
  readonly verifiers: readonly Verifier[] | null;
  readonly networkId: string | null;
  readonly nonce: string;
}

export interface ExecMessage {
  readonly kind: "exec";
  readonly code: string;
  /** The transaction data exactly as sent (`null` when absent); decoded to Pact values at run time. */
  readonly data: JsonValue;
}

export interface ContMessage {
  readonly kind: "cont";
  readonly pactId: string;
  readonly step: number;
  readonly rollback: boolean;
  readonly data: JsonValue;
  /** Cross-chain continuation proof (base64url text), or `null`. */
  readonly proof: string | null;
}

export interface PublicMeta {
  readonly kind: "public";
  /** Seconds since the UNIX epoch. */
  readonly creationTime: number;
  /** Seconds. */
  readonly ttl: number;
  readonly gasLimit: number;
  readonly chainId: string;
  /** The price exactly as written (`1e-8`, `1.0e-8`, `0.00000001` and `"0.00000001"` all kept). */
  readonly gasPrice: JsonNumber;
  readonly sender: string;
}

/**
 * Metadata for private (entity-addressed) execution: `{"address": {"from", "to"} | null}`, and
 * Braid's optional `gasLimit` beside it (Pact's private metadata has none and ignores the field).
 */
export interface PrivateMeta {
  readonly kind: "private";
  readonly address: { readonly from: string; readonly to: readonly string[] } | null;
  /** The gas the command may use; absent: as much as a block holds. */
  readonly gasLimit?: number;
}

export type SignatureScheme = "ED25519" | "WebAuthn";

export interface Signer {
  readonly pubKey: string;
  /** `null` when absent, which means ED25519. */
  readonly scheme: SignatureScheme | null;
  readonly addr: string | null;
  /** Capabilities this signature is scoped to; empty when absent. */
  readonly clist: readonly SigCapability[];
}

export interface SigCapability {
  /** Qualified capability name, e.g. `coin.TRANSFER`. */
  readonly name: string;
  /** Arguments as sent (Pact value JSON). */
  readonly args: readonly JsonValue[];
}

export interface Verifier {
  readonly name: string;
  readonly proof: JsonValue;
  readonly clist: readonly SigCapability[];
}

/** A command whose hash matched its `cmd` and whose signatures were checked as asked. */
export interface ParsedCommand {
  /** The `cmd` string exactly as received. */
  readonly cmd: string;
  /** The hash as received: the request key. */
  readonly hash: string;
  readonly hashBytes: Uint8Array;
  /** Which algorithm the hash matched. */
  readonly hashAlgorithm: CommandHashAlgorithm;
  /**
   * Signature text per signer position: ED25519 hex, or a WebAuthn signature's JSON text in
   * Pact's form; `null` for a slot left unsigned (only without verification).
   */
  readonly sigs: readonly (string | null)[];
  readonly payload: CommandPayload;
}

export type CommandProblemKind =
  | "not-an-object"
  | "missing-field"
  | "wrong-type"
  | "malformed-cmd"
  | "bad-hash"
  | "hash-mismatch"
  | "signature-count"
  | "missing-signature"
  | "invalid-signature"
  | "bad-public-key";

export interface CommandProblem {
  readonly kind: CommandProblemKind;
  /** A complete sentence naming the field (e.g. `cmd.meta.gasLimit`) and the bad value. */
  readonly message: string;
}

export type CommandParseResult =
  | { readonly ok: true; readonly command: ParsedCommand }
  | { readonly ok: false; readonly problems: readonly CommandProblem[] };
