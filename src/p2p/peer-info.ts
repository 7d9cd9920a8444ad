/**
 * A peer as Chainweb's P2P API names it: `{"id": <fingerprint or null>, "address": {"hostname",
 * "port"}}` (the API document's `peer` schema). Braid's nodes speak plain HTTP between each
 * other on a development network, so their ids are null; an id given by a peer is kept as it
 * came (the base64url SHA-256 fingerprint of its certificate).
 */

export interface PeerAddress {
  readonly hostname: string;
  readonly port: number;
}

export interface PeerInfo {
  readonly id: string | null;
  readonly address: PeerAddress;
}

/** The longest host name a peer may give (DNS's limit). */
export const MAX_HOSTNAME_LENGTH = 253;

const HOSTNAME = /^[A-Za-z0-9._-]+$|^\[?[0-9A-Fa-f:.]+\]?$/;
const FINGERPRINT = /^[A-Za-z0-9_-]{43}$/;

/** `host:port` as written in `--peer` and `peers:` (an IPv6 address in brackets). */
export function parsePeerAddress(text: string): PeerAddress | string {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text.trim());
  if (match === null) return `"${text}" is not host:port`;
  const hostname = match[1]!.startsWith("[") ? match[1]!.slice(1, -1) : match[1]!;
  return checkAddress({ hostname, port: Number(match[2]) }) ?? { hostname, port: Number(match[2]) };
}

/** What is wrong with an address, or null. */
function checkAddress({ hostname, port }: PeerAddress): string | null {
  if (hostname.length === 0 || hostname.length > MAX_HOSTNAME_LENGTH || !HOSTNAME.test(hostname)) {
    return `"${hostname}" is not a host name or IP address`;
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return `the port ${port} is not between 1 and 65535`;
  }
  return null;
}

/** A peer object from JSON (a `PUT /cut/peer` body, a page of peers, a cut's origin). */
export function decodePeerInfo(value: unknown): PeerInfo | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return 'a peer must be an object {"id": …, "address": {"hostname": …, "port": …}}';
  }
  const { id, address } = value as { id?: unknown; address?: unknown };
  if (id !== undefined && id !== null && (typeof id !== "string" || !FINGERPRINT.test(id))) {
    return '"id" must be null or a base64url SHA-256 fingerprint (43 characters)';
  }
  if (typeof address !== "object" || address === null) {
    return '"address" must be an object {"hostname": …, "port": …}';
  }
  const { hostname, port } = address as { hostname?: unknown; port?: unknown };
  if (typeof hostname !== "string") return '"address.hostname" must be a string';
  if (typeof port !== "number") return '"address.port" must be a number';
  const problem = checkAddress({ hostname, port });
  if (problem !== null) return problem;
  return { id: typeof id === "string" ? id : null, address: { hostname, port } };
}

/** The peer object in the API's key order. */
export function encodePeerInfo(peer: PeerInfo): {
  id: string | null;
  address: { hostname: string; port: number };
} {
  return { id: peer.id, address: { hostname: peer.address.hostname, port: peer.address.port } };
}

/** `host:port`, the key a peer is known by. */
export function peerKey(address: PeerAddress): string {
  return address.hostname.includes(":")
    ? `[${address.hostname}]:${address.port}`
    : `${address.hostname}:${address.port}`;
}
