/**
 * The thread's side of a `WorkThread` (work-thread.ts): called once by the thread's code, it
 * answers each piece of work in the order it came and tells its owner when it is ready, and where
 * its CPU time can be read (the watchdog counts it).
 */
import { parentPort } from "node:worker_threads";
import { ownThreadStatFile } from "./thread-cpu.ts";
import type { ThreadMessage, ThreadReply } from "./work-thread.ts";

export function serveWork<W, A>(run: (work: W) => A, close: () => void): void {
  const port = parentPort;
  if (port === null) throw new Error("serveWork runs on a worker thread only");
  port.on("message", (message: ThreadMessage<W>) => {
    if (message.kind === "close") {
      close();
      port.close();
      return;
    }
    const reply: ThreadReply<A> = { kind: "answer", id: message.id, answer: run(message.work) };
    port.postMessage(reply);
  });
  port.postMessage({ kind: "ready", cpuFile: ownThreadStatFile() } satisfies ThreadReply<A>);
}
