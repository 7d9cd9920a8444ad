/**
 * The headers every response of the node carries, success or error, on every route (the
 * interface spec's common response headers, and the name deployed clients read the version
 * from).
 */
import type { FastifyInstance } from "fastify";
import { BRAID_VERSION } from "../../version.ts";

export function addCommonHeaders(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    const socket = request.raw.socket;
    const address = socket.remoteAddress ?? "";
    const host = address.includes(":") ? `[${address}]` : address;
    reply.header("x-peer-addr", `${host}:${socket.remotePort ?? 0}`);
    reply.header("x-server-timestamp", String(Math.floor(Date.now() / 1000)));
    reply.header("x-service-node-version", BRAID_VERSION);
    reply.header("x-chainweb-node-version", BRAID_VERSION);
    done();
  });
}
