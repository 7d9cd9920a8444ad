/** Loading key files named on the command line. */
import { parseKeyFile, type SigningKey } from "../command/key-file.ts";
import type { CliIO } from "./io.ts";

export interface LoadedKey {
  readonly file: string;
  readonly key: SigningKey;
}

export function loadKeyFiles(files: readonly string[], io: CliIO): LoadedKey[] {
  return files.map((file) => ({ file, key: parseKeyFile(io.readFile(file), file) }));
}
