/**
 * A peer's address as the configuration (`--peer`, `peers:`, `--announce`) and Chainweb's peer
 * objects give it: a host name or IP address and a port. Checked here, below the P2P layer, so
 * that a bad value in the configuration is refused with the other options' errors.
 */

export interface PeerAddress {
  readonly hostname: string;
  readonly port: number;
}

/** The longest host name a peer may give (DNS's limit). */
export const MAX_HOSTNAME_LENGTH = 253;

const HOSTNAME = /^[A-Za-z0-9._-]+$|^[0-9A-Fa-f:.]+$/;

/** `host:port` (an IPv6 address in brackets), or what is wrong with it. */
export function parsePeerAddress(text: string): PeerAddress | string {
  const match = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(text.trim());
  if (match === null) return `"${text}" is not host:port`;
  const address = {
    hostname: match[1]!.startsWith("[") ? match[1]!.slice(1, -1) : match[1]!,
    port: Number(match[2]),
  };
  return peerAddressProblem(address) ?? address;
}

/** What is wrong with an address, or null. */
export function peerAddressProblem({ hostname, port }: PeerAddress): string | null {
  if (hostname.length === 0 || hostname.length > MAX_HOSTNAME_LENGTH || !HOSTNAME.test(hostname)) {
    return `"${hostname.slice(0, 80)}" is not a host name or IP address`;
  }
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return `the port ${port} is not between 1 and 65535`;
  }
  return null;
}

/** `host:port`, the key a peer is known by. */
export function peerKey(address: PeerAddress): string {
  return address.hostname.includes(":")
    ? `[${address.hostname}]:${address.port}`
    : `${address.hostname}:${address.port}`;
}
