/**
 * How command-line features plug into `braid`. A feature is either a root mode (an option such as
 * `-g` or `-a FILE` that decides what one invocation does) or a subcommand (`sign`, `add-sig`, …).
 * `program.ts` holds the one list of each; adding a feature is one module and one line there.
 */
import type { Command } from "commander";
import type { CliIO } from "./io.ts";

/** Parsed root options, as commander gives them (keys are the camel-cased long option names). */
export type RootOptions = Readonly<Record<string, unknown>>;

export interface RootMode {
  /** The option as written in messages, e.g. `-a/--apireq`. */
  readonly flag: string;
  /** Whether the mode takes the positional FILE argument (otherwise a FILE is an error). */
  readonly usesFile?: boolean;
  /** Adds the mode's option(s) to the root command. */
  register(program: Command): void;
  /**
   * Called on every root invocation, whichever mode runs, to refuse options that only make sense
   * with this mode (e.g. `-l` without `-a`).
   */
  validate?(options: RootOptions): void;
  /** Whether the parsed options select this mode. */
  selected(options: RootOptions): boolean;
  /** Runs the invocation; `file` is the positional FILE argument, if any. */
  run(options: RootOptions, file: string | undefined, io: CliIO): Promise<void> | void;
}

export interface Subcommand {
  /** Adds the subcommand (with its own options and action) to the root command. */
  register(program: Command, io: CliIO): void;
}
