/**
 * The hash of a command: the request key, and the bytes every signature signs.
 *
 * The interface spec names Blake2s-256; every deployed Pact and Chainweb client uses Blake2b-256.
 * Braid verifies a hash that matches either, and emits the one this setting names. It is the only
 * place the choice is made: everything that builds a command takes a `CommandHashAlgorithm`.
 */
import { blake2b256, blake2s256 } from "../crypto/index.ts";

export type CommandHashAlgorithm = "blake2s" | "blake2b";

/** What Braid emits unless told otherwise (`--hash blake2b`, or a server's config key). */
export const DEFAULT_COMMAND_HASH: CommandHashAlgorithm = "blake2s";

export const COMMAND_HASH_ALGORITHMS: readonly CommandHashAlgorithm[] = ["blake2s", "blake2b"];

/** Human names for messages. */
export const COMMAND_HASH_NAMES: Readonly<Record<CommandHashAlgorithm, string>> = {
  blake2s: "Blake2s-256",
  blake2b: "Blake2b-256",
};

/** Length of a command hash in bytes (43 characters of unpadded base64url). */
export const COMMAND_HASH_BYTES = 32;

export function commandHash(cmd: string | Uint8Array, algorithm: CommandHashAlgorithm): Uint8Array {
  return algorithm === "blake2b" ? blake2b256(cmd) : blake2s256(cmd);
}

/** Reads an algorithm name as given on a command line or in a config file. */
export function parseCommandHashAlgorithm(text: string): CommandHashAlgorithm {
  const name = text.trim().toLowerCase();
  if (name === "blake2s" || name === "blake2b") return name;
  throw new RangeError(
    `unknown command hash algorithm ${JSON.stringify(text)}: expected one of ${COMMAND_HASH_ALGORITHMS.join(", ")}`,
  );
}
