/**
 * The hash of a transaction's writes, which command results carry as `logs` (unpadded
 * base64url): Blake2b-256 over `D<domain>K<key>V<value>` for each entry in order, where the value
 * is the bytes Pact 5 stores (stored-bytes.ts): Pact's `hashTxLogs`.
 */
import { blake2b256 } from "../../crypto/index.ts";
import type { TxLogEntry } from "./types.ts";

const utf8 = new TextEncoder();

export function hashTxLogs(logs: readonly TxLogEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let length = 0;
  for (const { domain, key, value } of logs) {
    const head = utf8.encode(`D${domain}K${key}V`);
    parts.push(head, value);
    length += head.length + value.length;
  }
  const text = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    text.set(part, at);
    at += part.length;
  }
  return blake2b256(text);
}
