/**
 * Talking to one peer over Chainweb's P2P API: one table of the endpoints sync uses
 * ({@link P2P_ENDPOINTS}: method and path under `/chainweb/0.0/{network}`), and a client that
 * calls them with a deadline and a bound on what it reads. Every failure (refused connection,
 * timeout, an answer that is not 2xx, too large, not JSON) is a {@link PeerRequestError} naming
 * the peer, the endpoint and the reason, so sync can log it once and drop the peer for a while.
 *
 * Each client bounds what its peer can cost this node: at most
 * {@link MAX_PEER_REQUESTS_IN_FLIGHT} requests at once (more wait their turn), and at most
 * {@link MAX_PEER_BYTES_PER_INTERVAL} bytes read within any {@link PEER_BYTES_INTERVAL_MS}
 * (recent-bytes.ts). A peer that sends more has every request to it cut off (a
 * {@link PeerLimitError}, for the network to penalise it), and no request goes to it for an
 * interval. What is read is paced (read-pacing.ts), so a peer's answers never hold the node's
 * thread for long, however fast they come.
 */
import { type ClientRequest, Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { BRAID_VERSION } from "../version.ts";
import { derFingerprint } from "./certificate.ts";
import { type PeerAddress, peerKey } from "./peer-info.ts";
import { paceRead } from "./read-pacing.ts";
import { RecentBytes } from "./recent-bytes.ts";

/** How long one request to a peer may take, connection included. */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;
/** The most bytes of one answer read from a peer (a payload batch of large blocks fits). */
export const MAX_PEER_RESPONSE_BYTES = 64 * 1024 * 1024;
/**
 * The most requests to one peer at once; more wait for one to end. A sync asks for each chain's
 * branch and payloads at once (20 chains, two stretches), so without it one peer answering
 * slowly without end held dozens of answers of up to {@link MAX_PEER_RESPONSE_BYTES} each. A
 * stretch's 20 payload requests fit (with 8 a catch-up waited ~10 µs a block for its peer,
 * measured at 3,000 heights); what one peer may send in all is bounded by the bytes below.
 */
export const MAX_PEER_REQUESTS_IN_FLIGHT = 24;
/**
 * The most bytes read from one peer within {@link PEER_BYTES_INTERVAL_MS}, all its answers
 * together: about two and a half times what a catch-up at 6,000 blocks/s reads (a block's header
 * and payload are ~0.9 kB of JSON), and room for two answers at {@link MAX_PEER_RESPONSE_BYTES}.
 */
export const MAX_PEER_BYTES_PER_INTERVAL = 128 * 1024 * 1024;
/** The interval over which {@link MAX_PEER_BYTES_PER_INTERVAL} is counted. */
export const PEER_BYTES_INTERVAL_MS = 10_000;

/** The bytes one peer may send within an interval (the constants above; less in tests). */
export interface PeerByteBound {
  readonly bytes: number;
  readonly intervalMs: number;
}

type Method = "GET" | "PUT" | "POST";

interface Endpoint {
  readonly method: Method;
  /** The path under the network's base, from the chain id where it has one. */
  readonly path: (chainId: number) => string;
}

/** The endpoints of Chainweb's P2P API Braid's peers call (the API document's paths). */
export const P2P_ENDPOINTS = {
  getCut: { method: "GET", path: () => "/cut" },
  putCut: { method: "PUT", path: () => "/cut" },
  getPeers: { method: "GET", path: () => "/cut/peer" },
  putPeer: { method: "PUT", path: () => "/cut/peer" },
  headerBranch: { method: "POST", path: (c) => `/chain/${c}/header/branch` },
  payloadBatch: { method: "POST", path: (c) => `/chain/${c}/payload/batch` },
  mempoolGetPending: { method: "POST", path: (c) => `/chain/${c}/mempool/getPending` },
  mempoolMember: { method: "POST", path: (c) => `/chain/${c}/mempool/member` },
  mempoolLookup: { method: "POST", path: (c) => `/chain/${c}/mempool/lookup` },
  mempoolInsert: { method: "PUT", path: (c) => `/chain/${c}/mempool/insert` },
} as const satisfies Record<string, Endpoint>;

export type P2PEndpoint = keyof typeof P2P_ENDPOINTS;

export interface PeerRequest {
  readonly chainId?: number;
  /** Query parameters, in order. */
  readonly query?: Readonly<Record<string, string | number>>;
  /** A JSON body: a value, or its text already encoded. */
  readonly body?: unknown;
  readonly bodyText?: string;
  /** The `Accept` header (JSON unless given). */
  readonly accept?: string;
}

export class PeerRequestError extends Error {
  constructor(
    readonly peer: string,
    readonly endpoint: P2PEndpoint,
    readonly reason: string,
    /** The HTTP status of an answer that was not a success; undefined when none came. */
    readonly status?: number,
  ) {
    super(`${peer} ${endpoint}: ${reason}`);
  }
}

/** A peer sent more than {@link MAX_PEER_BYTES_PER_INTERVAL}: its requests were cut off. */
export class PeerLimitError extends PeerRequestError {}

export class PeerClient {
  readonly key: string;
  private readonly base: string;
  /** The requests on the wire, to be cut off together when the peer sends too much. */
  private readonly active = new Set<ClientRequest>();
  /** Places taken of {@link MAX_PEER_REQUESTS_IN_FLIGHT}, and the requests waiting for one. */
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  /** What the peer sent within the last interval of its bound. */
  private readonly recentBytes: RecentBytes;
  /** While set, the peer went over its bytes: every request fails with it for an interval. */
  private overLimit: string | null = null;
  private overLimitAt = 0;
  /** The peer's id, once an answer came over TLS: its certificate's fingerprint. */
  private certificateId: string | null = null;

  constructor(
    readonly address: PeerAddress,
    network: string,
    scheme: "http" | "https" = "http",
    private readonly bound: PeerByteBound = {
      bytes: MAX_PEER_BYTES_PER_INTERVAL,
      intervalMs: PEER_BYTES_INTERVAL_MS,
    },
    /** Told the peer's id once, from the certificate of the first answer over HTTPS. */
    private readonly onIdentified?: (id: string) => void,
  ) {
    this.key = peerKey(address);
    this.base = `${scheme}://${this.key}/chainweb/0.0/${network}`;
    this.recentBytes = new RecentBytes(bound.intervalMs);
  }

  /** Calls an endpoint; its JSON answer (undefined for an empty one, as `PUT /cut`'s 204). */
  async call(endpoint: P2PEndpoint, request: PeerRequest = {}): Promise<unknown> {
    const text = await this.callText(endpoint, request);
    if (text.length === 0) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new PeerRequestError(this.key, endpoint, "the answer is not JSON");
    }
  }

  /** Calls an endpoint; its answer as text (for JSON whose numbers must stay exact). */
  async callText(endpoint: P2PEndpoint, request: PeerRequest = {}): Promise<string> {
    const { method, path } = P2P_ENDPOINTS[endpoint];
    const query = new URLSearchParams(
      Object.entries(request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const url = `${this.base}${path(request.chainId ?? 0)}${query.length > 0 ? `?${query}` : ""}`;
    const body =
      request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    const answer = await this.limited(endpoint, () =>
      exchange(url, method, body, request.accept ?? "application/json", this.meter),
    ).catch((e: unknown) => {
      if (e instanceof PeerLimitError) throw e;
      if (e instanceof OverLimit) throw new PeerLimitError(this.key, endpoint, e.message);
      throw new PeerRequestError(this.key, endpoint, networkReason(e));
    });
    if (answer.status < 200 || answer.status > 299) {
      throw new PeerRequestError(
        this.key,
        endpoint,
        `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`,
        answer.status,
      );
    }
    return answer.text;
  }

  /**
   * Runs `exchange` in one of the peer's {@link MAX_PEER_REQUESTS_IN_FLIGHT} places, waiting for
   * one if need be (an ending request hands its place to the first waiting); refused while the
   * peer is over its bytes.
   */
  private async limited<T>(endpoint: P2PEndpoint, exchange: () => Promise<T>): Promise<T> {
    this.refuseIfOver(endpoint);
    if (this.inFlight < MAX_PEER_REQUESTS_IN_FLIGHT) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      this.refuseIfOver(endpoint);
      return await exchange();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.inFlight--;
      else next();
    }
  }

  private refuseIfOver(endpoint: P2PEndpoint): void {
    if (this.overLimit !== null && performance.now() - this.overLimitAt < this.bound.intervalMs)
      throw new PeerLimitError(this.key, endpoint, this.overLimit);
    this.overLimit = null;
  }

  /** What {@link exchange} tells the client of each request and each chunk it reads. */
  private readonly meter: Meter = {
    started: (request) => this.active.add(request),
    ended: (request) => this.active.delete(request),
    answered: (socket) => {
      if (this.certificateId !== null || !(socket instanceof TLSSocket)) return;
      const der = socket.getPeerCertificate().raw;
      if (der === undefined) return;
      this.certificateId = derFingerprint(der);
      this.onIdentified?.(this.certificateId);
    },
    read: (bytes) => {
      const now = performance.now();
      if (this.recentBytes.add(bytes, now) <= this.bound.bytes || this.overLimit !== null) return;
      this.overLimit = `it sent more than ${this.bound.bytes} bytes within ${this.bound.intervalMs} ms`;
      this.overLimitAt = now;
      // The waiting ones are refused as these end and hand them their places.
      for (const request of this.active) request.destroy(new OverLimit(this.overLimit));
    },
  };
}

/** How a request reports to its client: on the wire, done, and each chunk of answer read. */
interface Meter {
  started(request: ClientRequest): void;
  ended(request: ClientRequest): void;
  /** An answer came on `socket` (a TLS socket over HTTPS, which shows the peer's certificate). */
  answered(socket: Socket): void;
  read(bytes: number): void;
}

/** A request cut off because its peer went over its bytes (the client says why). */
class OverLimit extends Error {}

/**
 * Connections kept open between requests to the same peer. Node's own HTTP client, not `fetch`:
 * a request through it costs half as much, and sync makes dozens per cut.
 */
const AGENTS = {
  "http:": new HttpAgent({ keepAlive: true }),
  "https:": new HttpsAgent({ keepAlive: true }),
};

class PeerTimeout extends Error {}

/** A request on a kept-alive connection that the peer had closed: it never reached the peer. */
class ClosedConnection extends Error {}

/**
 * One request: its status and text, within {@link PEER_REQUEST_TIMEOUT_MS} per attempt, the text
 * refused past {@link MAX_PEER_RESPONSE_BYTES} and read at most `MAX_READ_BYTES_PER_TURN`
 * a turn of the event loop (read-pacing.ts). A request sent on a kept-alive connection that the
 * peer closed meanwhile (its idle timeout came while this node's thread was busy, importing a
 * sync's batch, say, so the close was not yet seen) is reset unread; it is sent once more on a new
 * connection, as Node's documentation advises (`request.reusedSocket`). Every request of the P2P
 * API may be sent twice: the reads are reads, and a cut or command sent again changes nothing.
 */
async function exchange(
  url: string,
  method: Method,
  body: string | undefined,
  accept: string,
  meter: Meter,
): Promise<{ status: number; text: string }> {
  try {
    return await exchangeOnce(url, method, body, accept, meter, "kept-alive");
  } catch (e) {
    if (!(e instanceof ClosedConnection)) throw e;
    return exchangeOnce(url, method, body, accept, meter, "new");
  }
}

function exchangeOnce(
  url: string,
  method: Method,
  body: string | undefined,
  accept: string,
  meter: Meter,
  connection: "kept-alive" | "new",
): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  const send = target.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      target,
      {
        method,
        agent: connection === "new" ? false : AGENTS[target.protocol as keyof typeof AGENTS],
        headers: {
          accept,
          "x-chainweb-node-version": BRAID_VERSION,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (response) => {
        meter.answered(response.socket);
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          meter.read(chunk.length);
          if (request.destroyed) return;
          if (size > MAX_PEER_RESPONSE_BYTES) {
            request.destroy(
              new Error(`the answer is larger than ${MAX_PEER_RESPONSE_BYTES} bytes`),
            );
            return;
          }
          chunks.push(chunk);
          paceRead(response, chunk.length);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    const timer = setTimeout(() => request.destroy(new PeerTimeout()), PEER_REQUEST_TIMEOUT_MS);
    meter.started(request);
    request.on("close", () => {
      clearTimeout(timer);
      meter.ended(request);
    });
    request.on("error", (e: Error & { code?: string }) =>
      reject(request.reusedSocket && e.code === "ECONNRESET" ? new ClosedConnection(e.message) : e),
    );
    request.end(body);
  });
}

/** A failed request in a few words: the system's error code (refused, reset …), or the reason. */
function networkReason(e: unknown): string {
  if (e instanceof PeerTimeout) return `no answer within ${PEER_REQUEST_TIMEOUT_MS} ms`;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  return e instanceof Error ? e.message : String(e);
}
