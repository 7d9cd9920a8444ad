/** `--hash blake2s|blake2b`: the command hash Braid emits (verification accepts both). */
import { Option } from "commander";
import {
  COMMAND_HASH_ALGORITHMS,
  type CommandHashAlgorithm,
  DEFAULT_COMMAND_HASH,
} from "../command/hash-algorithm.ts";
import type { RootOptions } from "./registry.ts";

export const hashOption = new Option(
  "--hash <algorithm>",
  "hash for commands built by -a/-u (verification accepts both)",
)
  .choices(COMMAND_HASH_ALGORITHMS)
  .default(DEFAULT_COMMAND_HASH);

export function chosenHash(options: RootOptions): CommandHashAlgorithm {
  return (options.hash as CommandHashAlgorithm | undefined) ?? DEFAULT_COMMAND_HASH;
}
