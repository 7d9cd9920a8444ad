/**
 * SPV proofs of a transaction output (chainweb-node's CreateProof.hs and SPV.hs;
 * chainweb-wire.md §4). One chained Merkle proof leads from the output up to a block hash on the
 * target chain:
 *   outputs tree (position index + 1, after the coinbase) → payload tree (outputs hash at 1)
 *   → source header (payload hash at 4) → each later header of the source chain (parent at 2)
 *   → across adjacent chains, each header's adjacent hash (at 11 + its index) → target header.
 * On the wire the proof is base64url of the JSON
 * `{"chain":<target>,"object":<b64 proof object>,"subject":{"input":<b64 tag ‖ output>},
 *   "algorithm":"SHA512t_256"}`.
 * Everything here is pure: the node passes a lookup function for the headers it stores.
 */
import { decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import { distance, hasChain, shortestPath } from "../graph/graph.ts";
import {
  FIRST_ADJACENT_LEAF_POSITION,
  headerLeaves,
  PARENT_LEAF_POSITION,
  PAYLOAD_LEAF_POSITION,
} from "../header/hash.ts";
import type { BlockHeader } from "../header/types.ts";
import {
  chainedProof,
  decodeProofObject,
  encodeProofObject,
  type ProofTree,
  runProofFromInput,
} from "../merkle/proof.ts";
import { MerkleTag } from "../merkle/tags.ts";
import { merkleLeaf, taggedInput } from "../merkle/tree.ts";
import { outputsLeaves, type PayloadWithOutputs } from "../payload/payload.ts";
import { type ChainwebVersion, graphAt } from "../version/version.ts";

export const SPV_ALGORITHM = "SHA512t_256";
/** Position of the outputs hash in the payload tree [transactionsHash, outputsHash]. */
const OUTPUTS_LEAF_POSITION = 1;

/** Chainweb's message when the target chain has no header high enough yet. */
export const TARGET_NOT_REACHABLE = "target chain not reachable. Chainweb instance is too young";

export class SpvError extends Error {
  override name = "SpvError";
}

export interface SpvProof {
  /** The target chain: the proof ends at one of its block hashes. */
  readonly chainId: number;
  /** The subject: `0x0014 (u16 BE) ‖ output bytes`. */
  readonly subject: Uint8Array;
  /** The merkle-log proof object. */
  readonly object: Uint8Array;
}

/** Finds a stored header by chain and hash. */
export type HeaderLookup = (chainId: number, hash: Uint8Array) => BlockHeader | undefined;

/**
 * The height of the lowest target-chain header that can witness a source block: the source
 * height plus the distance between the chains (twice the distances' sum across a graph change,
 * as Chainweb computes it).
 */
export function spvTargetHeight(
  version: ChainwebVersion,
  sourceChain: number,
  targetChain: number,
  sourceHeight: number,
): number {
  const sourceGraph = graphAt(version, sourceHeight);
  for (const chain of [sourceChain, targetChain]) {
    if (!hasChain(sourceGraph, chain)) {
      throw new SpvError(`chain ${chain} is not in the graph at the source height ${sourceHeight}`);
    }
  }
  const sourceDistance = distance(sourceGraph, targetChain, sourceChain);
  const targetGraph = graphAt(version, sourceHeight + sourceDistance);
  if (sourceGraph === targetGraph) return sourceHeight + sourceDistance;
  return sourceHeight + sourceDistance + distance(targetGraph, targetChain, sourceChain);
}

export interface SpvProofInput {
  readonly version: ChainwebVersion;
  /** The payload of the source block. */
  readonly payload: PayloadWithOutputs;
  /** The transaction's index in the block. */
  readonly outputIndex: number;
  /** The block holding the transaction. */
  readonly sourceHeader: BlockHeader;
  /** The target-chain header the proof ends at (see `spvTargetHeight`). */
  readonly targetHeader: BlockHeader;
  readonly lookupHeader: HeaderLookup;
}

/** Creates the proof that the output of transaction `outputIndex` is in the target header. */
export function createSpvProof(input: SpvProofInput): SpvProof {
  const { payload, outputIndex, sourceHeader } = input;
  const output = payload.transactions[outputIndex]?.output;
  if (output === undefined) {
    throw new SpvError(
      `output index ${outputIndex} is outside the block's ${payload.transactions.length} transactions`,
    );
  }
  if (!equalBytes(payload.payloadHash, sourceHeader.payloadHash)) {
    throw new SpvError(
      `the payload ${encodeBase64Url(payload.payloadHash)} is not the source block's payload ${encodeBase64Url(sourceHeader.payloadHash)}`,
    );
  }
  const subject = taggedInput(MerkleTag.TransactionOutput, output);
  const trees: ProofTree[] = [
    {
      leaves: outputsLeaves(
        payload.coinbase,
        payload.transactions.map((t) => t.output),
      ),
      position: outputIndex + 1,
    },
    {
      leaves: [payload.transactionsHash, payload.outputsHash],
      position: OUTPUTS_LEAF_POSITION,
    },
    { leaves: headerLeaves(sourceHeader), position: PAYLOAD_LEAF_POSITION },
    ...headerTreesToTarget(input),
  ];
  const object = encodeProofObject(chainedProof(merkleLeaf(subject), trees));
  return { chainId: input.targetHeader.chainId, subject, object };
}

/**
 * The header trees from the source header (exclusive) to the target header: up the source
 * chain by parent hashes, then across chains by adjacent hashes.
 */
function headerTreesToTarget(input: SpvProofInput): ProofTree[] {
  const { version, sourceHeader, targetHeader, lookupHeader } = input;
  const path = shortestPath(
    graphAt(version, targetHeader.height),
    targetHeader.chainId,
    sourceHeader.chainId,
  );
  if (targetHeader.height + 1 < path.length) throw new SpvError(TARGET_NOT_REACHABLE);
  if (targetHeader.height - path.length < sourceHeader.height) {
    throw new SpvError("Target of SPV proof can't be reached from the source transaction");
  }
  const across: ProofTree[] = [];
  let current = targetHeader;
  for (const chain of path) {
    const index = [...current.adjacents.keys()].sort((a, b) => a - b).indexOf(chain);
    if (index < 0) {
      throw new SpvError(
        `header ${encodeBase64Url(current.hash)} on chain ${current.chainId} has no adjacent parent on chain ${chain}`,
      );
    }
    across.unshift({
      leaves: headerLeaves(current),
      position: FIRST_ADJACENT_LEAF_POSITION + index,
    });
    current = need(lookupHeader, chain, current.adjacents.get(chain)!);
  }
  const up: ProofTree[] = [];
  while (current.height > sourceHeader.height) {
    up.unshift({ leaves: headerLeaves(current), position: PARENT_LEAF_POSITION });
    current = need(lookupHeader, current.chainId, current.parent);
  }
  if (!equalBytes(current.hash, sourceHeader.hash)) {
    throw new SpvError(
      `the source block ${encodeBase64Url(sourceHeader.hash)} is not an ancestor of the target header ${encodeBase64Url(targetHeader.hash)} (found ${encodeBase64Url(current.hash)} at its height)`,
    );
  }
  return [...up, ...across];
}

function need(lookup: HeaderLookup, chainId: number, hash: Uint8Array): BlockHeader {
  const found = lookup(chainId, hash);
  if (found === undefined) {
    throw new SpvError(`header ${encodeBase64Url(hash)} on chain ${chainId} is not known`);
  }
  return found;
}

/** The root hash a proof leads to: a target-chain block hash when the proof is valid. */
export function runSpvProof(proof: SpvProof): Uint8Array {
  return runProofFromInput(proof.subject, proof.object);
}

export type SpvVerification =
  | { readonly ok: true; readonly output: Uint8Array; readonly root: Uint8Array }
  | { readonly ok: false; readonly reason: string };

/**
 * Verifies an output proof: its subject is a transaction output, and the root it leads to is a
 * block of the target chain (asked of `isBlockOnChain`).
 */
export function verifySpvProof(
  proof: SpvProof,
  isBlockOnChain: (chainId: number, hash: Uint8Array) => boolean,
): SpvVerification {
  const tag = ((proof.subject[0] ?? 0) << 8) | (proof.subject[1] ?? 0);
  if (proof.subject.length < 2 || tag !== MerkleTag.TransactionOutput) {
    return { ok: false, reason: "the proof's subject is not a transaction output" };
  }
  let root: Uint8Array;
  try {
    root = runSpvProof(proof);
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
  if (!isBlockOnChain(proof.chainId, root)) {
    return {
      ok: false,
      reason: `the proof leads to ${encodeBase64Url(root)}, not a block of chain ${proof.chainId}`,
    };
  }
  return { ok: true, output: proof.subject.slice(2), root };
}

/** The proof's JSON text, keys in chainweb-node's order. */
export function encodeSpvProofJson(proof: SpvProof): string {
  return JSON.stringify({
    chain: proof.chainId,
    object: encodeBase64Url(proof.object),
    subject: { input: encodeBase64Url(proof.subject) },
    algorithm: SPV_ALGORITHM,
  });
}

/** The wire form: base64url (unpadded) of the proof's JSON text. */
export function encodeSpvProof(proof: SpvProof): string {
  return encodeBase64Url(new TextEncoder().encode(encodeSpvProofJson(proof)));
}

/** Decodes the wire form (or the JSON text itself), checking every field. */
export function decodeSpvProof(text: string): SpvProof {
  const trimmed = text.trim();
  let json: string;
  try {
    json = trimmed.startsWith("{")
      ? trimmed
      : new TextDecoder("utf-8", { fatal: true }).decode(decodeBase64Url(trimmed));
  } catch (e) {
    throw new SpvError(`SPV proof is neither base64url nor JSON: ${(e as Error).message}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (e) {
    throw new SpvError(`SPV proof is not valid JSON: ${(e as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SpvError("SPV proof must be a JSON object");
  }
  const o = value as Record<string, unknown>;
  if (o["algorithm"] !== SPV_ALGORITHM) {
    throw new SpvError(
      `SPV proof algorithm must be "${SPV_ALGORITHM}", got ${JSON.stringify(o["algorithm"])}`,
    );
  }
  const chain = o["chain"];
  if (typeof chain !== "number" || !Number.isInteger(chain) || chain < 0 || chain > 0xffff_ffff) {
    throw new SpvError(`SPV proof "chain" must be a chain id, got ${JSON.stringify(chain)}`);
  }
  const subject = o["subject"] as Record<string, unknown> | null | undefined;
  if (subject === null || typeof subject !== "object" || typeof subject["input"] !== "string") {
    throw new SpvError('SPV proof "subject" must be {"input": <base64url>}');
  }
  if (typeof o["object"] !== "string") {
    throw new SpvError('SPV proof "object" must be a base64url string');
  }
  try {
    const object = decodeBase64Url(o["object"]);
    decodeProofObject(object);
    return { chainId: chain, subject: decodeBase64Url(subject["input"]), object };
  } catch (e) {
    throw new SpvError(`SPV proof: ${(e as Error).message}`);
  }
}
