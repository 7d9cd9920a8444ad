/**
 * Pieces shared by the block, header, payload, cut and stream routes: the `{base}` path with its
 * network check, the chain check, `Accept` negotiation (406), the page query parameters and the
 * JSON 404 Chainweb sends for an unknown key.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  type BlockNotFoundError,
  type Cursor,
  CursorSyntaxError,
  MAX_BLOCK_PAGE_LIMIT,
  type PageQuery,
  parseCursor,
} from "../../chain/db/index.ts";
import { HASH_BYTES } from "../../chain/header/binary.ts";
import { Base64UrlError, decodeBase64Url } from "../../crypto/index.ts";
import type { NetworkInfo } from "../../node/ports.ts";
import { HttpError } from "../http/errors.ts";

export const BASE = "/chainweb/0.0/:network";
export const JSON_TYPE = "application/json; charset=utf-8";
/** A chain id as it may be written: decimal, no leading zeros, at most 9 digits. */
export const CHAIN_ID = /^(0|[1-9][0-9]{0,8})$/;
const COUNT = /^[0-9]+$/;

/** A 404 for a network this node does not run. */
export function checkNetwork(served: NetworkInfo, request: FastifyRequest): void {
  const { network } = request.params as { network: string };
  if (network !== served.networkId) {
    throw new HttpError(
      404,
      `no such network: ${JSON.stringify(network.slice(0, 64))}; this node runs ${served.networkId}`,
    );
  }
}

/** The chain of a request under `{base}/chain/:chain/`; a 404 for an unknown network or chain. */
export function chainOf(network: NetworkInfo, request: FastifyRequest): number {
  checkNetwork(network, request);
  const { chain } = request.params as { chain: string };
  const count = network.chainCount;
  if (!CHAIN_ID.test(chain) || Number(chain) >= count) {
    throw new HttpError(
      404,
      `no such chain: ${JSON.stringify(chain.slice(0, 64))}; the chains are 0 to ${count - 1}`,
    );
  }
  return Number(chain);
}

/** A route hook that refuses unknown networks/chains before the body is read. */
export function chainHook(network: NetworkInfo, withChain = true) {
  return (request: FastifyRequest, _reply: FastifyReply, done: (e?: Error) => void) => {
    try {
      if (withChain) chainOf(network, request);
      else checkNetwork(network, request);
      done();
    } catch (e) {
      done(e as Error);
    }
  };
}

interface MediaRange {
  readonly type: string;
  readonly params: ReadonlyMap<string, string>;
  readonly q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(",")) {
    const [typePart, ...paramParts] = part.split(";");
    const type = (typePart ?? "").trim().toLowerCase();
    if (type === "") continue;
    const params = new Map<string, string>();
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf("=");
      if (eq === -1) continue;
      const name = p.slice(0, eq).trim().toLowerCase();
      const value = p
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, "$1");
      if (name === "q") {
        const n = Number(value);
        q = Number.isFinite(n) ? n : 0;
      } else if (name !== "charset") {
        params.set(name, value.toLowerCase());
      }
    }
    ranges.push({ type, params, q });
  }
  return ranges;
}

function matches(range: MediaRange, offer: string): boolean {
  const [typePart, ...paramParts] = offer.split(";");
  const type = typePart!.trim();
  const [major] = type.split("/");
  const typeOk = range.type === "*/*" || range.type === type || range.type === `${major}/*`;
  if (!typeOk) return false;
  const offered = new Map(
    paramParts.map((p) => {
      const [k, v] = p.split("=");
      return [k!.trim(), (v ?? "").trim()] as const;
    }),
  );
  for (const [k, v] of range.params) if (offered.get(k) !== v) return false;
  return true;
}

/**
 * The offer (a media type, maybe with parameters) the request's `Accept` header prefers; the
 * first offer when there is no header. A 406 naming the offers when none is acceptable.
 */
export function negotiate(request: FastifyRequest, offers: readonly string[]): string {
  const header = request.headers.accept;
  if (header === undefined || header.trim() === "") return offers[0]!;
  const ranges = parseAccept(header)
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const range of ranges) {
    const offer = offers.find((o) => matches(range, o));
    if (offer !== undefined) return offer;
  }
  throw new HttpError(
    406,
    `this endpoint cannot produce ${JSON.stringify(header.slice(0, 200))}; it produces ${offers.join(", ")}`,
  );
}

/**
 * A block (or payload) hash in a path or body: 32 bytes as canonical base64url, without `=`
 * padding (one text per hash, the one the node writes).
 */
export function parseHash(text: unknown, what: string): Uint8Array {
  if (typeof text !== "string") throw new HttpError(400, `${what} must be a string`);
  if (text.includes("=")) {
    throw new HttpError(
      400,
      `${what} ${JSON.stringify(text.slice(0, 64))}: a hash is unpadded base64url (43 characters, no "=")`,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64Url(text);
  } catch (e) {
    if (!(e instanceof Base64UrlError)) throw e;
    throw new HttpError(400, `${what} ${JSON.stringify(text.slice(0, 64))}: ${e.message}`);
  }
  if (bytes.length !== HASH_BYTES) {
    throw new HttpError(
      400,
      `${what} ${JSON.stringify(text.slice(0, 64))}: a hash has ${HASH_BYTES} bytes (43 base64url characters), got ${bytes.length}`,
    );
  }
  return bytes;
}

function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") {
    throw new HttpError(400, `the query parameter ${name} is given more than once`);
  }
  return value;
}

/**
 * The page parameters. A bad `next` or `maxheight` is a 404 (the interface spec's Errors
 * table); a bad `limit` or `minheight` a 400 (as Chainweb's servant answers unparsable
 * parameters). A `limit` above {@link MAX_BLOCK_PAGE_LIMIT} is clamped.
 */
export function pageQuery(request: FastifyRequest): PageQuery {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const count = (name: string, status: number): number | undefined => {
    const text = single(query, name);
    if (text === undefined) return undefined;
    if (!COUNT.test(text)) {
      throw new HttpError(
        status,
        `${name} must be an integer >= 0, got ${JSON.stringify(text.slice(0, 64))}`,
      );
    }
    const n = Number(text);
    return Number.isSafeInteger(n) ? n : Number.MAX_SAFE_INTEGER;
  };
  const limit = count("limit", 400);
  const minheight = count("minheight", 400);
  const maxheight = count("maxheight", 404);
  const nextText = single(query, "next");
  let next: Cursor | undefined;
  if (nextText !== undefined) {
    try {
      next = parseCursor(nextText);
    } catch (e) {
      if (e instanceof CursorSyntaxError) throw new HttpError(404, e.message);
      throw e;
    }
  }
  return {
    ...(limit === undefined ? {} : { limit: Math.min(limit, MAX_BLOCK_PAGE_LIMIT) }),
    ...(minheight === undefined ? {} : { minheight }),
    ...(maxheight === undefined ? {} : { maxheight }),
    ...(next === undefined ? {} : { next }),
  };
}

/** Chainweb's 404 for an unknown key: `{"reason":"key not found","key":<hash>}`. */
export function sendKeyNotFound(reply: FastifyReply, error: BlockNotFoundError): FastifyReply {
  return reply
    .code(404)
    .type(JSON_TYPE)
    .send(JSON.stringify({ reason: "key not found", key: error.key }));
}
