/**
 * Talking to one peer over Chainweb's P2P API: one table of the endpoints sync uses
 * ({@link P2P_ENDPOINTS}: method and path under `/chainweb/0.0/{network}`), and a client that
 * calls them with a deadline and a bound on what it reads. Every failure (refused connection,
 * timeout, an answer that is not 2xx, too large, not JSON) is a {@link PeerRequestError} naming
 * the peer, the endpoint and the reason, so sync can log it once and drop the peer for a while.
 */
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
    /** The peer's HTTP status, when it answered with one that is not 2xx. */
    readonly status: number | null = null,
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

  private async callText(endpoint: P2PEndpoint, request: PeerRequest): Promise<string> {
    const { method, path } = P2P_ENDPOINTS[endpoint];
    const query = new URLSearchParams(
      Object.entries(request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
    const url = `${this.base}${path(request.chainId ?? 0)}${query.length > 0 ? `?${query}` : ""}`;
    const fail = (reason: string, status: number | null = null) =>
      new PeerRequestError(this.key, endpoint, reason, status);
    const body =
      request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers: {
          accept: request.accept ?? "application/json",
          "x-chainweb-node-version": BRAID_VERSION,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body,
        signal: AbortSignal.timeout(PEER_REQUEST_TIMEOUT_MS),
      });
    } catch (e) {
      throw fail(networkReason(e));
    }
    const text = await readBounded(response).catch((e: unknown) => {
      throw fail(networkReason(e));
    });
    if (!response.ok) throw fail(`HTTP ${response.status}: ${text.slice(0, 200)}`, response.status);
    return text;
  }
}

/** The answer's text, refused past {@link MAX_PEER_RESPONSE_BYTES}. */
async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_PEER_RESPONSE_BYTES) {
    await response.body?.cancel();
    throw new Error(`the answer is larger than ${MAX_PEER_RESPONSE_BYTES} bytes`);
  }
  if (response.body === null) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_PEER_RESPONSE_BYTES) {
      throw new Error(`the answer is larger than ${MAX_PEER_RESPONSE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A failed request in a few words (fetch hides the cause: refused, reset, timed out). */
function networkReason(e: unknown): string {
  if (e instanceof Error && e.name === "TimeoutError") {
    return `no answer within ${PEER_REQUEST_TIMEOUT_MS} ms`;
  }
  const cause =
    e instanceof Error ? (e.cause as { code?: string; message?: string } | undefined) : undefined;
  if (cause?.code !== undefined) return cause.code;
  return e instanceof Error ? (cause?.message ?? e.message) : String(e);
}
