/**
 * Every refusal is a plain-text reason: our own `HttpError`s, fastify's own errors (an oversize
 * body, a bad content length) mapped to 400, unknown paths to 404. Anything else is a fault of
 * the server: 500, logged.
 */
import type { FastifyError, FastifyInstance } from "fastify";
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
