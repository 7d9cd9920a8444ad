#!/usr/bin/env -S node --max-semi-space-size=32
/** The `braid` command's entry point. */
import { runCli } from "./run.ts";
import { stopWhenClosed } from "./stop.ts";

stopWhenClosed(process.stdout);
stopWhenClosed(process.stderr);
process.exitCode = await runCli(process.argv.slice(2));
