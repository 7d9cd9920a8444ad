/**
 * Runs the `braid` command for real, in a child process (the built `node dist/cli/main.js …`,
 * `built-cli.ts`: tests run it hundreds of times), to its end: its exit code and both outputs,
 * for tests that check exact bytes.
 */
import { spawnSync } from "node:child_process";
import { builtCli } from "./built-cli.ts";

/** What a finished `braid` run left: its exit code, stdout and stderr. */
export interface BraidRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `braid ARGS…` in the folder `cwd`, with `stdin` as its standard input; killed (SIGKILL) after
 * `timeoutMs` when given (its code is then null).
 */
export function runBraid(
  cwd: string,
  args: readonly string[],
  stdin = "",
  timeoutMs?: number,
): BraidRun {
  const result = spawnSync(process.execPath, [builtCli(), ...args], {
    cwd,
    input: stdin,
    encoding: "utf8",
    ...(timeoutMs === undefined ? {} : { timeout: timeoutMs, killSignal: "SIGKILL" as const }),
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
