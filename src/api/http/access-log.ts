/**
 * The access log: one line per request in Apache's common log format plus the time taken,
 * `127.0.0.1 - - [01/May/2024:12:00:00 +0000] "POST /api/v1/send HTTP/1.1" 200 57 1.3ms`,
 * written to a file or to standard output.
 */
import { createWriteStream } from "node:fs";
import type { FastifyInstance } from "fastify";

/** Where log lines go. */
export interface LogSink {
  /** Writes one line (without its newline). */
  line(text: string): void;
  /** Flushes and releases the destination. */
  close(): Promise<void>;
}

/** Appends to the file at `path` (created if missing). */
export function fileLogSink(path: string): LogSink {
  const stream = createWriteStream(path, { flags: "a" });
  return {
    line: (text) => {
      stream.write(`${text}\n`);
    },
    close: () => new Promise((resolve) => stream.end(resolve)),
  };
}

export const stdoutLogSink: LogSink = {
  line: (text) => {
    process.stdout.write(`${text}\n`);
  },
  close: async () => {},
};

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export interface AccessEntry {
  readonly ip: string;
  readonly method: string;
  readonly url: string;
  readonly httpVersion: string;
  readonly status: number;
  /** Response body bytes, when known. */
  readonly bytes: number | null;
  readonly millis: number;
  readonly time: Date;
}

export function accessLogLine(e: AccessEntry): string {
  const t = e.time;
  const two = (n: number) => String(n).padStart(2, "0");
  const stamp = `${two(t.getUTCDate())}/${MONTHS[t.getUTCMonth()]}/${t.getUTCFullYear()}:${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} +0000`;
  return `${e.ip} - - [${stamp}] "${e.method} ${e.url} HTTP/${e.httpVersion}" ${e.status} ${e.bytes ?? "-"} ${e.millis.toFixed(1)}ms`;
}

/** Logs every request once its response is sent. */
export function logRequests(app: FastifyInstance, sink: LogSink): void {
  app.addHook("onResponse", (request, reply, done) => {
    const length = reply.getHeader("content-length");
    sink.line(
      accessLogLine({
        ip: request.ip,
        method: request.method,
        url: request.url,
        httpVersion: request.raw.httpVersion,
        status: reply.statusCode,
        bytes: length === undefined ? null : Number(length),
        millis: reply.elapsedTime,
        time: new Date(),
      }),
    );
    done();
  });
}
