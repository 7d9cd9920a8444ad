/**
 * Building the next header of a chain (chainweb-node's `newBlockHeader`): height, target, epoch
 * start, weight and fork state follow from the parent and the adjacent parents, the rest is
 * chosen by the miner. The hash is computed; the nonce can be searched afterwards with
 * `mineNonce` on the header's work bytes.
 */
import { expectedEpochStart, expectedTarget, expectedWeight } from "../difficulty/difficulty.ts";
import { newForkState } from "../difficulty/fork-state.ts";
import { adjacentChains } from "../graph/graph.ts";
import { decodeHeaderWithoutHash, HASH_BYTES } from "../header/binary.ts";
import { blockHashOfWork, computeBlockHash } from "../header/hash.ts";
import type { BlockHeader } from "../header/types.ts";
import { type ChainwebVersion, graphAt } from "../version/version.ts";

export class NewHeaderError extends Error {
  override name = "NewHeaderError";
}

export interface NewHeaderInput {
  readonly version: ChainwebVersion;
  readonly parent: BlockHeader;
  /** The blocks at the parent's height on each adjacent chain, by chain id. */
  readonly adjacentParents: ReadonlyMap<number, BlockHeader>;
  readonly payloadHash: Uint8Array;
  /** Microseconds; must be after the parent's and every adjacent parent's creation time. */
  readonly creationTime: number;
  readonly nonce?: bigint;
}

export function makeBlockHeader(input: NewHeaderInput): BlockHeader {
  const { version, parent, adjacentParents } = input;
  const expected = adjacentChains(graphAt(version, parent.height), parent.chainId);
  const given = [...adjacentParents.keys()].sort((a, b) => a - b);
  if (given.join() !== expected.join()) {
    throw new NewHeaderError(
      `a block on chain ${parent.chainId} after height ${parent.height} needs adjacent parents on chains ${expected.join(", ")}, got ${given.join(", ")}`,
    );
  }
  const adjacents = [...adjacentParents.values()];
  const target = expectedTarget(version, parent, adjacents);
  const fields: BlockHeader = {
    featureFlags: newForkState(parent, adjacents, version.forkNumber),
    creationTime: input.creationTime,
    parent: parent.hash,
    adjacents: new Map([...adjacentParents].map(([c, h]) => [c, h.hash])),
    target,
    payloadHash: input.payloadHash,
    chainId: parent.chainId,
    weight: expectedWeight(parent.weight, target),
    height: parent.height + 1,
    versionCode: version.code,
    epochStart: expectedEpochStart(version, parent),
    nonce: input.nonce ?? 0n,
    hash: new Uint8Array(HASH_BYTES),
  };
  return { ...fields, hash: computeBlockHash(fields) };
}

/** The header whose first 286 bytes are `work` (e.g. solved mining work), hash computed. */
export function headerFromWork(work: Uint8Array): BlockHeader {
  return decodeHeaderWithoutHash(work, blockHashOfWork(work));
}
