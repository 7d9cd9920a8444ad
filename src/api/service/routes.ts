/**
 * The node's routes. The contract command endpoints are served under both
 * `{base}/chain/{c}/contract/api/v1/` (the interface spec's paths) and
 * `{base}/chain/{c}/pact/api/v1/` (where Chainweb serves them and deployed clients call), with
 * `{base}` = `/chainweb/0.0/{network}`. An unknown network or chain is a 404 before the body is
 * looked at.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { BraidNode } from "../../node/node.ts";
import { HttpError } from "../http/errors.ts";
import { bodyText } from "../http/json-body.ts";
import { registerChainRoutes } from "./chain-routes.ts";
import type { ContractApi, ContractQuery } from "./contract-api.ts";
import { registerHeaderStream } from "./header-stream.ts";
import { registerInfoRoutes } from "./info-routes.ts";
import { registerMiningRoutes } from "./mining-routes.ts";
import { registerSpvRoutes } from "./spv-routes.ts";

const JSON_TYPE = "application/json; charset=utf-8";
/** The prefixes the contract endpoints are served under, after `{base}/chain/{c}/`. */
export const CONTRACT_API_PREFIXES = ["contract/api/v1", "pact/api/v1"] as const;
const CHAIN_ID = /^(0|[1-9][0-9]{0,8})$/;

interface ChainParams {
  readonly network: string;
  readonly chain: string;
}

export function registerRoutes(app: FastifyInstance, node: BraidNode, api: ContractApi): void {
  const chainCount = node.chains.length;
  /** The chain id of a request whose network and chain exist; a 404 otherwise. */
  const chainOf = (request: FastifyRequest): number => {
    const { network, chain } = request.params as ChainParams;
    if (network !== node.options.network) {
      throw new HttpError(
        404,
        `no such network: ${JSON.stringify(network.slice(0, 64))}; this node runs ${node.options.network}`,
      );
    }
    if (!CHAIN_ID.test(chain) || Number(chain) >= chainCount) {
      throw new HttpError(
        404,
        `no such chain: ${JSON.stringify(chain.slice(0, 64))}; the chains are 0 to ${chainCount - 1}`,
      );
    }
    return Number(chain);
  };
  const checkChain = (request: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) => {
    try {
      chainOf(request);
      done();
    } catch (e) {
      done(e as Error);
    }
  };
  const text = (request: FastifyRequest) => bodyText(request.body, request.headers["content-type"]);
  const query = (request: FastifyRequest) => (request.query ?? {}) as ContractQuery;
  const json = (reply: FastifyReply, body: string) => reply.type(JSON_TYPE).send(body);

  // Chainweb's liveness probe (root path, plain text).
  app.get("/health-check", (_request, reply) =>
    reply.type("text/plain; charset=utf-8").send("Health check OK.\n"),
  );

  registerChainRoutes(app, node);
  registerHeaderStream(app, node);
  registerInfoRoutes(app, node);
  registerSpvRoutes(app, node);
  registerMiningRoutes(app, node);

  for (const prefix of CONTRACT_API_PREFIXES) {
    const path = (endpoint: string) => `/chainweb/0.0/:network/chain/:chain/${prefix}/${endpoint}`;
    const post = (
      endpoint: string,
      handle: (request: FastifyRequest, reply: FastifyReply) => unknown,
    ) => app.post(path(endpoint), { onRequest: checkChain }, handle);
    post("send", async (request, reply) =>
      json(reply, await api.send(chainOf(request), text(request))),
    );
    post("private", async (request, reply) =>
      json(reply, await api.private(chainOf(request), text(request))),
    );
    post("poll", (request, reply) =>
      json(reply, api.poll(chainOf(request), text(request), query(request))),
    );
    post("local", async (request, reply) =>
      json(reply, await api.local(chainOf(request), text(request), query(request))),
    );
    post("listen", async (request, reply) => {
      const chainId = chainOf(request);
      const body = text(request);
      // The client going away ends the wait.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) gone.abort();
      };
      reply.raw.once("close", onClose);
      try {
        return json(reply, await api.listen(chainId, body, gone.signal));
      } finally {
        reply.raw.off("close", onClose);
      }
    });
  }
}
