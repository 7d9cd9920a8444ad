/**
 * Runs one `braid` invocation. A user error (bad input, a missing file, a failed check) becomes one
 * line on standard error and a non-zero exit code; anything else is a bug and is rethrown with its
 * stack trace.
 */
import { CommanderError } from "commander";
import { CommandInputError } from "../command/errors.ts";
import { UserError } from "./errors.ts";
import { type CliIO, processIO } from "./io.ts";
import { buildProgram } from "./program.ts";
import { escapeControls } from "./terminal-text.ts";

/** Returns the exit code. */
export async function runCli(argv: readonly string[], io: CliIO = processIO): Promise<number> {
  try {
    await buildProgram(io).parseAsync([...argv], { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof UserError || err instanceof CommandInputError) {
      io.warn(oneLine(err.message));
      return err instanceof UserError ? err.exitCode : 1;
    }
    throw err;
  }
}

/** One line, its control characters escaped (messages quote files and input). */
function oneLine(message: string): string {
  return escapeControls(message.replace(/\s*\n\s*/g, " "));
}
