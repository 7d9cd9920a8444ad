/**
 * The node's routes. The contract command endpoints are served under both
 * `{base}/chain/{c}/contract/api/v1/` (the interface spec's paths) and
 * `{base}/chain/{c}/pact/api/v1/` (where Chainweb serves them and deployed clients call), with
 * `{base}` = `/chainweb/0.0/{network}`. An unknown network or chain is a 404 before the body is
 * looked at.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { NodePorts } from "../../node/ports.ts";
import { registerExplorerRoutes } from "../explorer/explorer-routes.ts";
import { whileClientWaits } from "../http/client-gone.ts";
import { bodyText } from "../http/json-body.ts";
import { registerMempoolRoutes } from "../p2p/mempool-routes.ts";
import { type P2PRouteParts, registerP2PRoutes } from "../p2p/p2p-routes.ts";
import { registerChainRoutes } from "./chain-routes.ts";
import type { ContractApi, ContractQuery } from "./contract-api.ts";
import type { DevControlsExposure } from "./dev-guard.ts";
import { registerDevRoutes } from "./dev-routes.ts";
import { registerHeaderStream } from "./header-stream.ts";
import { registerInfoRoutes } from "./info-routes.ts";
import { registerMakeBlocksRoute } from "./make-blocks-route.ts";
import { registerMiningRoutes } from "./mining-routes.ts";
import { BASE, chainHook, chainOf, JSON_TYPE } from "./request-parts.ts";
import { registerSpvRoutes } from "./spv-routes.ts";

/** The prefixes the contract endpoints are served under, after `{base}/chain/{c}/`. */
export const CONTRACT_API_PREFIXES = ["contract/api/v1", "pact/api/v1"] as const;

export function registerRoutes(
  app: FastifyInstance,
  node: NodePorts,
  api: ContractApi,
  devControls: DevControlsExposure,
  p2p?: P2PRouteParts,
): void {
  const chainId = (request: FastifyRequest) => chainOf(node.network, request);
  const checkChain = chainHook(node.network);
  const text = (request: FastifyRequest) => bodyText(request.body, request.headers["content-type"]);
  const query = (request: FastifyRequest) => (request.query ?? {}) as ContractQuery;
  const json = (reply: FastifyReply, body: string) => reply.type(JSON_TYPE).send(body);

  // Chainweb's liveness probe (root path, plain text).
  app.get("/health-check", (_request, reply) =>
    reply.type("text/plain; charset=utf-8").send("Health check OK.\n"),
  );

  registerChainRoutes(app, node);
  registerHeaderStream(app, node);
  registerInfoRoutes(app, node, p2p?.network);
  registerSpvRoutes(app, node);
  registerMiningRoutes(app, node);
  registerExplorerRoutes(app, node, p2p?.network);
  registerDevRoutes(app, node, devControls);
  registerMakeBlocksRoute(app, node, devControls);
  registerMempoolRoutes(app, node);
  if (p2p !== undefined) registerP2PRoutes(app, node, p2p);

  for (const prefix of CONTRACT_API_PREFIXES) {
    const path = (endpoint: string) => `${BASE}/chain/:chain/${prefix}/${endpoint}`;
    const post = (
      endpoint: string,
      handle: (request: FastifyRequest, reply: FastifyReply) => unknown,
    ) => app.post(path(endpoint), { onRequest: checkChain }, handle);
    post("send", async (request, reply) =>
      json(reply, await api.send(chainId(request), text(request))),
    );
    post("private", async (request, reply) =>
      json(reply, await api.private(chainId(request), text(request))),
    );
    post("poll", (request, reply) =>
      json(reply, api.poll(chainId(request), text(request), query(request))),
    );
    post("local", async (request, reply) =>
      json(reply, await api.local(chainId(request), text(request), query(request))),
    );
    post("listen", async (request, reply) => {
      const chain = chainId(request);
      const body = text(request);
      // The client going away ends the wait.
      return json(reply, await whileClientWaits(reply, (gone) => api.listen(chain, body, gone)));
    });
  }
}
