/**
 * Loads the real mainnet data in `../shared/vectors/` (beside the repository) for tests and
 * benchmarks. BRAID_VECTORS_DIR overrides the folder.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const DEFAULT_DIR = fileURLToPath(new URL("../../../../shared/vectors/", import.meta.url));

export function readVector<T = unknown>(name: string): T {
  const dir = process.env["BRAID_VECTORS_DIR"] ?? DEFAULT_DIR;
  return JSON.parse(readFileSync(`${dir.replace(/\/?$/, "/")}${name}`, "utf8")) as T;
}

export interface MainnetHeaders {
  objectHeaders: Record<string, unknown>[];
  binaryHeadersBase64Url: string[];
}

export interface PayloadJson {
  transactions: unknown[];
  minerData: string;
  transactionsHash: string;
  outputsHash: string;
  payloadHash: string;
  coinbase?: string;
}

export interface MainnetPayloads {
  payloads: PayloadJson[];
  emptyPayload: PayloadJson;
  payloadWithTransactions: PayloadJson;
}

export interface MainnetBlocks {
  page: { items: { blockHeader: Record<string, unknown>; payloadWithOutputs: PayloadJson }[] };
}

export const mainnetHeaders = () => readVector<MainnetHeaders>("mainnet-headers.json");
export const mainnetPayloads = () => readVector<MainnetPayloads>("mainnet-payloads.json");
export const mainnetBlocks = () => readVector<MainnetBlocks>("mainnet-blocks.json");
