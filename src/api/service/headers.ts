/**
 * The headers every response of the node carries, success or error, on every route (the
 * interface spec's common response headers, and the name deployed clients read the version
 * from). `x-server-timestamp` is the node's clock, so it moves with `braid dev time` as block
 * times do.
 */
import type { FastifyInstance } from "fastify";
import type { NodePorts } from "../../node/ports.ts";
import { BRAID_VERSION } from "../../version.ts";

export function addCommonHeaders(
  app: FastifyInstance,
  clock: Pick<NodePorts["clock"], "nowSeconds">,
): void {
  app.addHook("onRequest", (request, reply, done) => {
    const socket = request.raw.socket;
    const address = socket.remoteAddress ?? "";
    const host = address.includes(":") ? `[${address}]` : address;
    reply.header("x-peer-addr", `${host}:${socket.remotePort ?? 0}`);
    reply.header("x-server-timestamp", String(Math.floor(clock.nowSeconds())));
    reply.header("x-service-node-version", BRAID_VERSION);
    reply.header("x-chainweb-node-version", BRAID_VERSION);
    done();
  });
}
