/**
 * Runs `braid node` as a separate process for end-to-end tests, with the V8 flags `braid` runs
 * with (runtime-flags.ts): started on a free port (port 0) unless told otherwise, ready once its
 * banner names the URL, stopped with SIGTERM (SIGKILL when it does not exit in time). Its output is kept (`supervised-process.ts`) for assertions, for
 * waiting on a log line and for failure messages.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { NODE_RUNTIME_FLAGS } from "../../src/cli/runtime-flags.ts";
import { builtCli } from "./built-cli.ts";
import { type SupervisedProcess, supervise } from "./supervised-process.ts";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const URL_LINE = /^ {2}URL {10}(https?:\/\/\S+)$/;

export interface NodeProcessOptions {
  /** A data directory; in memory when absent. */
  readonly dataDir?: string;
  /** More `braid node` flags. */
  readonly args?: readonly string[];
  /** How long to wait for the banner (default 20 s). */
  readonly startTimeoutMs?: number;
  /** The port to listen on (default 0: a free one). */
  readonly port?: number;
  /** Run the built CLI (`dist/cli/main.js`, refused when older than `src/`: built-cli.ts) instead of the sources through tsx. */
  readonly built?: boolean;
  /** A command the node runs under, e.g. `["ip", "netns", "exec", NAME]` (test/network/). */
  readonly launcher?: readonly string[];
}

export interface NodeProcess extends SupervisedProcess {
  /** `http://127.0.0.1:PORT` (the host the banner names) */
  readonly url: string;
  /** The contract API base of a chain: `${url}/chainweb/0.0/development/chain/${c}/pact/api/v1`. */
  api(chainId: number): string;
}

/** Starts a node and resolves once it serves; rejects (after killing it) when it does not. */
export async function startNode(options: NodeProcessOptions = {}): Promise<NodeProcess> {
  const storage = options.dataDir === undefined ? ["--in-memory"] : ["--data-dir", options.dataDir];
  const cli = options.built === true ? [builtCli()] : ["--import", "tsx", "src/cli/main.ts"];
  const [command, ...commandArgs] = [
    ...(options.launcher ?? []),
    process.execPath,
    ...NODE_RUNTIME_FLAGS,
    ...cli,
    "node",
    ...storage,
    "--port",
    String(options.port ?? 0),
    ...(options.args ?? []),
  ];
  const child = spawn(command!, commandArgs, {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const watched = supervise(child, "the node");
  try {
    const banner = await watched.waitForOutput(URL_LINE, options.startTimeoutMs ?? 20_000);
    const url = URL_LINE.exec(banner)![1]!;
    const api = (chainId: number) => `${url}/chainweb/0.0/development/chain/${chainId}/pact/api/v1`;
    return { ...watched, url, api };
  } catch (e) {
    await watched.stop();
    throw e;
  }
}
