/**
 * CORS for browser tools: any origin may call GET and POST with a JSON body; preflight requests
 * get their answer without reaching a route. Routes marked {@link SAME_ORIGIN_ONLY} (the node's
 * development controls) get no CORS header and no preflight answer, so no page of another
 * origin can call them.
 */
import type { FastifyInstance } from "fastify";

/** How long a browser may cache a preflight answer (one day, as Pact's server). */
export const CORS_MAX_AGE_SECONDS = 86_400;

/** The route `config` of routes that other origins may not call. */
export const SAME_ORIGIN_ONLY = { sameOriginOnly: true } as const;

export function allowCrossOrigin(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const config = request.routeOptions.config as { sameOriginOnly?: boolean } | undefined;
    if (config?.sameOriginOnly === true) {
      done();
      return;
    }
    reply.header("access-control-allow-origin", "*");
    if (request.method === "OPTIONS") {
      reply
        .code(204)
        .header("access-control-allow-methods", "GET, POST, OPTIONS")
        .header("access-control-allow-headers", "content-type, authorization")
        .header("access-control-max-age", String(CORS_MAX_AGE_SECONDS))
        .send();
      return;
    }
    done();
  });
}
