/**
 * A node's id on Chainweb's P2P network: the base64url SHA-256 fingerprint of its certificate
 * (the first of its chain, in DER), as chainweb-node names peers that serve HTTPS.
 */
import { createHash, X509Certificate } from "node:crypto";

export function certificateFingerprint(pemChain: string): string {
  return derFingerprint(new X509Certificate(pemChain).raw);
}

/** The id of the node whose certificate (DER bytes) a TLS connection to it presented. */
export function derFingerprint(der: Uint8Array): string {
  return createHash("sha256").update(der).digest("base64url");
}
