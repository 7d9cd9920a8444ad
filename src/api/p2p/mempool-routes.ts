/**
 * Chainweb's mempool P2P endpoints under `{base}/chain/{c}/mempool/` (docs/node.md, "Mempool P2P
 * endpoints"), as chainweb-node serves them:
 *
 * - `POST getPending[?nonce=&since=]`: the pending request keys, all of them or (with both
 *   parameters, this run's nonce and a recent `since`) those added since, and the new mark;
 * - `POST member`, `POST lookup`: a body of request keys, at most {@link MAX_MEMPOOL_QUERY_KEYS};
 * - `PUT insert`: a body of transaction texts, at most {@link MAX_MEMPOOL_INSERT_COMMANDS}. A text
 *   that is not a command refuses the whole body (400, nothing inserted); every command goes
 *   through `send`'s admission rules on its own, and one they refuse (or whose signature is
 *   wrong) is left out silently: the answer is 200 with an empty body either way, as
 *   chainweb-node's checked insert answers.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { MAX_PENDING_COMMANDS, type MempoolMark, type NodePorts } from "../../node/ports.ts";
import {
  encodeLookup,
  encodePending,
  parseInt64,
  parseTransactionTexts,
} from "../../p2p/mempool-wire.ts";
import { badRequest } from "../http/errors.ts";
import { bodyText, parseJsonBody } from "../http/json-body.ts";
import { describeBodyValue, quoteText } from "../http/quote.ts";
import { requestKey } from "../http/request-keys.ts";
import { BASE, chainHook, chainOf, JSON_TYPE } from "../service/request-parts.ts";

/** The most request keys one `member` or `lookup` may ask about: a whole mempool's. */
export const MAX_MEMPOOL_QUERY_KEYS = MAX_PENDING_COMMANDS;
/** The most transactions one `insert` may carry (chainweb-node pushes at most 1,024 at a time). */
export const MAX_MEMPOOL_INSERT_COMMANDS = 1024;

export function registerMempoolRoutes(
  app: FastifyInstance,
  node: Pick<NodePorts, "network" | "commands" | "mempools">,
): void {
  const path = (endpoint: string) => `${BASE}/chain/:chain/mempool/${endpoint}`;
  const options = { onRequest: chainHook(node.network) };
  const chainId = (request: FastifyRequest) => chainOf(node.network, request);
  const body = (request: FastifyRequest) =>
    parseJsonBody(bodyText(request.body, request.headers["content-type"]));

  app.post(path("getPending"), options, (request, reply) => {
    const pending = node.mempools.pending(chainId(request), markOf(request));
    return reply.type(JSON_TYPE).send(encodePending(pending));
  });

  app.post(path("member"), options, (request, reply) => {
    const keys = keysOf(body(request));
    return reply.type(JSON_TYPE).send(JSON.stringify(node.mempools.member(chainId(request), keys)));
  });

  app.post(path("lookup"), options, (request, reply) => {
    const keys = keysOf(body(request));
    return reply.type(JSON_TYPE).send(encodeLookup(node.mempools.lookup(chainId(request), keys)));
  });

  app.put(path("insert"), options, async (request, reply) => {
    const chain = chainId(request);
    const texts = transactionTexts(body(request));
    const parsed = await node.commands.admitting(chain, () => parseTransactionTexts(texts));
    const undecodable = parsed.undecodable[0];
    if (undecodable !== undefined) {
      throw badRequest(`transaction ${undecodable.index} is not a command: ${undecodable.reason}`);
    }
    node.mempools.insert(chain, parsed.commands);
    return reply.type(JSON_TYPE).send("");
  });
}

/** `[nonce, since]` when both are given (as chainweb-node reads them); a 400 for a bad one. */
function markOf(request: FastifyRequest): MempoolMark | undefined {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const int64 = (name: string): bigint | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== "string") {
      throw badRequest(`the query parameter ${name} is given more than once`);
    }
    const parsed = parseInt64(value);
    if (parsed === null) {
      throw badRequest(`${name} must be a 64-bit integer, got ${quoteText(value)}`);
    }
    return parsed;
  };
  const nonce = int64("nonce");
  const since = int64("since");
  return nonce === undefined || since === undefined ? undefined : { nonce, since };
}

/** The request keys of a `member` or `lookup` body. */
function keysOf(value: unknown): string[] {
  if (!Array.isArray(value))
    throw badRequest("the request body must be a JSON array of request keys");
  if (value.length > MAX_MEMPOOL_QUERY_KEYS) {
    throw badRequest(
      `the body has ${value.length} request keys; at most ${MAX_MEMPOOL_QUERY_KEYS} are accepted per request`,
    );
  }
  return value.map((key, i) => requestKey(key, `request key ${i}`));
}

/** The transaction texts of an `insert` body. */
function transactionTexts(value: unknown): string[] {
  if (!Array.isArray(value)) {
    throw badRequest("the request body must be a JSON array of transaction texts (strings)");
  }
  if (value.length > MAX_MEMPOOL_INSERT_COMMANDS) {
    throw badRequest(
      `the body has ${value.length} transactions; at most ${MAX_MEMPOOL_INSERT_COMMANDS} are accepted per request`,
    );
  }
  const bad = value.findIndex((text) => typeof text !== "string");
  if (bad !== -1) {
    throw badRequest(
      `transaction ${bad} must be a string holding a command's JSON text, got ${describeBodyValue(value[bad])}`,
    );
  }
  return value as string[];
}
