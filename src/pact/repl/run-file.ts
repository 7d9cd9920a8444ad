/**
 * Running a `.repl` or `.pact` file from start to end, as `pact FILE` does: `Load successful` on
 * standard output when everything ran and every expectation held; otherwise each failed
 * expectation as `file:sl:sc-el:ec:message` on standard output, or the rendered uncaught error,
 * then `Load failed` on standard error.
 */
import { readdirSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { renderError } from "./render.ts";
import { ReplSession, spanText } from "./session.ts";

export interface RunFileIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readFile(path: string): string;
  /** Writes a file, creating its directory (the coverage report). */
  writeFile(path: string, text: string): void;
}

export interface RunFileOptions {
  readonly trace?: boolean;
  readonly coverage?: boolean;
}

/** Runs `file`; returns the exit code (0 or 1). */
export function runFile(file: string, options: RunFileOptions, io: RunFileIO): number {
  const session = new ReplSession(
    { line: (text) => io.stdout(`${text}\n`), readFile: io.readFile },
    { trace: options.trace === true, coverage: options.coverage === true },
  );
  let error: string | null = null;
  try {
    session.loadFile(file, true);
  } catch (e) {
    error = renderError(e, session.sources, file);
  }
  if (session.coverage !== null) {
    io.writeFile(ReplSession.coveragePath(file), session.coverage.toLcov());
  }
  if (error !== null) {
    io.stderr(`${error}\nLoad failed\n`);
    return 1;
  }
  const failures = session.failures();
  if (failures.length === 0) {
    io.stdout("Load successful\n");
    return 0;
  }
  for (const f of failures) io.stdout(`${f.file}:${spanText(f.span)}:${f.failure}\n`);
  io.stderr("Load failed\n");
  return 1;
}

/**
 * `-r`: the script that tests a `.pact` file — `<name>.repl` next to it, or else the only `.repl`
 * file in its directory; null when there is none.
 */
export function findScript(
  pactFile: string,
  listDir: (dir: string) => string[] = readdirSync,
): string | null {
  const dir = dirname(pactFile);
  const sibling = join(dir, `${basename(pactFile, extname(pactFile))}.repl`);
  const entries = listDir(dir);
  if (entries.includes(basename(sibling))) return sibling;
  const scripts = entries.filter((e) => extname(e) === ".repl");
  return scripts.length === 1 ? join(dir, scripts[0]!) : null;
}
