/**
 * The HTTP face of the development server: `/api/v1/{send,poll,listen,local,private,verify}`
 * (POST, JSON bodies) and `GET /version`. Routes only move text between HTTP and the service.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BRAID_VERSION, PACT_VERSION } from "../../version.ts";
import { bodyText } from "../http/json-body.ts";
import type { DevService, LocalQuery } from "./service.ts";

const JSON_TYPE = "application/json; charset=utf-8";

export function registerRoutes(app: FastifyInstance, service: DevService): void {
  const text = (request: FastifyRequest) => bodyText(request.body, request.headers["content-type"]);
  const json = (reply: FastifyReply, body: string) => reply.type(JSON_TYPE).send(body);

  app.post("/api/v1/send", async (request, reply) =>
    json(reply, await service.send(text(request))),
  );
  app.post("/api/v1/poll", (request, reply) => json(reply, service.poll(text(request))));
  app.post("/api/v1/local", async (request, reply) =>
    json(reply, await service.local(text(request), request.query as LocalQuery)),
  );
  app.post("/api/v1/private", async (request, reply) =>
    json(reply, await service.private(text(request))),
  );
  app.post("/api/v1/verify", async (request, reply) =>
    json(reply, await service.verify(text(request))),
  );
  app.post("/api/v1/listen", async (request, reply) => {
    const body = text(request);
    // The client going away ends the wait.
    const gone = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort();
    };
    reply.raw.once("close", onClose);
    const result = await service.listen(body, gone.signal);
    reply.raw.off("close", onClose);
    return json(reply, result);
  });
  app.get("/version", (_request, reply) =>
    reply
      .type("text/plain; charset=utf-8")
      .header("x-braid-version", BRAID_VERSION)
      .send(`pact version ${PACT_VERSION}`),
  );
}
