/**
 * The header streams `GET {base}/header/updates` and `GET {base}/block/updates`
 * (chainweb-wire.md §5): server-sent events, one `BlockHeader` event per block the node stores,
 * on every chain, framed exactly as chainweb-node writes them (`event:BlockHeader\ndata:<json>\n\n`,
 * keys sorted). `/block/updates` adds `payloadWithOutputs`.
 *
 * The node's `block` event is handled synchronously and never waits for a client: each event's
 * frame is built once, as one buffer that every subscriber's socket holds until sent (so a
 * backlog costs its bytes once, not once per subscriber). A subscriber is dropped when its
 * unsent bytes exceed {@link StreamOptions.maxBufferedBytes}, when it has unsent bytes while all
 * subscribers' together exceed {@link StreamOptions.maxTotalBufferedBytes}, or when its socket
 * has taken nothing for {@link StreamOptions.stalledMs}: a slow or stalled reader. A comment line
 * is sent every {@link StreamOptions.keepAliveMs} so that idle proxies keep the stream open; on
 * shutdown every stream is ended cleanly.
 */
import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import { computePowHash, powHashHex } from "../../chain/header/hash.ts";
import { encodeHeaderSortedJson } from "../../chain/header/json.ts";
import { encodePayloadWithOutputsObject } from "../../chain/payload/json.ts";
import type { NodePorts, StoredBlock } from "../../node/ports.ts";
import { HttpError } from "../http/errors.ts";
import { BASE, chainHook, negotiate } from "./request-parts.ts";

export interface StreamOptions {
  /** Unsent bytes a subscriber may have before it is dropped. */
  readonly maxBufferedBytes: number;
  /** Unsent bytes of all subscribers together beyond which those with any are dropped. */
  readonly maxTotalBufferedBytes: number;
  /** How long a subscriber's socket may refuse more bytes before it is dropped (ms). */
  readonly stalledMs: number;
  readonly keepAliveMs: number;
  /** Open streams at most; a further request gets a 503. */
  readonly maxSubscribers: number;
}

export const DEFAULT_STREAM_OPTIONS: StreamOptions = {
  maxBufferedBytes: 256 * 1024,
  maxTotalBufferedBytes: 64 * 1024 * 1024,
  stalledMs: 30_000,
  keepAliveMs: 15_000,
  maxSubscribers: 2000,
};

const EVENT_STREAM = "text/event-stream";

/** A JSON value with object keys sorted as text (aeson's encoding). */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(",")}}`;
}

/** The event's data: `{header, [payloadWithOutputs,] powHash, target, txCount}`. */
export function headerUpdateJson(block: StoredBlock, withPayload: boolean): string {
  const h = block.header;
  const payload = withPayload
    ? `"payloadWithOutputs":${sortedJson(encodePayloadWithOutputsObject(block.payload))},`
    : "";
  return `{"header":${encodeHeaderSortedJson(h)},${payload}"powHash":"${powHashHex(computePowHash(h))}","target":"${h.target.toString(16).padStart(64, "0")}","txCount":${block.payload.transactions.length}}`;
}

export const frame = (data: string) => `event:BlockHeader\ndata:${data}\n\n`;

interface Subscriber {
  readonly res: ServerResponse;
  readonly withPayload: boolean;
  /** When its socket last refused more bytes without draining since (ms), or null. */
  blockedSince: number | null;
}

const KEEP_ALIVE = Buffer.from(":keep-alive\n\n");

export class HeaderStreamHub {
  private readonly subscribers = new Set<Subscriber>();
  private readonly timer: NodeJS.Timeout;
  private closed = false;
  /** Subscribers dropped for falling behind (for tests and logs). */
  dropped = 0;

  constructor(
    private readonly events: NodePorts["events"],
    readonly options: StreamOptions,
  ) {
    events.on("block", this.onBlock);
    this.timer = setInterval(() => this.broadcast(KEEP_ALIVE, KEEP_ALIVE), options.keepAliveMs);
    this.timer.unref();
  }

  get size(): number {
    return this.subscribers.size;
  }

  private readonly onBlock = (_chainId: number, block: StoredBlock): void => {
    if (this.subscribers.size === 0) return;
    let plain: Buffer | undefined;
    let full: Buffer | undefined;
    for (const s of this.subscribers) {
      if (s.withPayload) full ??= Buffer.from(frame(headerUpdateJson(block, true)));
      else plain ??= Buffer.from(frame(headerUpdateJson(block, false)));
    }
    this.broadcast(plain, full);
  };

  private broadcast(plain: Buffer | undefined, full: Buffer | undefined): void {
    const { maxBufferedBytes, maxTotalBufferedBytes, stalledMs } = this.options;
    const now = Date.now();
    let total = 0;
    for (const s of this.subscribers) total += s.res.writableLength;
    for (const s of this.subscribers) {
      const bytes = s.withPayload ? full : plain;
      if (bytes === undefined) continue;
      const unsent = s.res.writableLength;
      if (
        unsent > maxBufferedBytes ||
        (unsent > 0 && total > maxTotalBufferedBytes) ||
        (s.blockedSince !== null && now - s.blockedSince > stalledMs)
      ) {
        total -= unsent;
        this.drop(s, true);
        continue;
      }
      total += bytes.length;
      if (!s.res.write(bytes)) s.blockedSince ??= now;
    }
  }

  private drop(s: Subscriber, slow: boolean): void {
    if (!this.subscribers.delete(s)) return;
    if (slow) {
      this.dropped++;
      s.res.destroy();
    }
  }

  /** Takes over the response: headers, then events until the client leaves or shutdown. */
  subscribe(res: ServerResponse, headers: Record<string, string>, withPayload: boolean): void {
    if (this.closed) throw new HttpError(503, "the node is shutting down");
    if (this.subscribers.size >= this.options.maxSubscribers) {
      throw new HttpError(503, `too many open streams (at most ${this.options.maxSubscribers})`);
    }
    const s: Subscriber = { res, withPayload, blockedSince: null };
    res.writeHead(200, {
      ...headers,
      "content-type": EVENT_STREAM,
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    this.subscribers.add(s);
    res.on("drain", () => {
      s.blockedSince = null;
    });
    res.on("close", () => this.drop(s, false));
  }

  /** Ends every stream (a clean end of the chunked body) and stops listening to the node. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.events.off("block", this.onBlock);
    for (const s of this.subscribers) s.res.end();
    this.subscribers.clear();
  }
}

export function registerHeaderStream(
  app: FastifyInstance,
  { network, events }: Pick<NodePorts, "network" | "events">,
  options: StreamOptions = DEFAULT_STREAM_OPTIONS,
): HeaderStreamHub {
  const hub = new HeaderStreamHub(events, options);
  app.addHook("preClose", (done) => {
    hub.close();
    done();
  });
  const onRequest = chainHook(network, false);
  for (const [path, withPayload] of [
    ["header/updates", false],
    ["block/updates", true],
  ] as const) {
    app.get(`${BASE}/${path}`, { onRequest }, (request, reply) => {
      negotiate(request, [EVENT_STREAM]);
      if (hub.size >= options.maxSubscribers) {
        throw new HttpError(503, `too many open streams (at most ${options.maxSubscribers})`);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(reply.getHeaders())) {
        if (typeof v === "string") headers[k] = v;
      }
      reply.hijack();
      hub.subscribe(reply.raw, headers, withPayload);
    });
  }
  return hub;
}
