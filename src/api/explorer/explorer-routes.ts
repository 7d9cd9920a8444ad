/**
 * The explorer served by the node (docs/explorer.md): its page at `/`, its static files under
 * `/explorer/`, and its JSON under `/braid/api/` (explorer-api.ts). The files are read once
 * when the routes are registered, from the `assets/` folder beside this module (copied into
 * `dist/` by `scripts/copy-assets.mjs`); only the names found there are served.
 */
import { readdirSync, readFileSync } from "node:fs";
import { extname } from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";

import { HttpError } from "../http/errors.ts";
import { ExplorerApi, type ExplorerPeers, type ExplorerPorts } from "./explorer-api.ts";

const ASSETS_DIR = new URL("./assets/", import.meta.url);

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
};

/**
 * The page's own files only: no inline script, no other origin (the explorer works offline),
 * and connections only back to this node.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const JSON_TYPE = "application/json; charset=utf-8";

interface Asset {
  readonly type: string;
  readonly body: Buffer;
}

function loadAssets(): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(ASSETS_DIR)) {
    const type = CONTENT_TYPES[extname(name)];
    if (type !== undefined) {
      assets.set(name, { type, body: readFileSync(new URL(name, ASSETS_DIR)) });
    }
  }
  return assets;
}

/** `peers`: the node's P2P network, when it has one (a node started by the CLI). */
export function registerExplorerRoutes(
  app: FastifyInstance,
  node: ExplorerPorts,
  peers?: ExplorerPeers,
): void {
  const assets = loadAssets();
  const api = new ExplorerApi(node, peers);
  const sendAsset = (reply: FastifyReply, name: string) => {
    const asset = assets.get(name);
    if (asset === undefined)
      throw new HttpError(404, `the explorer has no file ${name.slice(0, 64)}`);
    return reply
      .type(asset.type)
      .header("content-security-policy", CONTENT_SECURITY_POLICY)
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "no-cache")
      .send(asset.body);
  };
  const json = (reply: FastifyReply, body: string) => reply.type(JSON_TYPE).send(body);

  app.get("/", (_request, reply) => sendAsset(reply, "index.html"));
  app.get("/explorer/:file", (request, reply) =>
    sendAsset(reply, (request.params as { file: string }).file),
  );

  app.get("/braid/api/block/:hash", (request, reply) =>
    json(reply, api.block((request.params as { hash: string }).hash)),
  );
  app.get("/braid/api/tx/:requestKey", (request, reply) =>
    json(reply, api.transaction((request.params as { requestKey: string }).requestKey)),
  );
  app.get("/braid/api/chain/:chain/tx/:requestKey/profile", async (request, reply) => {
    const { chain, requestKey } = request.params as { chain: string; requestKey: string };
    return json(reply, await api.profile(chain, requestKey));
  });
  app.get("/braid/api/account/:name", async (request, reply) =>
    json(reply, await api.account((request.params as { name: string }).name)),
  );
  app.get("/braid/api/blocks/recent", (_request, reply) => json(reply, api.recentBlocks()));
  app.get("/braid/api/blocks/with-transactions", (_request, reply) =>
    json(reply, api.blocksWithTransactions()),
  );
  app.get("/braid/api/mempool", (_request, reply) => json(reply, api.mempool()));
  app.get("/braid/api/peers", (_request, reply) => json(reply, api.peers()));
  app.get("/braid/api/module/:name", async (request, reply) =>
    json(reply, await api.module((request.params as { name: string }).name)),
  );
  app.get("/braid/api/search", async (request, reply) => {
    const { q } = (request.query ?? {}) as { q?: unknown };
    if (typeof q !== "string") throw new HttpError(400, "give the search text once, as ?q=");
    return json(reply, await api.search(q));
  });
}
