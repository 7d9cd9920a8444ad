/**
 * Merkle inclusion proofs in merkle-log's proof-object format:
 * `step count (u32 BE) ‖ subject position (u64 BE) ‖ steps`, each step 33 bytes:
 * `side ‖ hash`. Side 0x00 puts the step's hash on the left (`cur = H(0x01 ‖ step ‖ cur)`),
 * 0x01 on the right. Steps run from the subject's leaf up to the root. Proofs through several
 * trees are chained: each tree's root is the (untagged) subject of the next tree, the steps are
 * concatenated, and the position is the subject's position in the first tree.
 */
import { equalBytes } from "../bytes.ts";
import { MERKLE_HASH_BYTES, merkleLeaf, merkleNode } from "./tree.ts";

export const PROOF_HEADER_BYTES = 12;
export const PROOF_STEP_BYTES = 1 + MERKLE_HASH_BYTES;
/** The most steps a proof object may claim; ample for any chained SPV proof (≈ 40 in practice). */
export const MAX_PROOF_STEPS = 1024;

export class MerkleProofError extends Error {
  override name = "MerkleProofError";
}

/** Where a step's hash sits relative to the running hash. */
export const Side = Object.freeze({ Left: 0x00, Right: 0x01 } as const);
export type Side = (typeof Side)[keyof typeof Side];

export interface ProofStep {
  readonly side: Side;
  readonly hash: Uint8Array;
}

export interface ProofObject {
  /** The subject's position in the first tree. */
  readonly position: number;
  readonly steps: readonly ProofStep[];
}

/** The audit path of the leaf at `position` in the tree over `leaves`, leaf first. */
export function merklePath(leaves: readonly Uint8Array[], position: number): ProofStep[] {
  if (!Number.isInteger(position) || position < 0 || position >= leaves.length) {
    throw new MerkleProofError(
      `position ${position} is outside the tree's leaves 0..${leaves.length - 1}`,
    );
  }
  const steps: ProofStep[] = [];
  let start = 0;
  let count = leaves.length;
  let offset = position;
  while (count > 1) {
    const k = largestPowerOfTwoBelow(count);
    if (offset < k) {
      steps.push({ side: Side.Right, hash: subtreeRoot(leaves, start + k, count - k) });
      count = k;
    } else {
      steps.push({ side: Side.Left, hash: subtreeRoot(leaves, start, k) });
      start += k;
      offset -= k;
      count -= k;
    }
  }
  return steps.reverse();
}

function largestPowerOfTwoBelow(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function subtreeRoot(leaves: readonly Uint8Array[], start: number, count: number): Uint8Array {
  if (count === 1) return leaves[start]!;
  const k = largestPowerOfTwoBelow(count);
  return merkleNode(subtreeRoot(leaves, start, k), subtreeRoot(leaves, start + k, count - k));
}

/** Applies the steps to a starting hash and returns the root they lead to. */
export function applySteps(start: Uint8Array, steps: readonly ProofStep[]): Uint8Array {
  let cur = start;
  for (const step of steps) {
    cur = step.side === Side.Left ? merkleNode(step.hash, cur) : merkleNode(cur, step.hash);
  }
  return cur;
}

export function encodeProofObject(proof: ProofObject): Uint8Array {
  const out = new Uint8Array(PROOF_HEADER_BYTES + PROOF_STEP_BYTES * proof.steps.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, proof.steps.length, false);
  view.setBigUint64(4, BigInt(proof.position), false);
  proof.steps.forEach((step, i) => {
    const at = PROOF_HEADER_BYTES + i * PROOF_STEP_BYTES;
    out[at] = step.side;
    out.set(step.hash, at + 1);
  });
  return out;
}

export function decodeProofObject(bytes: Uint8Array): ProofObject {
  if (bytes.length < PROOF_HEADER_BYTES) {
    throw new MerkleProofError(
      `proof object of ${bytes.length} bytes is shorter than its ${PROOF_HEADER_BYTES}-byte header`,
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = view.getUint32(0, false);
  if (count > MAX_PROOF_STEPS) {
    throw new MerkleProofError(`proof object claims ${count} steps; at most ${MAX_PROOF_STEPS}`);
  }
  const expected = PROOF_HEADER_BYTES + count * PROOF_STEP_BYTES;
  if (bytes.length !== expected) {
    throw new MerkleProofError(
      `proof object of ${count} steps must be ${expected} bytes, got ${bytes.length}`,
    );
  }
  const position = view.getBigUint64(4, false);
  if (position > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new MerkleProofError(`proof subject position ${position} is too large`);
  }
  const steps: ProofStep[] = [];
  for (let i = 0; i < count; i++) {
    const at = PROOF_HEADER_BYTES + i * PROOF_STEP_BYTES;
    const side = bytes[at]!;
    if (side !== Side.Left && side !== Side.Right) {
      throw new MerkleProofError(
        `proof step ${i} has side byte 0x${side.toString(16).padStart(2, "0")}; expected 0x00 or 0x01`,
      );
    }
    steps.push({ side, hash: bytes.slice(at + 1, at + PROOF_STEP_BYTES) });
  }
  return { position: Number(position), steps };
}

/** One tree of a chained proof: its leaf hashes and the subject's position among them. */
export interface ProofTree {
  readonly leaves: readonly Uint8Array[];
  readonly position: number;
}

/**
 * Chains proofs through trees: the subject is a leaf of the first tree, and each later tree must
 * hold the previous tree's root at its position. Throws when a tree does not hold its subject.
 */
export function chainedProof(firstLeaf: Uint8Array, trees: readonly ProofTree[]): ProofObject {
  if (trees.length === 0) throw new MerkleProofError("a chained proof needs at least one tree");
  const steps: ProofStep[] = [];
  let subject = firstLeaf;
  trees.forEach((tree, i) => {
    const held = tree.leaves[tree.position];
    if (held === undefined || !equalBytes(held, subject)) {
      throw new MerkleProofError(
        `tree ${i} of the proof does not hold its subject at position ${tree.position}`,
      );
    }
    const path = merklePath(tree.leaves, tree.position);
    steps.push(...path);
    subject = applySteps(subject, path);
  });
  return { position: trees[0]!.position, steps };
}

/** The root a proof object leads to from a typed-input subject (`tag ‖ bytes`). */
export function runProofFromInput(input: Uint8Array, object: Uint8Array): Uint8Array {
  return applySteps(merkleLeaf(input), decodeProofObject(object).steps);
}
