/**
 * Runs `braid node` as a separate process for end-to-end tests: started on a free port (port 0),
 * ready once its banner names the URL, stopped with SIGTERM (SIGKILL when it does not exit in
 * time). Its output is kept for assertions and for failure messages.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const URL_LINE = /^ {2}URL {10}(http:\/\/\S+)$/m;

export interface NodeProcessOptions {
  /** A data directory; in memory when absent. */
  readonly dataDir?: string;
  /** More `braid node` flags. */
  readonly args?: readonly string[];
  /** How long to wait for the banner (default 20 s). */
  readonly startTimeoutMs?: number;
}

export interface NodeProcess {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves with the exit code or signal. */
  stop(graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL at once (a crash: no clean shutdown); resolves once the process has gone. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The contract API base of a chain: `${url}/chainweb/0.0/development/chain/${c}/pact/api/v1`. */
  api(chainId: number): string;
}

/** Starts a node and resolves once it serves; rejects (after killing it) when it does not. */
export async function startNode(options: NodeProcessOptions = {}): Promise<NodeProcess> {
  const storage = options.dataDir === undefined ? ["--in-memory"] : ["--data-dir", options.dataDir];
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/cli/main.ts",
      "node",
      ...storage,
      "--port",
      "0",
      ...(options.args ?? []),
    ],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  let text = "";
  child.stdout!.setEncoding("utf8");
  child.stderr!.setEncoding("utf8");
  child.stdout!.on("data", (chunk: string) => {
    text += chunk;
  });
  child.stderr!.on("data", (chunk: string) => {
    text += chunk;
  });
  // Never outlive the test process, even when a test forgets to stop the node.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once("exit", (code, signal) => {
      process.off("exit", killOnExit);
      resolve({ code, signal });
    });
  });
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
  const timeoutMs = options.startTimeoutMs ?? 20_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the node did not start in ${timeoutMs} ms:\n${text}`)),
        timeoutMs,
      );
      const look = () => {
        const match = URL_LINE.exec(text);
        if (match !== null) {
          clearTimeout(timer);
          child.stdout!.off("data", look);
          resolve(match[1]!);
        }
      };
      child.stdout!.on("data", look);
      void exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`the node exited (${code ?? signal}) before serving:\n${text}`));
      });
    });
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      return exited;
    };
    const api = (chainId: number) => `${url}/chainweb/0.0/development/chain/${chainId}/pact/api/v1`;
    return { url, child, output: () => text, stop, kill, api };
  } catch (e) {
    await stop();
    throw e;
  }
}
