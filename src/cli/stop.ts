/**
 * How a `braid` run ends before its work is done. A server (`braid node`, `braid -s`) waits for a
 * stop — Ctrl-C, SIGTERM, or its standard output or error closed by the reader (`braid node |
 * head -3`) — and then closes cleanly. Any other run whose output is closed ends at once, quietly
 * and with status 0, as Ctrl-C would end it: nothing more it writes can be read (`braid -b |
 * head -3`). Without this, writing to the closed pipe is an unhandled EPIPE error and a stack
 * trace.
 */

/** The servers waiting for a stop. */
const waiting = new Set<() => void>();
/** Whether a stop was asked for: a server is closing and may still write, so EPIPE is expected. */
let stopping = false;

/** Resolves when the run is asked to stop: SIGINT, SIGTERM, or its output closed. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      stopping = true;
      waiting.delete(stop);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      resolve();
    };
    waiting.add(stop);
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

/** Makes `stream` closing under the run (EPIPE) stop it as above; other errors stay errors. */
export function stopWhenClosed(stream: NodeJS.WriteStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (stopping) return;
    if (waiting.size === 0) process.exit(0);
    for (const stop of [...waiting]) stop();
  });
}
