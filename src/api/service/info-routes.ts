/**
 * `GET /info` (NodeInfo, as chainweb-node's `RestAPI/NodeInfo.hs` writes it, plus Braid's
 * `braidPeers` on a node with a P2P network) and `GET {base}/cut[?maxheight=]` (CutHashes,
 * chainweb-wire.md §9).
 */
import type { FastifyInstance } from "fastify";
import { encodeCutHashes, limitCutHeight } from "../../chain/cut/cut.ts";
import { allChainIds, genesisHeight, graphAt } from "../../chain/version/version.ts";
import type { NodePorts } from "../../node/ports.ts";
import type { P2PNetwork } from "../../p2p/network.ts";
import { BRAID_VERSION } from "../../version.ts";
import { HttpError } from "../http/errors.ts";
import { BASE, chainHook, JSON_TYPE, negotiate } from "./request-parts.ts";

/** What `/info` reads of the node's P2P network: its peers and where their cuts stand. */
export type InfoPeers = Pick<P2PNetwork, "status">;

/** NodeInfo; with `peers` (a node with a P2P network), Braid's `braidPeers` after its fields. */
export function nodeInfo(
  { network, heads }: Pick<NodePorts, "network" | "heads">,
  peers?: InfoPeers,
): unknown {
  const v = network.version;
  const height = Math.max(0, ...[...heads.cut().values()].map((h) => h.height));
  const graphs = [...v.graphs]
    .sort((a, b) => b.fromHeight - a.fromHeight)
    .map((epoch) => [
      epoch.fromHeight,
      [...epoch.graph.adjacency.entries()].map(([c, adj]) => [c, [...adj]]),
    ]);
  const current = graphAt(v, height);
  return {
    nodeVersion: v.name,
    nodePackageVersion: BRAID_VERSION,
    nodeApiVersion: "0.0",
    nodeChains: current.chainIds.map(String),
    nodeNumberOfChains: current.chainIds.length,
    nodeGraphHistory: graphs,
    nodeLatestBehaviorHeight: Math.max(0, ...Object.values(v.ruleHeights)),
    nodeGenesisHeights: allChainIds(v).map((c) => [String(c), genesisHeight(v, c)]),
    nodeHistoricalChains: [...v.graphs]
      .sort((a, b) => a.fromHeight - b.fromHeight)
      .map((epoch) => [
        epoch.fromHeight,
        [...epoch.graph.adjacency.entries()].map(([c, adj]) => [c, [...adj]]),
      ]),
    nodeBlockDelay: v.blockDelayMicros,
    ...(peers === undefined ? {} : { braidPeers: peers.status() }),
  };
}

export function registerInfoRoutes(
  app: FastifyInstance,
  node: Pick<NodePorts, "network" | "heads" | "blocks">,
  peers?: InfoPeers,
): void {
  const { network, heads, blocks } = node;
  app.get("/info", (request, reply) => {
    negotiate(request, ["application/json"]);
    return reply.type(JSON_TYPE).send(JSON.stringify(nodeInfo(node, peers)));
  });
  app.get(`${BASE}/cut`, { onRequest: chainHook(network, false) }, (request, reply) => {
    negotiate(request, ["application/json"]);
    const { maxheight } = (request.query ?? {}) as Record<string, unknown>;
    if (
      maxheight !== undefined &&
      !(typeof maxheight === "string" && /^[0-9]{1,15}$/.test(maxheight))
    ) {
      throw new HttpError(400, "maxheight must be an integer >= 0");
    }
    const cut =
      maxheight === undefined
        ? heads.cut()
        : limitCutHeight(network.version, heads.cut(), Number(maxheight), (head, height) =>
            blocks.ancestorAt(head.hash, height),
          );
    return reply.type(JSON_TYPE).send(encodeCutHashes(cut, network.version.name, null));
  });
}
