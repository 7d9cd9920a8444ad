/**
 * The hash of a transaction's writes, which command results carry as `logs` (unpadded
 * base64url): Blake2b-256 over `D<domain>K<key>V<value>` for each entry in order (Pact's
 * `hashTxLogs`). Pact 5 stores values as CBOR, so for the same writes its hash differs from
 * this one, computed over our JSON texts.
 */
import { blake2b256 } from "../../crypto/index.ts";
import type { TxLogEntry } from "./types.ts";

export function hashTxLogs(logs: readonly TxLogEntry[]): Uint8Array {
  let text = "";
  for (const { domain, key, value } of logs) text += `D${domain}K${key}V${value}`;
  return blake2b256(text);
}
