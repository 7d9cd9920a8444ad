/**
 * Loads the real mainnet data in `../shared/vectors/` (beside the repository) for tests and
 * benchmarks. BRAID_VECTORS_DIR overrides the folder. Tests that read it are skipped where it is
 * missing, and fail on CI instead (`skip-or-require.ts`).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { missingDataSkip, SHARED_DIR } from "./skip-or-require.ts";

/** The vector files: each test names those it reads. */
export type VectorFile = "mainnet-headers.json" | "mainnet-payloads.json" | "mainnet-blocks.json";

const vectorPath = (name: VectorFile) =>
  join(process.env["BRAID_VECTORS_DIR"] ?? join(SHARED_DIR, "vectors"), name);

/** For `describe(…, { skip: vectorsSkip(…files) }, …)` (`skipOrRequire`); read them inside. */
export const vectorsSkip = (...names: VectorFile[]) => missingDataSkip(names.map(vectorPath));

function readVector<T = unknown>(name: VectorFile): T {
  return JSON.parse(readFileSync(vectorPath(name), "utf8")) as T;
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
