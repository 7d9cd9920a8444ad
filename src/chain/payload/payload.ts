/**
 * Block payloads and their Merkle hashes (chainweb-node's Payload.hs; chainweb-wire.md §4).
 * Transactions, outputs, miner data and the coinbase output are opaque byte strings (UTF-8
 * JSON on the wire):
 * - transactionsHash = root([leaf(MinerData, minerData), leaf(Transaction, tx_i)...])
 * - outputsHash = root([leaf(CoinbaseOutput, coinbase), leaf(TransactionOutput, out_i)...])
 * - payloadHash = root([transactionsHash, outputsHash]), both as tree nodes.
 */
import { equalBytes } from "../bytes.ts";
import { MerkleTag } from "../merkle/tags.ts";
import { leafPrefix, merkleNode, merkleRoot, taggedLeaf } from "../merkle/tree.ts";

/** A transaction's bytes with the bytes of its result. */
export interface TransactionWithOutput {
  readonly transaction: Uint8Array;
  readonly output: Uint8Array;
}

/** A payload without outputs (`PayloadData`): what a block commits to before execution. */
export interface PayloadData {
  readonly transactions: readonly Uint8Array[];
  readonly minerData: Uint8Array;
  readonly transactionsHash: Uint8Array;
  readonly outputsHash: Uint8Array;
  readonly payloadHash: Uint8Array;
}

/** A payload with its outputs (`PayloadWithOutputs`), as blocks are served. */
export interface PayloadWithOutputs {
  readonly transactions: readonly TransactionWithOutput[];
  readonly minerData: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly transactionsHash: Uint8Array;
  readonly outputsHash: Uint8Array;
  readonly payloadHash: Uint8Array;
}

const MINER_DATA_PREFIX = leafPrefix(MerkleTag.MinerData);
const TRANSACTION_PREFIX = leafPrefix(MerkleTag.Transaction);
const COINBASE_PREFIX = leafPrefix(MerkleTag.CoinbaseOutput);
const OUTPUT_PREFIX = leafPrefix(MerkleTag.TransactionOutput);

/** Leaves of the transactions tree: the miner data, then each transaction. */
export function transactionsLeaves(
  minerData: Uint8Array,
  transactions: readonly Uint8Array[],
): Uint8Array[] {
  return [
    taggedLeaf(MINER_DATA_PREFIX, minerData),
    ...transactions.map((tx) => taggedLeaf(TRANSACTION_PREFIX, tx)),
  ];
}

/** Leaves of the outputs tree: the coinbase output, then each transaction output. */
export function outputsLeaves(coinbase: Uint8Array, outputs: readonly Uint8Array[]): Uint8Array[] {
  return [
    taggedLeaf(COINBASE_PREFIX, coinbase),
    ...outputs.map((out) => taggedLeaf(OUTPUT_PREFIX, out)),
  ];
}

export function transactionsHash(minerData: Uint8Array, transactions: readonly Uint8Array[]) {
  return merkleRoot(transactionsLeaves(minerData, transactions));
}

export function outputsHash(coinbase: Uint8Array, outputs: readonly Uint8Array[]) {
  return merkleRoot(outputsLeaves(coinbase, outputs));
}

export function payloadHash(txsHash: Uint8Array, outsHash: Uint8Array): Uint8Array {
  return merkleNode(txsHash, outsHash);
}

/** Builds a payload with outputs and computes its three hashes. */
export function makePayloadWithOutputs(
  transactions: readonly TransactionWithOutput[],
  minerData: Uint8Array,
  coinbase: Uint8Array,
): PayloadWithOutputs {
  const txsHash = transactionsHash(
    minerData,
    transactions.map((t) => t.transaction),
  );
  const outsHash = outputsHash(
    coinbase,
    transactions.map((t) => t.output),
  );
  return {
    transactions,
    minerData,
    coinbase,
    transactionsHash: txsHash,
    outputsHash: outsHash,
    payloadHash: payloadHash(txsHash, outsHash),
  };
}

/** Builds a payload without outputs (`outputsHash` is known from execution). */
export function makePayloadData(
  transactions: readonly Uint8Array[],
  minerData: Uint8Array,
  outsHash: Uint8Array,
): PayloadData {
  const txsHash = transactionsHash(minerData, transactions);
  return {
    transactions,
    minerData,
    transactionsHash: txsHash,
    outputsHash: outsHash,
    payloadHash: payloadHash(txsHash, outsHash),
  };
}

/** The payload data (no outputs) of a payload with outputs. */
export function payloadDataOf(payload: PayloadWithOutputs): PayloadData {
  return {
    transactions: payload.transactions.map((t) => t.transaction),
    minerData: payload.minerData,
    transactionsHash: payload.transactionsHash,
    outputsHash: payload.outputsHash,
    payloadHash: payload.payloadHash,
  };
}

/**
 * Recomputes a payload's hashes and names each one that differs from the stated value
 * (empty when all agree).
 */
export function payloadHashMismatches(payload: PayloadWithOutputs | PayloadData): string[] {
  const problems: string[] = [];
  const txs = payload.transactions.map((t) => ("transaction" in t ? t.transaction : t));
  const txsHash = transactionsHash(payload.minerData, txs);
  if (!equalBytes(txsHash, payload.transactionsHash)) problems.push("transactionsHash");
  if ("coinbase" in payload) {
    const outs = payload.transactions.map((t) => t.output);
    if (!equalBytes(outputsHash(payload.coinbase, outs), payload.outputsHash)) {
      problems.push("outputsHash");
    }
  }
  if (
    !equalBytes(payloadHash(payload.transactionsHash, payload.outputsHash), payload.payloadHash)
  ) {
    problems.push("payloadHash");
  }
  return problems;
}
