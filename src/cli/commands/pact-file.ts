/**
 * `braid FILE` runs a `.repl` or `.pact` file (`-t` trace, `-c` coverage, `-r` find the script of
 * a `.pact` file); `braid` with no arguments starts the interactive REPL. This is the default mode:
 * it runs whenever no other root mode is selected.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { CommanderError } from "commander";
import { findScript, runFile, runInteractive } from "../../pact/index.ts";
import { UserError } from "../errors.ts";
import type { CliIO } from "../io.ts";
import type { RootMode, RootOptions } from "../registry.ts";
import { escapeControls } from "../terminal-text.ts";

const FILE_FLAGS: readonly [keyof RootOptions & string, string][] = [
  ["trace", "-t/--trace"],
  ["coverage", "-c/--coverage"],
  ["findscript", "-r/--findscript"],
];

/** Exits with `code` without a further message (the output has been written). */
function exit(code: number): never {
  throw new CommanderError(code, "braid.exit", "");
}

/**
 * Running a FILE, or the interactive REPL without one: the mode when none of `others` (the other
 * root modes, program.ts's list) is selected.
 */
export function pactFileMode(others: readonly RootMode[]): RootMode {
  const mode: RootMode = {
    flag: "FILE",
    usesFile: true,
    register(program) {
      program
        .option("-t, --trace", "with FILE: show every top-level result and print with its location")
        .option(
          "-c, --coverage",
          "with FILE: write an lcov report to coverage/lcov.info next to FILE",
        )
        .option("-r, --findscript", "with a .pact FILE: run the .repl script that tests it");
    },
    validate(options) {
      if (mode.selected(options)) return;
      for (const [key, flag] of FILE_FLAGS) {
        if (options[key] === true) throw new UserError(`${flag} is only used with a FILE to run`);
      }
    },
    selected: (options) => !others.some((m) => m.selected(options)),
    async run(options, file, io) {
      if (file === undefined) {
        for (const [key, flag] of FILE_FLAGS) {
          if (options[key] === true) throw new UserError(`${flag} needs a FILE to run`);
        }
        await runInteractive({
          input: process.stdin,
          output: process.stdout,
          readFile: (path) => io.readFile(path),
          historyFile: ".pc-history",
          terminal: process.stdin.isTTY === true,
        });
        return;
      }
      const script =
        options.findscript === true && file.endsWith(".pact") ? (findScript(file) ?? file) : file;
      const code = runFile(
        script,
        { trace: options.trace === true, coverage: options.coverage === true },
        fileIO(io),
      );
      if (code !== 0) exit(code);
    },
  };
  return mode;
}

function fileIO(io: CliIO) {
  return {
    // Results, traces and error excerpts quote the file: its control characters are escaped.
    stdout: (text: string) => io.out(escapeControls(text)),
    stderr: (text: string) => {
      process.stderr.write(escapeControls(text));
    },
    readFile: (path: string) => io.readFile(path),
    writeFile: (path: string, text: string) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    },
  };
}
