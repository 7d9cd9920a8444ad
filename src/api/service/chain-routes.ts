/**
 * The chain database's endpoints under `{base}/chain/{c}/` (docs/node.md, "Block, header and
 * payload endpoints"):
 *
 * - pages `GET block`, `header`, `hash` (ascending, orphans included) and their `POST …/branch`
 *   (descending from `upper`, excluding ancestors of `lower`), computed by the chain core
 *   (`src/chain/db/pages.ts`): at most {@link MAX_BLOCK_PAGE_LIMIT} items, at most
 *   {@link MAX_BRANCH_BOUNDS} bounds per side (400), the last page's `next` is null, and a query
 *   that matches no block is a 404 (the interface spec's Errors table);
 * - `GET header/{hash}` as a base64url string, an object or 318 raw bytes, by `Accept`;
 * - `GET payload/{hash}`, `payload/{hash}/outputs`, `POST payload/batch`, `payload/outputs/batch`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  BLOCK_ITEMS,
  type Block,
  BlockNotFoundError,
  BranchBoundsError,
  blockPage,
  branchPage,
  HEADER_ITEMS,
  type Page,
  type PageItems,
  PageQueryError,
} from "../../chain/db/index.ts";
import { encodeHeader } from "../../chain/header/binary.ts";
import { encodeHeaderBase64, encodeHeaderJson } from "../../chain/header/json.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import {
  encodePayloadDataObject,
  encodePayloadWithOutputsObject,
} from "../../chain/payload/json.ts";
import { type PayloadWithOutputs, payloadDataOf } from "../../chain/payload/payload.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { NodePorts } from "../../node/ports.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { bodyText, jsonObjectBody, parseJsonBody } from "../http/json-body.ts";
import {
  BASE,
  chainHook,
  chainOf,
  JSON_TYPE,
  negotiate,
  pageQuery,
  parseHash,
  sendKeyNotFound,
} from "./request-parts.ts";

/** Most payload hashes answered by one batch request; further ones are ignored (as Chainweb). */
export const MAX_PAYLOAD_BATCH = 1000;

const JSON_OFFER = "application/json";
/**
 * Headers as objects: asked for in `Accept` and answered in `Content-Type` exactly as
 * chainweb-node writes it (servant's media type rendered by http-media: no space, no charset).
 */
const OBJECT_OFFER = "application/json;blockheader-encoding=object";
const BINARY_OFFER = "application/octet-stream";

/**
 * Sends JSON text in the negotiated form. Fastify appends `; charset=utf-8` to a JSON type sent
 * with a string, so the object form goes out as bytes, its type untouched.
 */
function sendJson(reply: FastifyReply, offer: string, text: string): FastifyReply {
  return offer === OBJECT_OFFER
    ? reply.type(OBJECT_OFFER).send(Buffer.from(text))
    : reply.type(JSON_TYPE).send(text);
}

type ItemEncoder<T> = (item: T) => string;

const blockItem: ItemEncoder<Block> = (block) =>
  `{"header":${encodeHeaderJson(block.header)},"payloadWithOutputs":${JSON.stringify(encodePayloadWithOutputsObject(block.payload))}}`;
const hashItem: ItemEncoder<BlockHeader> = (header) => JSON.stringify(encodeBase64Url(header.hash));
const headerStringItem: ItemEncoder<BlockHeader> = (header) =>
  JSON.stringify(encodeHeaderBase64(header));
const headerObjectItem: ItemEncoder<BlockHeader> = (header) => encodeHeaderJson(header);

function pageJson<T>(page: Page<T>, item: ItemEncoder<T>): string {
  return `{"limit":${page.limit},"items":[${page.items.map(item).join(",")}],"next":${JSON.stringify(page.next)}}`;
}

/** A stored payload's data object (without outputs), as `payload/{hash}` and `payload/batch` serve it. */
const payloadDataObject = (payload: PayloadWithOutputs) =>
  encodePayloadDataObject(payloadDataOf(payload));

/** The branch body `{"lower":[hash..],"upper":[hash..]}`; 400 naming what is wrong. */
function branchBody(request: FastifyRequest) {
  const body = jsonObjectBody(
    bodyText(request.body, request.headers["content-type"]),
    '{"lower":[hash..],"upper":[hash..]}',
  );
  const side = (name: "lower" | "upper") => {
    const list = body[name];
    if (!Array.isArray(list)) throw badRequest(`"${name}" must be an array of block hashes`);
    return list.map((h, i) => parseHash(h, `${name}[${i}]`));
  };
  return { lower: side("lower"), upper: side("upper") };
}

