#!/usr/bin/env node
/** The `braid` command's entry point. */
import { runCli } from "./run.ts";

process.exitCode = await runCli(process.argv.slice(2));
