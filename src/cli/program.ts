/**
 * The `braid` command line, built from one list of root modes and one list of subcommands. Options
 * may come before or after the FILE argument, as with the `pact` tool; a subcommand's own options
 * follow its name.
 */
import { Command } from "commander";
import { BRAID_VERSION, PACT_VERSION } from "../version.ts";
import { addSigCommand } from "./commands/add-sig.ts";
import { apiRequestMode } from "./commands/apireq.ts";
import { builtinsMode } from "./commands/builtins.ts";
import { combineSigsCommand } from "./commands/combine-sigs.ts";
import { devCommand } from "./commands/dev.ts";
import { genkeyMode } from "./commands/genkey.ts";
import { headerCommand } from "./commands/header.ts";
import { nodeCommand } from "./commands/node.ts";
import { pactFileMode } from "./commands/pact-file.ts";
import { serveMode } from "./commands/serve.ts";
import { signCommand } from "./commands/sign.ts";
import { unsignedMode } from "./commands/unsigned.ts";
import { UserError } from "./errors.ts";
import { hashOption } from "./hash-option.ts";
import type { CliIO } from "./io.ts";
import type { RootMode, RootOptions, Subcommand } from "./registry.ts";

/** Options that decide what one invocation does; at most one may be given. */
const SELECTED_MODES: readonly RootMode[] = [
  genkeyMode,
  apiRequestMode,
  unsignedMode,
  builtinsMode,
  serveMode,
];
export const ROOT_MODES: readonly RootMode[] = [...SELECTED_MODES, pactFileMode(SELECTED_MODES)];

export const SUBCOMMANDS: readonly Subcommand[] = [
  signCommand,
  addSigCommand,
  combineSigsCommand,
  headerCommand,
  nodeCommand,
  devCommand,
];

export function buildProgram(io: CliIO): Command {
  const program = new Command("braid")
    .description("Braid: a Chainweb-compatible node and Pact-compatible contract interpreter")
    .version(
      `braid ${BRAID_VERSION} (pact ${PACT_VERSION})`,
      "-v, --version",
      "print version information",
    )
    .helpOption("-h, --help", "print usage information")
    .showHelpAfterError(false)
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text),
      outputError: (text) => io.warn(text.replace(/^error: /, "").trimEnd()),
    })
    .argument("[file]", "a contract or script file")
    .addOption(hashOption);
  for (const mode of ROOT_MODES) mode.register(program);
  for (const subcommand of SUBCOMMANDS) subcommand.register(program, io);
  program.action(async (file: string | undefined, options: RootOptions) => {
    for (const mode of ROOT_MODES) mode.validate?.(options);
    const selected = ROOT_MODES.filter((mode) => mode.selected(options));
    const [mode, other] = selected;
    if (other !== undefined) {
      throw new UserError(`${mode?.flag} and ${other.flag} cannot be used together`);
    }
    if (mode !== undefined) {
      if (file !== undefined && mode.usesFile !== true) {
        throw new UserError(`unexpected argument ${JSON.stringify(file)} with ${mode.flag}`);
      }
      await mode.run(options, file, io);
      return;
    }
    if (file !== undefined) throw new UserError(`running a file is not supported yet: ${file}`);
    program.outputHelp();
  });
  return program;
}
