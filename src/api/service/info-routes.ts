/**
 * `GET /info` (NodeInfo, as chainweb-node's `RestAPI/NodeInfo.hs` writes it) and
 * `GET {base}/cut[?maxheight=]` (CutHashes, chainweb-wire.md §9).
 */
import type { FastifyInstance } from "fastify";
import type { BlockHeader } from "../../chain/header/types.ts";
import { allChainIds, genesisHeight, graphAt } from "../../chain/version/version.ts";
import { word256ToBytes } from "../../chain/word256.ts";
import { encodeBase64Url, sha512t256Parts } from "../../crypto/index.ts";
import type { BraidNode } from "../../node/node.ts";
import { BRAID_VERSION } from "../../version.ts";
import { HttpError } from "../http/errors.ts";
import { BASE, chainHook, JSON_TYPE, negotiate } from "./request-parts.ts";

const WORD256_MAX = (1n << 256n) - 1n;

export function nodeInfo(node: BraidNode): unknown {
  const v = node.version;
  const cut = node.chainDb.cut();
  const height = Math.max(0, ...[...cut.values()].map((h) => h.height));
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
  };
}

/**
 * The cut as CutHashes JSON. With `maxheight` (a bound on the cut height, the sum of the chain
 * heights) each head is stepped back, highest first, until the sum is within it.
 */
export function cutJson(node: BraidNode, maxheight?: number): string {
  const heads = node.chainDb.cut();
  if (maxheight !== undefined) {
    const sum = () => [...heads.values()].reduce((s, h) => s + h.height, 0);
    while (sum() > maxheight) {
      let top: BlockHeader | undefined;
      for (const h of heads.values()) if (top === undefined || h.height > top.height) top = h;
      const parent = top === undefined ? undefined : node.chainDb.header(top.parent);
      if (top === undefined || parent === undefined) break;
      heads.set(top.chainId, parent);
    }
  }
  const ids = [...heads.keys()].sort((a, b) => a - b);
  const hashes: Record<string, { height: number; hash: string }> = {};
  let weight = 0n;
  let height = 0;
  for (const c of ids) {
    const h = heads.get(c)!;
    hashes[String(c)] = { height: h.height, hash: encodeBase64Url(h.hash) };
    weight += h.weight;
    height += h.height;
  }
  const id = sha512t256Parts(ids.map((c) => heads.get(c)!.hash));
  return JSON.stringify({
    hashes,
    origin: null,
    weight: encodeBase64Url(word256ToBytes(weight & WORD256_MAX)),
    height,
    instance: node.version.name,
    id: encodeBase64Url(id),
  });
}

export function registerInfoRoutes(app: FastifyInstance, node: BraidNode): void {
  app.get("/info", (request, reply) => {
    negotiate(request, ["application/json"]);
    return reply.type(JSON_TYPE).send(JSON.stringify(nodeInfo(node)));
  });
  app.get(`${BASE}/cut`, { onRequest: chainHook(node, false) }, (request, reply) => {
    negotiate(request, ["application/json"]);
    const { maxheight } = (request.query ?? {}) as Record<string, unknown>;
    if (
      maxheight !== undefined &&
      !(typeof maxheight === "string" && /^[0-9]{1,15}$/.test(maxheight))
    ) {
      throw new HttpError(400, "maxheight must be an integer >= 0");
    }
    return reply
      .type(JSON_TYPE)
      .send(cutJson(node, maxheight === undefined ? undefined : Number(maxheight)));
  });
}
