#!/usr/bin/env node
/**
 * The `braid` command line. It mirrors the `pact` tool: options may come before or after the
 * file name, and the subcommands (`sign`, `add-sig`, `combine-sigs`, …) each live in their own module.
 */
import { Command, CommanderError } from "commander";
import { BRAID_VERSION, PACT_VERSION } from "../version.ts";
import { UserError } from "./errors.ts";

export function buildProgram(): Command {
  const program = new Command("braid")
    .description("Braid: a Chainweb-compatible node and Pact-compatible contract interpreter")
    .version(
      `braid ${BRAID_VERSION} (pact ${PACT_VERSION})`,
      "-v, --version",
      "print version information",
    )
    .helpOption("-h, --help", "print usage information")
    .showHelpAfterError(false)
    .exitOverride();
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv], { from: "user" });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof UserError) {
      process.stderr.write(`braid: ${err.message}\n`);
      return err.exitCode;
    }
    throw err;
  }
}

process.exitCode = await main(process.argv.slice(2));
