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

/**
 * How long lines wait before they are written to a log file (milliseconds): writing the lines of
 * many requests at once costs the server a fraction of writing each on its own.
 */
export const LOG_FLUSH_MS = 50;

/** Appends to the file at `path` (created if missing), in batches at most {@link LOG_FLUSH_MS} old. */
export function fileLogSink(path: string): LogSink {
  const stream = createWriteStream(path, { flags: "a" });
  return batchedSink(
    (text) => stream.write(text),
    () => new Promise((resolve) => stream.end(resolve)),
  );
}

/** Writes to standard output, in batches at most {@link LOG_FLUSH_MS} old. */
export function stdoutLogSink(): LogSink {
  return batchedSink(
    (text) => process.stdout.write(text),
    async () => {},
  );
}

/** Collects lines and hands them to `write` together, at most {@link LOG_FLUSH_MS} later. */
function batchedSink(write: (text: string) => void, end: () => Promise<void>): LogSink {
  let pending = "";
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    if (pending !== "") write(pending);
    pending = "";
  };
  return {
    line: (text) => {
      pending += `${text}\n`;
      timer ??= setTimeout(flush, LOG_FLUSH_MS);
    },
    close: () => {
      if (timer !== null) clearTimeout(timer);
      flush();
      return end();
    },
  };
}

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
  return `${e.ip} - - [${timestamp(e.time)}] "${e.method} ${e.url} HTTP/${e.httpVersion}" ${e.status} ${e.bytes ?? "-"} ${e.millis.toFixed(1)}ms`;
}

/** The last timestamp written, by whole second: consecutive requests share it. */
let stampSecond = Number.NaN;
let stampText = "";

/** `01/May/2024:12:00:00 +0000` */
function timestamp(t: Date): string {
  const second = Math.floor(t.getTime() / 1000);
  if (second === stampSecond) return stampText;
  const two = (n: number) => String(n).padStart(2, "0");
  stampSecond = second;
  stampText = `${two(t.getUTCDate())}/${MONTHS[t.getUTCMonth()]}/${t.getUTCFullYear()}:${two(t.getUTCHours())}:${two(t.getUTCMinutes())}:${two(t.getUTCSeconds())} +0000`;
  return stampText;
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
