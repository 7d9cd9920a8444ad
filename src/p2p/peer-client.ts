/**
 * Talking to one peer over Chainweb's P2P API: one table of the endpoints sync uses
 * ({@link P2P_ENDPOINTS}: method and path under `/chainweb/0.0/{network}`), and a client that
 * calls them with a deadline and a bound on what it reads. Every failure (refused connection,
 * timeout, an answer that is not 2xx, too large, not JSON) is a {@link PeerRequestError} naming
 * the peer, the endpoint and the reason, so sync can log it once and drop the peer for a while.
 */
import { Agent as HttpAgent, request as httpRequest } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { BRAID_VERSION } from "../version.ts";
import { type PeerAddress, peerKey } from "./peer-info.ts";

/** How long one request to a peer may take, connection included. */
export const PEER_REQUEST_TIMEOUT_MS = 10_000;
/** The most bytes of one answer read from a peer (a payload batch of large blocks fits). */
export const MAX_PEER_RESPONSE_BYTES = 64 * 1024 * 1024;

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

export class PeerClient {
  readonly key: string;
  private readonly base: string;

  constructor(
    readonly address: PeerAddress,
    network: string,
    scheme: "http" | "https" = "http",
  ) {
    this.key = peerKey(address);
    this.base = `${scheme}://${this.key}/chainweb/0.0/${network}`;
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
    const answer = await exchange(url, method, body, request.accept ?? "application/json").catch(
      (e: unknown) => {
        throw new PeerRequestError(this.key, endpoint, networkReason(e));
      },
    );
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
}

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
 * refused past {@link MAX_PEER_RESPONSE_BYTES}. A request sent on a kept-alive connection that the
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
): Promise<{ status: number; text: string }> {
  try {
    return await exchangeOnce(url, method, body, accept, "kept-alive");
  } catch (e) {
    if (!(e instanceof ClosedConnection)) throw e;
    return exchangeOnce(url, method, body, accept, "new");
  }
}

function exchangeOnce(
  url: string,
  method: Method,
  body: string | undefined,
  accept: string,
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
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_PEER_RESPONSE_BYTES) {
            request.destroy(
              new Error(`the answer is larger than ${MAX_PEER_RESPONSE_BYTES} bytes`),
            );
            return;
          }
          chunks.push(chunk);
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
    request.on("close", () => clearTimeout(timer));
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
