/**
 * Bounds on the connections a server holds, so that slow or greedy clients cannot starve the
 * others or use up the process's file descriptors (which the node needs for its own files):
 * deadlines for a request's headers and for the whole request, an idle keep-alive time, a limit
 * of open connections per remote address (a further one is answered 503 and closed) and one in
 * all, kept below the process's file-descriptor limit. At the total, a connection from an address
 * holding fewer than the most-connected one takes the place of that address's oldest connection
 * that is not being answered; otherwise it is closed at once.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
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
 * Holds `server` to the connection limits: beyond the per-client limit a new connection gets a 503
 * with `headers(socket)` and a plain-text reason, and never reaches the HTTP parser; at the total,
 * it takes the place of another connection (see {@link OpenConnections.makeRoom}) or is closed
 * at once.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  headers: (socket: Socket) => Record<string, string> = () => ({}),
): void {
  // Node's own limit only as a backstop: one above the total, so that a connection beyond the
  // total reaches the handler below, which may make room for it.
  server.maxConnections = limits.maxConnections + 1;
  const open = new OpenConnections();
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    open.answering(request, response);
  });
  const serve = server.listeners("connection") as ((socket: Socket) => void)[];
  server.removeAllListeners("connection");
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress ?? "";
    if (open.count(address) >= limits.maxConnectionsPerClient) {
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
    if (open.total >= limits.maxConnections && !open.makeRoom(address)) {
      socket.destroy();
      return;
    }
    open.add(address, socket);
    for (const listener of serve) listener.call(server, socket);
  });
}

/**
 * The open connections of a server by remote address, oldest first, and the request each is
 * being answered for.
 *
 * Fairness at the total: many addresses each holding connections that never finish a request
 * (slowloris) would otherwise keep every newcomer out, however low the per-address limit, as
 * long as there are enough addresses. So a connection from an address holding fewer connections
 * than the most-connected address, less one, closes that address's oldest connection that has
 * not sent a whole request (or is idle between requests), and takes its place. Connections
 * being answered (a request received whole, a header stream, a `listen`) are never closed, and
 * an address at or within one of the most connections makes no room: addresses converge to
 * equal shares, and a client with few connections always gets in.
 */
class OpenConnections {
  private readonly byAddress = new Map<string, Set<Socket>>();
  /** The request a connection is being answered for, by the connection's TCP socket. */
  private readonly requests = new WeakMap<Socket, IncomingMessage>();
  total = 0;

  count(address: string): number {
    return this.byAddress.get(address)?.size ?? 0;
  }

  add(address: string, socket: Socket): void {
    let sockets = this.byAddress.get(address);
    if (sockets === undefined) {
      sockets = new Set();
      this.byAddress.set(address, sockets);
    }
    sockets.add(socket);
    this.total++;
    socket.once("close", () => this.remove(address, socket));
  }

  /** Notes that `request` is being answered on its connection, until `response` ends. */
  answering(request: IncomingMessage, response: ServerResponse): void {
    // Over HTTPS the request's socket is the TLS socket around the TCP one the server counted.
    const tls = request.socket as Socket & { _parent?: Socket };
    const socket = tls._parent ?? tls;
    this.requests.set(socket, request);
    response.once("close", () => {
      if (this.requests.get(socket) === request) this.requests.delete(socket);
    });
  }

  /**
   * Closes the oldest unanswered connection of the most-connected address if `address` holds
   * fewer than it less one; whether it did.
   */
  makeRoom(address: string): boolean {
    const own = this.count(address);
    const heaviest = [...this.byAddress.entries()]
      .filter(([, sockets]) => sockets.size > own + 1)
      .sort((a, b) => b[1].size - a[1].size);
    for (const [other, sockets] of heaviest) {
      for (const socket of sockets) {
        const request = this.requests.get(socket);
        if (request?.complete === true) continue;
        this.remove(other, socket);
        socket.destroy();
        return true;
      }
    }
    return false;
  }

  private remove(address: string, socket: Socket): void {
    const sockets = this.byAddress.get(address);
    if (sockets === undefined || !sockets.delete(socket)) return;
    this.total--;
    if (sockets.size === 0) this.byAddress.delete(address);
  }
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
