/**
 * A peer as Chainweb's P2P API names it: `{"id": <fingerprint or null>, "address": {"hostname",
 * "port"}}` (the API document's `peer` schema). Braid's nodes speak plain HTTP between each
 * other on a development network, so their ids are null; an id given by a peer is kept as it
 * came (the base64url SHA-256 fingerprint of its certificate).
 */
import { type PeerAddress, peerAddressProblem } from "../node/ports.ts";

export { type PeerAddress, parsePeerAddress, peerKey } from "../node/ports.ts";

export interface PeerInfo {
  readonly id: string | null;
  readonly address: PeerAddress;
}

const FINGERPRINT = /^[A-Za-z0-9_-]{43}$/;

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
  const problem = peerAddressProblem({ hostname, port });
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
