/**
 * What a command handler may touch: standard output and error, standard input, and files. Handlers
 * get it as a parameter, so tests can run them in-process with captured output.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { UserError } from "./errors.ts";
import { escapeControls } from "./terminal-text.ts";

/**
 * The largest file (or standard input) the CLI reads: 4 MiB. A larger `-a` request could not be
 * sent to a server anyway (the development server's default body limit is 1 MiB).
 */
export const MAX_INPUT_FILE_BYTES = 4_194_304;

export interface CliIO {
  /** Writes to standard output as is. */
  out(text: string): void;
  /** Whether standard output is a terminal (progress lines are redrawn in place there). */
  readonly outIsTerminal?: boolean;
  /** Writes one line to standard error (a warning; errors are thrown as `UserError`). */
  warn(line: string): void;
  /** All of standard input, as UTF-8. */
  readStdin(): Promise<string>;
  /** A UTF-8 file, relative to the working directory; a `UserError` when it cannot be read. */
  readFile(path: string): string;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  outIsTerminal: process.stdout.isTTY === true,
  warn: (line) => process.stderr.write(`braid: ${escapeControls(line)}\n`),
  readStdin: async () => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      size += (chunk as Buffer).length;
      if (size > MAX_INPUT_FILE_BYTES) throw tooLarge("standard input");
      chunks.push(chunk as Buffer);
    }
    return decodeUtf8(Buffer.concat(chunks), "standard input");
  },
  readFile: readTextFile,
};

/**
 * Reads a UTF-8 file (or pipe) of at most {@link MAX_INPUT_FILE_BYTES}, turning the usual
 * failures, a device, a larger file and invalid UTF-8 into one-line user errors. The limit holds
 * however much the file's size claims (a pipe's or `/proc`'s is 0): reading stops past it.
 */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    const fd = openSync(resolve(path), "r");
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile() && !stat.isFIFO()) {
        throw new UserError(`cannot read ${path}: it is not a regular file (a device or socket)`);
      }
      if (stat.size > MAX_INPUT_FILE_BYTES) throw tooLarge(path, stat.size);
      bytes = Buffer.allocUnsafe(MAX_INPUT_FILE_BYTES + 1);
      let read = 0;
      while (read < bytes.length) {
        const n = readSync(fd, bytes, read, bytes.length - read, null);
        if (n === 0) break;
        read += n;
      }
      if (read > MAX_INPUT_FILE_BYTES) throw tooLarge(path);
      bytes = bytes.subarray(0, read);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if (err instanceof UserError) throw err;
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
  return decodeUtf8(bytes, path);
}

function tooLarge(what: string, size?: number): UserError {
  const got = size === undefined ? "more" : `${size} bytes`;
  return new UserError(
    `cannot read ${what}: it is larger than the limit of ${MAX_INPUT_FILE_BYTES} bytes (${got})`,
  );
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    // Where: the line of the first replacement character a lenient decoding puts in.
    const lenient = new TextDecoder("utf-8").decode(bytes);
    const line = lenient.slice(0, lenient.indexOf("\uFFFD")).split("\n").length;
    throw new UserError(`cannot read ${what}: it is not valid UTF-8 (line ${line})`);
  }
}
