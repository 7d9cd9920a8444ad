/**
 * Every refusal is a plain-text reason: our own `HttpError`s, fastify's own errors (an oversize
 * body, a bad content length) mapped to 400, unknown paths to 404, a known path asked with a
 * method it does not take to 405 with `Allow` naming those it does; a failing disk is a 503
 * naming the reason (`disk full: …`), stored bytes found damaged a 500 that says so (the node
 * logged it when it found them). Anything else is a fault of the server: 500, logged.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CorruptPayloadError } from "../../chain/db/index.ts";
import { StorageUnavailable, storageFailureReason } from "../../pact/db/index.ts";
import { HttpError } from "./errors.ts";
import { cutText, quoteText } from "./quote.ts";

const TEXT = "text/plain; charset=utf-8";

export function sendPlainErrors(
  app: FastifyInstance,
  bodyLimit: number,
  onFault: (e: unknown) => void,
): void {
  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      reply.code(error.status).type(TEXT).send(error.message);
      return;
    }
    if (error instanceof StorageUnavailable) {
      reply.code(503).type(TEXT).send(error.message);
      return;
    }
    if (error instanceof CorruptPayloadError) {
      reply.code(500).type(TEXT).send(error.message);
      return;
    }
    const storage = storageFailureReason(error);
    if (storage !== null) {
      onFault(error);
      reply.code(503).type(TEXT).send(`${storage}: the request could not be carried out`);
      return;
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
      reply
        .code(400)
        .type(TEXT)
        .send(`the request body is larger than the limit of ${bodyLimit} bytes`);
      return;
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      reply.code(400).type(TEXT).send(error.message);
      return;
    }
    onFault(error);
    reply
      .code(500)
      .type(TEXT)
      .send(`internal error while handling ${request.method} ${cutText(request.url)}`);
  });
  const routeMethods = new Set<string>();
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) routeMethods.add(method);
  });
  // Before the body is read, so that a body the path would refuse does not hide the 405; a CORS
  // preflight (OPTIONS) is left to the CORS hook, which answers it on any path.
  app.addHook("onRequest", (request, reply, done) => {
    const allowed =
      request.is404 && request.method !== "OPTIONS"
        ? methodsTaken(app, routeMethods, request.url)
        : [];
    if (allowed.length === 0) {
      done();
      return;
    }
    reply
      .code(405)
      .header("allow", allowed.join(", "))
      .type(TEXT)
      .send(
        `method ${request.method} is not allowed on ${cutText(request.url)}; it takes ${allowed.join(", ")}`,
      );
  });
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .type(TEXT)
      .send(`no such endpoint: ${request.method} ${cutText(request.url)}`);
  });
}

/** The methods among `methods` that some route of `app` takes on `url`'s path, in order. */
function methodsTaken(app: FastifyInstance, methods: ReadonlySet<string>, url: string): string[] {
  const query = url.indexOf("?");
  const path = query < 0 ? url : url.slice(0, query);
  return [...methods].filter((method) => app.findRoute({ method, url: path }) !== null).sort();
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses before any route sees it
 * gets a plain-text reason with `headers(socket)`, as every other refusal, instead of fastify's
 * JSON: headers above Node's 16 KiB limit 431, headers or a request not received in time 408,
 * anything malformed 400 naming the parser's reason. The connection is closed.
 */
export function plainClientErrors(
  headers: (socket: Socket) => Record<string, string> = () => ({}),
): (error: ParserError, socket: Socket) => void {
  return (error, socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    // A response already under way cannot be followed by another (as Node's own handler).
    const started = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && started?.headersSent !== true) {
      const [status, body] = clientErrorAnswer(error);
      socket.write(plainRawResponse(status, body, headers(socket)));
    }
    socket.destroy();
  };
}

/**
 * Fastify's `frameworkErrors`: a request its router refuses before any hook runs (a path that is
 * not valid percent-encoding) gets a plain-text 400 with `headers(socket)` instead of JSON.
 */
export function plainFrameworkErrors(
  headers: (socket: Socket) => Record<string, string> = () => ({}),
): (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void {
  return (error, request, reply) => {
    const reason =
      error.code === "FST_ERR_BAD_URL"
        ? `the path ${quoteText(request.url)} is not valid percent-encoding`
        : error.message;
    reply.code(400).headers(headers(request.raw.socket)).type(TEXT).send(reason);
  };
}

/** An error of Node's HTTP parser (`HPE_…` codes, with llhttp's reason) or of its deadlines. */
export type ParserError = Error & { code?: string; reason?: string };

function clientErrorAnswer(error: ParserError): [number, string] {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return [431, "the request headers are larger than the server's limit"];
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return [408, "the request was not received in time; the connection is closed"];
  }
  const reason = error.code?.startsWith("HPE_") === true ? error.reason : undefined;
  return [
    400,
    reason === undefined ? "malformed HTTP request" : `malformed HTTP request: ${reason}`,
  ];
}

/** A whole HTTP/1.1 response closing its connection, with a plain-text body. */
export function plainRawResponse(
  status: number,
  body: string,
  headers: Record<string, string>,
): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status]}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(
    "connection: close",
    `content-type: ${TEXT}`,
    `content-length: ${Buffer.byteLength(body)}`,
    "",
    body,
  );
  return lines.join("\r\n");
}
