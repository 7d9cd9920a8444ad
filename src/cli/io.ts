/**
 * What a command handler may touch: standard output and error, standard input, and files. Handlers
 * get it as a parameter, so tests can run them in-process with captured output.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "./errors.ts";

export interface CliIO {
  /** Writes to standard output as is. */
  out(text: string): void;
  /** Writes one line to standard error (a warning; errors are thrown as `UserError`). */
  warn(line: string): void;
  /** All of standard input, as UTF-8. */
  readStdin(): Promise<string>;
  /** A UTF-8 file, relative to the working directory; a `UserError` when it cannot be read. */
  readFile(path: string): string;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  warn: (line) => process.stderr.write(`braid: ${line}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  },
  readFile: readTextFile,
};

/** Reads a UTF-8 file, turning the usual failures into one-line user errors. */
export function readTextFile(path: string): string {
  try {
    return readFileSync(resolve(path), "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "it is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (err as Error).message;
    throw new UserError(`cannot read ${path}: ${reason}`);
  }
}
