/**
 * The P2P API's own routes (Chainweb's `PUT /cut`, `GET`/`PUT /cut/peer` and `GET /config`),
 * served from the node's network (src/p2p/network.ts) on the service port beside the rest of
 * the API (`GET /cut`, the header and payload endpoints are the service API's own).
 *
 * - `PUT /cut`: a cut with a non-null origin; 204 from a peer, and synced from it when it has
 *   blocks this node lacks; 401 `Unknown peer` (as chainweb-node answers) from an origin that is
 *   not one (which the network verifies meanwhile when the cut came from the origin's address).
 * - `GET /cut/peer`: a page of the peer database (`limit`, `next` as `inclusive:N`).
 * - `PUT /cut/peer`: a peer announcing itself; 204 once it answers at the address it gave, else
 *   400 with the reason.
 * - `GET`/`PUT /chain/{c}/mempool/peer`: the same, for a chain's mempool network, which is the
 *   cut network here (Braid keeps one peer database; mempools are synced with every peer).
 * - `GET /config`: the node's configuration, nothing secret in it.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { decodeCutHashes } from "../../chain/cut/cut.ts";
import type { NodePorts } from "../../node/ports.ts";
import type { P2PNetwork } from "../../p2p/network.ts";
import { decodePeerInfo, encodePeerInfo } from "../../p2p/peer-info.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { bodyText, parseJsonBody } from "../http/json-body.ts";
import { BASE, chainHook, JSON_TYPE } from "../service/request-parts.ts";

/** The most peers one page of `GET /cut/peer` holds. */
export const MAX_PEER_PAGE_LIMIT = 1000;

export interface P2PRouteParts {
  readonly network: P2PNetwork;
  /** What `GET /config` answers. */
  readonly config: unknown;
}

export function registerP2PRoutes(
  app: FastifyInstance,
  { network: served }: Pick<NodePorts, "network">,
  { network, config }: P2PRouteParts,
): void {
  const onRequest = chainHook(served, false);
  const json = (request: FastifyRequest) =>
    parseJsonBody(bodyText(request.body, request.headers["content-type"]));

  app.put(`${BASE}/cut`, { onRequest }, async (request, reply) => {
    const value = json(request);
    const cut = decodeCutHashes(value, served.chainCount);
    if (typeof cut === "string") throw badRequest(cut);
    const origin = decodePeerInfo((value as { origin?: unknown }).origin);
    if (typeof origin === "string") throw badRequest(`"origin": ${origin}`);
    if (!network.receiveCut(cut, origin, request.socket.remoteAddress ?? "")) {
      throw new HttpError(401, "Unknown peer");
    }
    return reply.code(204).send();
  });

  const peersPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const { limit, next } = (request.query ?? {}) as { limit?: string; next?: string };
    const size = limit === undefined ? MAX_PEER_PAGE_LIMIT : Number(limit);
    if (!/^\d+$/.test(limit ?? "0") || size > MAX_PEER_PAGE_LIMIT) {
      throw badRequest(`"limit" must be an integer from 0 to ${MAX_PEER_PAGE_LIMIT}`);
    }
    const from = next === undefined ? 0 : Number(/^inclusive:(\d+)$/.exec(next)?.[1] ?? Number.NaN);
    if (!Number.isSafeInteger(from)) throw badRequest('"next" must be inclusive:<index>');
    const peers = network.peers.all();
    const items = peers.slice(from, from + size).map((p) => encodePeerInfo(p.info));
    const more = from + size < peers.length;
    return reply.type(JSON_TYPE).send(
      JSON.stringify({
        limit: items.length,
        items,
        next: more ? `inclusive:${from + size}` : null,
      }),
    );
  };
  const announced = async (request: FastifyRequest, reply: FastifyReply) => {
    const info = decodePeerInfo(json(request));
    if (typeof info === "string") throw badRequest(info);
    const problem = await network.addAnnounced(info);
    if (problem !== null) throw badRequest(`Invalid hostaddress: ${problem}`);
    return reply.code(204).send();
  };
  app.get(`${BASE}/cut/peer`, { onRequest }, peersPage);
  app.put(`${BASE}/cut/peer`, { onRequest }, announced);
  const onChainRequest = chainHook(served);
  app.get(`${BASE}/chain/:chain/mempool/peer`, { onRequest: onChainRequest }, peersPage);
  app.put(`${BASE}/chain/:chain/mempool/peer`, { onRequest: onChainRequest }, announced);

  app.get(`${BASE}/config`, { onRequest }, async (_request, reply) =>
    reply.type(JSON_TYPE).send(JSON.stringify(config)),
  );
}
