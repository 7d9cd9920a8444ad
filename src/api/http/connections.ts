/**
 * Bounds on the connections a server holds, so that slow or greedy clients cannot starve the
 * others or use up the process's file descriptors (which the node needs for its own files):
 * deadlines for a request's headers and for the whole request, an idle keep-alive time, a limit
 * of open connections per remote address (a further one is answered 503 and closed) and one in
 * all, kept below the process's file-descriptor limit (a further one is closed at once by Node).
 */
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { Socket } from "node:net";
import { plainRawResponse } from "./plain-errors.ts";

export interface ConnectionLimits {
  /** Time to receive a request's headers, from its first byte (or from the connection's start). */
  readonly headersTimeoutMs: number;
  /** Time to receive a whole request, headers and body. */
  readonly requestTimeoutMs: number;
  /** How long a keep-alive connection may stay idle between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections from one remote address. */
  readonly maxConnectionsPerClient: number;
  /** Open connections in all. */
  readonly maxConnections: number;
}

/** The time to send a request's headers: ample for any client, short for a slow-header attack. */
export const HEADERS_TIMEOUT_MS = 10_000;
/** The time to send a whole request (a 2 MB body at 34 KB/s). */
export const REQUEST_TIMEOUT_MS = 60_000;
/** How long an idle keep-alive connection is kept. */
export const KEEP_ALIVE_TIMEOUT_MS = 10_000;
/** Open connections from one remote address (a browser opens 6, a load generator tens). */
export const MAX_CONNECTIONS_PER_CLIENT = 256;
/** Open connections in all, unless the file-descriptor limit asks for fewer. */
export const MAX_CONNECTIONS = 8_192;
/**
 * File descriptors kept for the process's own files below its limit: the chain database and
 * the contract states with their journals, the payload logs, the log and the runtime's own.
 */
export const RESERVED_FILE_DESCRIPTORS = 512;
/** How long a refused connection may linger to read its request and take the 503 (ms). */
export const REFUSAL_LINGER_MS = 1_000;
/** How often Node checks the header and request deadlines (ms; Node's default is 30 s). */
const DEADLINE_CHECK_INTERVAL_MS = 1_000;

/** The limits the servers use: the constants above, the total cut to the descriptors there are. */
export function defaultConnectionLimits(): ConnectionLimits {
  return {
    headersTimeoutMs: HEADERS_TIMEOUT_MS,
    requestTimeoutMs: REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    maxConnectionsPerClient: MAX_CONNECTIONS_PER_CLIENT,
    maxConnections: connectionCap(openFileLimit()),
  };
}

/**
 * The most connections to hold with `fileLimit` descriptors (null: unknown): {@link
 * MAX_CONNECTIONS}, or fewer so that {@link RESERVED_FILE_DESCRIPTORS} stay free (at least 16).
 */
export function connectionCap(fileLimit: number | null): number {
  if (fileLimit === null) return MAX_CONNECTIONS;
  return Math.max(16, Math.min(MAX_CONNECTIONS, fileLimit - RESERVED_FILE_DESCRIPTORS));
}

/** The process's soft limit of open files, where the system tells it (Linux); null elsewhere. */
export function openFileLimit(): number | null {
  try {
    const line = readFileSync("/proc/self/limits", "utf8")
      .split("\n")
      .find((l) => l.startsWith("Max open files"));
    const soft = line?.slice("Max open files".length).trim().split(/\s+/)[0];
    return soft === undefined || !/^[0-9]+$/.test(soft) ? null : Number(soft);
  } catch {
    return null;
  }
}

/** Fastify's options for the deadlines (the per-client and total limits are {@link limitConnections}). */
export function deadlineOptions(limits: ConnectionLimits) {
  return {
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      connectionsCheckingInterval: DEADLINE_CHECK_INTERVAL_MS,
    },
  };
}

/**
 * Holds `server` to the connection limits: beyond the total Node closes a new connection at once;
 * beyond the per-client limit it gets a 503 with `headers(socket)` and a plain-text reason, and
 * never reaches the HTTP parser.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  headers: (socket: Socket) => Record<string, string> = () => ({}),
): void {
  server.maxConnections = limits.maxConnections;
  const open = new Map<string, number>();
  const serve = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    const count = open.get(address) ?? 0;
    if (count >= limits.maxConnectionsPerClient) {
      refuse(
        socket,
        plainRawResponse(
          503,
          `too many open connections from ${address} (at most ${limits.maxConnectionsPerClient} per client); close some and retry`,
          headers(socket),
        ),
      );
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
    for (const listener of serve) listener.call(server, socket);
  });
}

/**
 * Answers `response` and closes the connection; what the client sent meanwhile is read and
 * dropped, so that closing does not reset the connection before the client reads the answer.
 */
function refuse(socket: Socket, response: string): void {
  socket.on("error", () => {});
  const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
  socket.once("close", () => clearTimeout(timer));
  socket.resume();
  socket.end(response);
}
