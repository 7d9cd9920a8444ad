/**
 * Writing commands as JSON in Pact's field order: `{"hash","sigs","cmd"}`, and the `/send` body
 * `{"cmds":[…]}`. `cmd` is already JSON text (which never holds a raw control character), so the
 * standard string escaping writes it exactly as Pact does.
 */
import { encodeBase64Url, encodeHex, type KeyPair, sign } from "../crypto/index.ts";
import { type CommandHashAlgorithm, commandHash } from "./hash-algorithm.ts";
import type { CommandJson } from "./types.ts";

export function encodeCommandJson(command: CommandJson): string {
  const sigs = command.sigs.map((s) => `{"sig":${JSON.stringify(s.sig)}}`).join(",");
  return `{"hash":${JSON.stringify(command.hash)},"sigs":[${sigs}],"cmd":${JSON.stringify(command.cmd)}}`;
}

/** The body of a `/send` request. */
export function encodeSubmitBatch(commands: readonly CommandJson[]): string {
  return `{"cmds":[${commands.map(encodeCommandJson).join(",")}]}`;
}

/** Hashes `cmd` and signs the hash with each key, in order (the order of `signers` in `cmd`). */
export function signCommand(
  cmd: string,
  keys: readonly KeyPair[],
  algorithm: CommandHashAlgorithm,
): CommandJson {
  const hash = commandHash(cmd, algorithm);
  return {
    hash: encodeBase64Url(hash),
    sigs: keys.map((key) => ({ sig: encodeHex(sign(hash, key.secretKey)) })),
    cmd,
  };
}
