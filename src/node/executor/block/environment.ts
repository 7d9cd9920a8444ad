/**
 * The environment a block's commands run in, from plain parts: what every chain of the node
 * shares, the parent block, its miner, and where proofs find their roots. The node's chains and
 * its execution threads build it the same way.
 */
import type { ParentBlock } from "../../../chain/header/types.ts";
import type { ChainwebVersion } from "../../../chain/version/version.ts";
import type { Decimal } from "../../../pact/values/index.ts";
import type { MinerAccount } from "../../options.ts";
import { continuationVerifier, type ProofAncestry, spvVerifier } from "../../spv.ts";
import { verifierPluginsAt } from "../../verifiers/index.ts";
import type { BlockEnvironment } from "./block-executor.ts";

/** What the blocks of every chain of a node share. */
export interface EnvironmentParts {
  readonly version: ChainwebVersion;
  readonly networkId: string;
  /** The node's own miner: paid by the blocks it makes. */
  readonly miner: MinerAccount;
  /** The coinbase reward of every block. */
  readonly reward: Decimal;
  readonly blockGasLimit: number;
}

/**
 * The environment of a child of `parent` on `chainId` mined by `miner`; its proofs' roots are
 * looked for in `ancestry`.
 */
export function blockEnvironment(
  parts: EnvironmentParts,
  chainId: number,
  parent: ParentBlock,
  ancestry: ProofAncestry,
  miner: MinerAccount = parts.miner,
): BlockEnvironment {
  return {
    networkId: parts.networkId,
    chainId,
    parentHash: parent.hash,
    parentHeight: parent.height,
    parentTime: parent.creationTime,
    miner,
    reward: parts.reward,
    blockGasLimit: parts.blockGasLimit,
    continuationVerifier: continuationVerifier(ancestry, chainId, parent),
    spvVerifier: spvVerifier(ancestry, chainId, parent),
    verifierPlugins: verifierPluginsAt(parts.version, parent.height + 1),
  };
}
