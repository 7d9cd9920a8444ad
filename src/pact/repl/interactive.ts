/**
 * The interactive REPL (`braid` with no arguments): `pact> ` prompts for a form, `....> ` continues
 * a form that is not finished yet, every result is printed, errors are shown and the session goes
 * on. History is kept in `.pc-history` in the working directory; end of input prints `goodbye`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { PactSyntaxError } from "../syntax/errors.ts";
import { renderError } from "./render.ts";
import { INTERACTIVE_FILE, ReplSession } from "./session.ts";

export const PROMPT = "pact> ";
export const CONTINUATION_PROMPT = "....> ";
/** The history file, as Pact names it. */
export const HISTORY_FILE = ".pc-history";
/** How many lines of history are kept. */
export const HISTORY_SIZE = 1000;

export interface InteractiveIO {
  readonly input: Readable;
  readonly output: Writable;
  readFile(path: string): string;
  /** Where history is read from and written to; null keeps none. */
  readonly historyFile: string | null;
  /** Whether the input is a terminal (line editing and history keys). */
  readonly terminal: boolean;
}

function loadHistory(path: string | null): string[] {
  if (path === null) return [];
  try {
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((l) => l.length > 0)
      .reverse();
  } catch {
    return [];
  }
}

/** Runs the REPL until the input ends. */
export function runInteractive(io: InteractiveIO): Promise<void> {
  const session = new ReplSession(
    { line: (text) => io.output.write(`${text}\n`), readFile: io.readFile },
    { interactive: true },
  );
  const rl = createInterface({
    input: io.input,
    output: io.output,
    terminal: io.terminal,
    history: loadHistory(io.historyFile),
    historySize: HISTORY_SIZE,
  });
  if (io.historyFile !== null) {
    const file = io.historyFile;
    rl.on("history", (history: string[]) => {
      try {
        writeFileSync(file, `${[...history].reverse().join("\n")}\n`);
      } catch {
        // History is a convenience: a read-only directory must not stop the REPL.
      }
    });
  }
  let pending = "";
  const prompt = () => {
    rl.setPrompt(pending === "" ? PROMPT : CONTINUATION_PROMPT);
    rl.prompt();
  };
  rl.on("line", (input) => {
    if (pending === "" && input.trim() === "") {
      prompt();
      return;
    }
    const source = pending === "" ? input : `${pending}\n${input}`;
    pending = "";
    try {
      session.runSource(INTERACTIVE_FILE, source);
    } catch (e) {
      if (e instanceof PactSyntaxError && e.incomplete) pending = source;
      else io.output.write(renderError(e, session.sources, INTERACTIVE_FILE));
    }
    prompt();
  });
  return new Promise((done) => {
    rl.on("close", () => {
      io.output.write("goodbye\n");
      done();
    });
    prompt();
  });
}
