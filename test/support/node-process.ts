/**
 * Runs `braid node` as a separate process for end-to-end tests: started on a free port (port 0)
 * unless told otherwise, ready once its banner names the URL, stopped with SIGTERM (SIGKILL when
 * it does not exit in time). Its output is kept for assertions, for waiting on a log line and for
 * failure messages.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

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
  /** Run the built CLI (`dist/cli/main.js`: `npm run build` first) instead of the sources through tsx. */
  readonly built?: boolean;
  /** A command the node runs under, e.g. `["ip", "netns", "exec", NAME]` (test/network/). */
  readonly launcher?: readonly string[];
}

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export interface NodeProcess {
  /** `http://127.0.0.1:PORT` (the host the banner names) */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /**
   * The first complete output line at or after character `from` (default 0; `output().length`
   * marks "from now on") that matches `pattern`; rejects after `timeoutMs`, or when the process
   * exits first, with the output in the message.
   */
  waitForOutput(pattern: RegExp, timeoutMs: number, from?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<ProcessExit>;
  /** SIGKILL at once (a crash: no clean shutdown); resolves once the process has gone. */
  kill(): Promise<ProcessExit>;
  /** The contract API base of a chain: `${url}/chainweb/0.0/development/chain/${c}/pact/api/v1`. */
  api(chainId: number): string;
}

/** Starts a node and resolves once it serves; rejects (after killing it) when it does not. */
export async function startNode(options: NodeProcessOptions = {}): Promise<NodeProcess> {
  const storage = options.dataDir === undefined ? ["--in-memory"] : ["--data-dir", options.dataDir];
  const cli =
    options.built === true ? ["dist/cli/main.js"] : ["--import", "tsx", "src/cli/main.ts"];
  const [command, ...commandArgs] = [
    ...(options.launcher ?? []),
    process.execPath,
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
  let text = "";
  /** Called after every chunk of output, by the waits under way. */
  const watchers = new Set<() => void>();
  const append = (chunk: string) => {
    text += chunk;
    for (const watch of watchers) watch();
  };
  child.stdout!.setEncoding("utf8");
  child.stderr!.setEncoding("utf8");
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  // Never outlive the test process, even when a test forgets to stop the node.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<ProcessExit>((resolve) => {
    child.once("exit", (code, signal) => {
      process.off("exit", killOnExit);
      resolve({ code, signal });
    });
  });
  // After the exit, once the last of the output has been read.
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  const waitForOutput = (pattern: RegExp, timeoutMs: number, from = 0) =>
    new Promise<string>((resolve, reject) => {
      let scanned = from;
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        watchers.delete(scan);
        settle();
      };
      function scan() {
        for (let end = text.indexOf("\n", scanned); end !== -1; end = text.indexOf("\n", scanned)) {
          const line = text.slice(scanned, end);
          scanned = end + 1;
          if (pattern.test(line)) return finish(() => resolve(line));
        }
      }
      const timer = setTimeout(
        () =>
          finish(() =>
            reject(new Error(`no line matched ${pattern} in ${timeoutMs} ms:\n${text}`)),
          ),
        timeoutMs,
      );
      watchers.add(scan);
      scan();
      void closed.then(() =>
        finish(() =>
          reject(
            new Error(
              `the node exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${text}`,
            ),
          ),
        ),
      );
    });
  try {
    const banner = await waitForOutput(URL_LINE, options.startTimeoutMs ?? 20_000);
    const url = URL_LINE.exec(banner)![1]!;
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    };
    const api = (chainId: number) => `${url}/chainweb/0.0/development/chain/${chainId}/pact/api/v1`;
    return { url, child, output: () => text, waitForOutput, stop, kill, api };
  } catch (e) {
    await stop();
    throw e;
  }
}
