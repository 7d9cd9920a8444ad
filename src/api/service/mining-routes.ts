/**
 * The mining coordination API (issue #12 item 4; chainweb-wire.md §8), served in `pow` mining
 * mode so an external miner can mine against the node:
 * - `GET {base}/mining/work[?chain=N]` → 322 octet-stream bytes of work;
 * - `POST {base}/mining/solved` with the 286 solved header bytes → 204;
 * - `GET {base}/mining/updates` with a 4-byte chain id body (or `?chain=N`) → an event stream
 *   with an `event:New Cut` each time the work on that chain went stale.
 * In the other mining modes these paths are 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type NodePorts, SolvedWorkRefusal } from "../../node/ports.ts";
import { badRequest, HttpError } from "../http/errors.ts";
import { checkNetwork } from "./request-parts.ts";

const OCTET_STREAM = "application/octet-stream";
/** How long an update stream stays open (Chainweb's `updateStreamTimeout`), ±10 %. */
export const UPDATE_STREAM_SECONDS = 240;
/** Open update streams at most (Chainweb's limit); more get a 503. */
export const MAX_UPDATE_STREAMS = 2000;
const CHAIN_ID = /^(0|[1-9][0-9]{0,8})$/;
/** The largest body read on a GET (Chainweb's miners send a 4-byte chain id or Miner JSON). */
const MAX_GET_BODY = 4096;

export function registerMiningRoutes(
  app: FastifyInstance,
  { network, mining: coordinator, events }: Pick<NodePorts, "network" | "mining" | "events">,
): void {
  if (coordinator === null) return;
  const { chainCount } = network;
  let streams = 0;
  const chainParam = (value: unknown): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || !CHAIN_ID.test(value) || Number(value) >= chainCount) {
      throw badRequest(`the query parameter chain must be a chain id from 0 to ${chainCount - 1}`);
    }
    return Number(value);
  };

  app.register(async (scope) => {
    // The solved work and the update stream's chain id are binary bodies.
    scope.addContentTypeParser(OCTET_STREAM, { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    const base = "/chainweb/0.0/:network/mining";

    scope.get(`${base}/work`, async (request, reply) => {
      checkNetwork(network, request);
      const chain = chainParam((request.query as { chain?: unknown }).chain);
      return reply.type(OCTET_STREAM).send(Buffer.from(await coordinator.work(chain)));
    });

    scope.post(`${base}/solved`, (request, reply) => {
      checkNetwork(network, request);
      if (!(request.body instanceof Buffer)) {
        throw badRequest(`Decoding error: the solved work must be sent as ${OCTET_STREAM}`);
      }
      try {
        coordinator.solved(new Uint8Array(request.body));
      } catch (e) {
        if (e instanceof SolvedWorkRefusal) throw new HttpError(e.status, e.message);
        throw e;
      }
      return reply.code(204).send();
    });

    scope.get(`${base}/updates`, async (request, reply) => {
      checkNetwork(network, request);
      const chainId = updatesChain(
        request,
        request.body instanceof Buffer ? request.body : await rawBody(request),
        chainCount,
        chainParam,
      );
      if (streams >= MAX_UPDATE_STREAMS) throw new HttpError(503, "Too many update streams");
      openUpdateStream(events, chainId, reply, () => streams--);
      streams++;
    });
  });
}

/** The watched chain: `?chain=N`, or Chainweb's body of 4 bytes (u32 LE). */
function updatesChain(
  request: FastifyRequest,
  body: Buffer,
  chainCount: number,
  chainParam: (value: unknown) => number | undefined,
): number {
  const fromQuery = chainParam((request.query as { chain?: unknown }).chain);
  if (fromQuery !== undefined) return fromQuery;
  if (body.length !== 4) {
    throw badRequest(
      `Decoding error: the body must be the watched chain id as 4 bytes (u32 little-endian, ${OCTET_STREAM}), or use ?chain=N`,
    );
  }
  const chainId = body.readUInt32LE(0);
  if (chainId >= chainCount) {
    throw badRequest(`chain ${chainId} does not exist; the chains are 0 to ${chainCount - 1}`);
  }
  return chainId;
}

/** The body of a GET (fastify leaves it unread), at most {@link MAX_GET_BODY} bytes. */
async function rawBody(request: FastifyRequest): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request.raw as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_GET_BODY)
      throw badRequest(`the request body is larger than ${MAX_GET_BODY} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/**
 * Sends `event:New Cut` (no data) whenever a block lands on the chain or an adjacent one (both
 * make the chain's work stale); closes after about {@link UPDATE_STREAM_SECONDS}.
 */
function openUpdateStream(
  events: NodePorts["events"],
  chainId: number,
  reply: FastifyReply,
  closed: () => void,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  raw.write(":\n\n");
  const onBlock = (
    blockChain: number,
    block: { header: { adjacents: ReadonlyMap<number, unknown> } },
  ) => {
    if (blockChain === chainId || block.header.adjacents.has(chainId)) {
      raw.write("event:New Cut\n\n");
    }
  };
  events.on("block", onBlock);
  const jitter = 0.9 + Math.random() * 0.2;
  const timer = setTimeout(() => raw.end(), UPDATE_STREAM_SECONDS * 1000 * jitter);
  let done = false;
  raw.once("close", () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    events.off("block", onBlock);
    closed();
  });
}
