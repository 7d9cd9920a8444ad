/**
 * The headers every response of the node carries, success or error, on every route (the
 * interface spec's common response headers, and the name deployed clients read the version
 * from). `x-server-timestamp` is the node's clock, so it moves with `braid dev time` as block
 * times do.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import type { NodePorts } from "../../node/ports.ts";
import { BRAID_VERSION } from "../../version.ts";

export function addCommonHeaders(app: FastifyInstance, clock: CommonHeadersClock): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(commonHeaders(request.raw.socket, clock));
    done();
  });
}

type CommonHeadersClock = Pick<NodePorts["clock"], "nowSeconds">;

/** The common headers of a response on `socket` (also those written before any route runs). */
export function commonHeaders(socket: Socket, clock: CommonHeadersClock): Record<string, string> {
  const address = socket.remoteAddress ?? "";
  const host = address.includes(":") ? `[${address}]` : address;
  return {
    "x-peer-addr": `${host}:${socket.remotePort ?? 0}`,
    "x-server-timestamp": String(Math.floor(clock.nowSeconds())),
    "x-service-node-version": BRAID_VERSION,
    "x-chainweb-node-version": BRAID_VERSION,
  };
}