export function registerChainRoutes(
  app: FastifyInstance,
  { network, blocks: db }: Pick<NodePorts, "network" | "blocks">,
): void {
  const onRequest = chainHook(network);
  const chainPath = (rest: string) => `${BASE}/chain/:chain/${rest}`;

  /** Runs a page query, turning the core's errors into the API's statuses. */
  const sendPage = <T>(
    reply: FastifyReply,
    run: () => Page<T>,
    item: ItemEncoder<T>,
    offer: string,
  ) => {
    let page: Page<T>;
    try {
      page = run();
    } catch (e) {
      if (e instanceof BlockNotFoundError) return sendKeyNotFound(reply, e);
      if (e instanceof BranchBoundsError) throw new HttpError(400, e.message);
      if (e instanceof PageQueryError) throw new HttpError(400, e.message);
      throw e;
    }
    if (page.items.length === 0 && page.next === null) {
      throw new HttpError(404, "no block matches the query");
    }
    return sendJson(reply, offer, pageJson(page, item));
  };

  /** The listing and the branch query of one kind of page, its items read as `items`. */
  const servePages = <T>(
    name: string,
    offers: readonly string[],
    items: PageItems<T>,
    encoderFor: (offer: string) => ItemEncoder<T>,
  ) => {
    app.get(chainPath(name), { onRequest }, (request, reply) => {
      const chainId = chainOf(network, request);
      const offer = negotiate(request, offers);
      const query = pageQuery(request);
      return sendPage(reply, () => blockPage(db, chainId, query, items), encoderFor(offer), offer);
    });
    app.post(chainPath(`${name}/branch`), { onRequest }, (request, reply) => {
      const chainId = chainOf(network, request);
      const offer = negotiate(request, offers);
      const query = pageQuery(request);
      const bounds = branchBody(request);
      return sendPage(
        reply,
        () => branchPage(db, chainId, bounds, query, items),
        encoderFor(offer),
        offer,
      );
    });
  };
  servePages("block", [JSON_OFFER], BLOCK_ITEMS, () => blockItem);
  // The hash and header pages read no payload.
  servePages("hash", [JSON_OFFER], HEADER_ITEMS, () => hashItem);
  servePages("header", [JSON_OFFER, OBJECT_OFFER], HEADER_ITEMS, (offer) =>
    offer === OBJECT_OFFER ? headerObjectItem : headerStringItem,
  );

  /** A stored header of this chain by hash; 404 (Chainweb's JSON) otherwise. */
  const headerOf = (chainId: number, text: string): BlockHeader | BlockNotFoundError => {
    const hash = parseHash(text, "block hash");
    const header = db.header(hash);
    if (header === undefined || header.chainId !== chainId) {
      return new BlockNotFoundError(hash, chainId);
    }
    return header;
  };

  app.get(chainPath("header/:hash"), { onRequest }, (request, reply) => {
    const chainId = chainOf(network, request);
    const offer = negotiate(request, [JSON_OFFER, OBJECT_OFFER, BINARY_OFFER]);
    const header = headerOf(chainId, (request.params as { hash: string }).hash);
    if (header instanceof BlockNotFoundError) return sendKeyNotFound(reply, header);
    if (offer === BINARY_OFFER) {
      return reply.type(BINARY_OFFER).send(Buffer.from(encodeHeader(header)));
    }
    const body =
      offer === OBJECT_OFFER
        ? encodeHeaderJson(header)
        : JSON.stringify(encodeHeaderBase64(header));
    return sendJson(reply, offer, body);
  });

  /** `?height=` is accepted (Chainweb uses it as a lookup hint) and checked. */
  const checkHeight = (request: FastifyRequest) => {
    const { height } = (request.query ?? {}) as Record<string, unknown>;
    if (height !== undefined && !(typeof height === "string" && /^[0-9]+$/.test(height))) {
      throw badRequest("height must be an integer >= 0");
    }
  };
  const payloadOf = (reply: FastifyReply, request: FastifyRequest) => {
    chainOf(network, request);
    negotiate(request, [JSON_OFFER]);
    checkHeight(request);
    const hash = parseHash((request.params as { hash: string }).hash, "payload hash");
    const payload = db.payload(hash);
    if (payload === undefined) {
      reply
        .code(404)
        .type(JSON_TYPE)
        .send(JSON.stringify({ reason: "key not found", key: encodeBase64Url(hash) }));
    }
    return payload;
  };
  app.get(chainPath("payload/:hash"), { onRequest }, (request, reply) => {
    const payload = payloadOf(reply, request);
    if (payload === undefined) return reply;
    return reply.type(JSON_TYPE).send(JSON.stringify(payloadDataObject(payload)));
  });
  app.get(chainPath("payload/:hash/outputs"), { onRequest }, (request, reply) => {
    const payload = payloadOf(reply, request);
    if (payload === undefined) return reply;
    return reply.type(JSON_TYPE).send(JSON.stringify(encodePayloadWithOutputsObject(payload)));
  });

  /** A batch body: `[hash..]` or `{"hashes":[hash..],"heights":[n..]}`. */
  const batchHashes = (request: FastifyRequest): Uint8Array[] => {
    const value = parseJsonBody(bodyText(request.body, request.headers["content-type"]));
    let list: unknown = value;
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const o = value as Record<string, unknown>;
      list = o.hashes;
      if (
        o.heights !== undefined &&
        !(Array.isArray(o.heights) && o.heights.every((h) => Number.isSafeInteger(h) && h >= 0))
      ) {
        throw badRequest('"heights" must be an array of integers >= 0');
      }
    }
    if (!Array.isArray(list)) {
      throw badRequest('the body must be [hash..] or {"hashes":[hash..],"heights":[n..]}');
    }
    return list.slice(0, MAX_PAYLOAD_BATCH).map((h, i) => parseHash(h, `hashes[${i}]`));
  };
  const batch = (name: string, encode: (p: PayloadWithOutputs) => unknown) =>
    app.post(chainPath(name), { onRequest }, (request, reply) => {
      chainOf(network, request);
      negotiate(request, [JSON_OFFER]);
      const found: unknown[] = [];
      for (const hash of batchHashes(request)) {
        const payload = db.payload(hash);
        if (payload !== undefined) found.push(encode(payload));
      }
      return reply.type(JSON_TYPE).send(JSON.stringify(found));
    });
  batch("payload/batch", payloadDataObject);
  batch("payload/outputs/batch", encodePayloadWithOutputsObject);
}
