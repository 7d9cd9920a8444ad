#!/usr/bin/env node
/** The `braid` command's entry point. */
import { runCli } from "./run.ts";
import { stopWhenClosed } from "./stop.ts";

stopWhenClosed(process.stdout);
stopWhenClosed(process.stderr);
process.exitCode = await runCli(process.argv.slice(2));
