/**
 * Every refusal is a plain-text reason: our own `HttpError`s, fastify's own errors (an oversize
 * body, a bad content length) mapped to 400, unknown paths to 404; a failing disk is a 503
 * naming the reason (`disk full: …`), stored bytes found damaged a 500 that says so (the node
 * logged it when it found them). Anything else is a fault of the server: 500, logged.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance } from "fastify";
import { CorruptPayloadError } from "../../chain/db/index.ts";
import { StorageUnavailable, storageFailureReason } from "../../pact/db/index.ts";
import { HttpError } from "./errors.ts";
import { cutText } from "./quote.ts";

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
  app.setNotFoundHandler((request, reply) => {
    reply
      .code(404)
      .type(TEXT)
      .send(`no such endpoint: ${request.method} ${cutText(request.url)}`);
  });
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses before any route sees it
 * (headers above Node's 16 KiB limit: 431; anything malformed: 400) gets a plain-text reason, as
 * every other refusal, instead of fastify's JSON. The connection is closed.
 */
export function plainClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return;
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const body =
    status === 431
      ? "the request headers are larger than the server's limit"
      : "malformed HTTP request";
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: ${TEXT}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
