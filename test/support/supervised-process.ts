/**
 * A child process a test started, watched: everything it writes to stdout and stderr is kept, a
 * test can wait for a line of it, and the process is stopped (SIGTERM, then SIGKILL) or killed,
 * and never outlives the test process. `node-process.ts` builds a `braid node` on it, and the
 * network harness the scripts it runs inside a host's namespace.
 */
import type { ChildProcess } from "node:child_process";

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

export interface SupervisedProcess {
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
}

/** Watches `child`, spawned with stdout and stderr piped; `name` names it in failure messages. */
export function supervise(child: ChildProcess, name: string): SupervisedProcess {
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
  // Never outlive the test process, even when a test forgets to stop the process.
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
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (graceMs = 5000) => {
    if (!running()) return exited;
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  const kill = () => {
    if (running()) child.kill("SIGKILL");
    return exited;
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
              `${name} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${text}`,
            ),
          ),
        ),
      );
    });
  return { child, output: () => text, waitForOutput, stop, kill };
}
