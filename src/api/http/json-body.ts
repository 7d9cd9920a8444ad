/**
 * Request bodies: only `application/json`, read as text up to a size limit and at most
 * `MAX_READ_BYTES_PER_TURN` a turn of the event loop together with the others (read-pacing.ts),
 * parsed by the route (so a malformed body gets our message, and routes that report on malformed
 * JSON can). Any other content type is refused with a 400 that names it; a `Content-Encoding`
 * other than `identity` (a compressed body, which would otherwise be read as if it were text)
 * with a 415.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyInstance } from "fastify";
import { jsonObjectText, jsonText } from "../../command/index.ts";
import { paceRead } from "../../p2p/read-pacing.ts";
import { badRequest, HttpError } from "./errors.ts";
import { quoteText } from "./quote.ts";

export const JSON_CONTENT_TYPE = "application/json";

/**
 * Replaces fastify's body parsers: JSON bodies arrive as strings, others are refused, and so is
 * any content coding but `identity`.
 */
export function acceptJsonBodiesOnly(app: FastifyInstance): void {
  app.addHook("preParsing", (request, _reply, payload, done) => {
    const coding = request.headers["content-encoding"];
    if (coding !== undefined && !isIdentity(coding)) {
      done(
        new HttpError(
          415,
          `Content-Encoding ${quoteText(coding)} is not supported: send the body as it is (identity)`,
        ),
      );
      return;
    }
    if (hasBody(request.headers)) {
      // Paused until the body parser starts reading, so no chunk comes before its listener.
      payload.pause();
      payload.on("data", (chunk: Buffer) => paceRead(payload, chunk.length));
    }
    done(null, payload);
  });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(JSON_CONTENT_TYPE, { parseAs: "string" }, (_request, body, done) => {
    done(null, body);
  });
  app.addContentTypeParser("*", (request, _payload, done) => {
    done(wrongContentType(request.headers["content-type"]), undefined);
  });
}

/** Whether a request says it carries a body (HTTP/1.1: a length or a chunked transfer). */
function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined;
}

/** `identity`, or a list of nothing else (`identity, identity`). */
function isIdentity(coding: string): boolean {
  return coding.split(",").every((c) => c.trim().toLowerCase() === "identity");
}

export function wrongContentType(contentType: string | undefined) {
  return badRequest(
    contentType === undefined
      ? `the request needs the header Content-Type: ${JSON_CONTENT_TYPE}`
      : `Content-Type must be ${JSON_CONTENT_TYPE}, got ${quoteText(contentType)}`,
  );
}

/** The body text of a request (a JSON request without a body has none). */
export function bodyText(body: unknown, contentType: string | undefined): string {
  if (typeof body === "string") return body;
  if (contentType === undefined) throw wrongContentType(undefined);
  return "";
}

/** Parses a JSON body; a 400 naming the problem when it is not JSON (command-body.ts). */
export function parseJsonBody(text: string): unknown {
  const json = jsonText(text);
  if (!json.ok) throw badRequest(json.message);
  return json.value;
}

/** The body as a JSON object; a 400 naming what it was otherwise (command-body.ts). */
export function jsonObjectBody(text: string, expected: string): Record<string, unknown> {
  const body = jsonObjectText(text, expected);
  if (!body.ok) throw badRequest(body.message);
  return body.value;
}
