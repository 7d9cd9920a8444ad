/**
 * The lines the node logs for each block it stores: one for the block (chain, height, commands,
 * hash prefix, and whether this node mined it or took it from a peer), then one per transaction
 * (chain, height, request key, success or failure, gas, and a failure's location and message).
 *
 * What `info` shows: every block holding transactions, with their lines, and in proof-of-work
 * mode every block this node solved (each earns its miner the coinbase). The empty blocks that
 * keep the chains braided (about 19 for each block of a busy chain) are at `debug`. Nothing is
 * built for a level that is off: the outputs are decoded only when their lines are written.
 */
import { encodeBase64Url } from "../../crypto/index.ts";
import type { NodeLogger } from "../logger.ts";
import type { StoredBlock } from "../node-chain.ts";

/** Where a stored block came from: made here (`solved`: with a proof of work), or a peer's. */
export type BlockOrigin = "mined" | "solved" | "peer";

const ORIGIN_WORDS: Readonly<Record<BlockOrigin, string>> = {
  mined: "mined",
  solved: "mined",
  peer: "from peer",
};

const utf8 = new TextDecoder();

/** Logs the block's line and its transactions' lines at the level they belong to. */
export function logStoredBlock(log: NodeLogger, block: StoredBlock, origin: BlockOrigin): void {
  const hasTransactions = block.requestKeys.length > 0;
  const level = hasTransactions || origin === "solved" ? "info" : "debug";
  if (!log.enabled(level)) return;
  const h = block.header;
  const where = `chain ${String(h.chainId).padStart(2)}  height ${String(h.height).padStart(6)}`;
  log[level](
    `${where}  txs ${String(block.requestKeys.length).padStart(3)}  ${encodeBase64Url(h.hash).slice(0, 12)}  ${ORIGIN_WORDS[origin]}`,
  );
  block.payload.transactions.forEach(({ output }, i) => {
    log[level](`${where}  tx  ${block.requestKeys[i]}  ${outcomeText(output)}`);
  });
}

/**
 * A transaction's status and gas, and for a failure where it failed and why: the message is
 * quoted as JSON, so that a message holding a line break (a contract's own text) stays on its
 * line and cannot pass for another.
 */
export function outcomeText(output: Uint8Array): string {
  let result: OutputFields;
  try {
    result = JSON.parse(utf8.decode(output)) as OutputFields;
  } catch {
    // Outputs are this node's own execution's (a peer's are compared with them), so never seen.
    return "output is not JSON";
  }
  const gas = `gas ${String(result.gas).padStart(7)}`;
  if (result.result?.status !== "failure") return `success  ${gas}`;
  const { info, message } = result.result.error ?? {};
  const at = typeof info === "string" && info !== "" ? `  at ${info}` : "";
  return `failure  ${gas}${at}  ${JSON.stringify(String(message ?? ""))}`;
}

/** The fields of a transaction's output (a command result as JSON) that its line shows. */
interface OutputFields {
  readonly gas: number;
  readonly result?: {
    readonly status?: string;
    readonly error?: { readonly message?: unknown; readonly info?: unknown };
  };
}
