/**
 * A Chainweb network version as plain data: its code and name, its graph history, timing, the
 * genesis blocks' fields, and the development cheats. New networks are new data, not new code.
 * Facts: `../shared/reference/chainweb-wire.md` §2 and §3.
 */
import type { ChainGraph } from "../graph/graph.ts";

export class ChainwebVersionError extends Error {
  override name = "ChainwebVersionError";
}

/** A graph in force from `fromHeight` until the next entry's height. */
export interface GraphEpoch {
  readonly fromHeight: number;
  readonly graph: ChainGraph;
}

/** The verifier plugins enabled from `fromHeight` until the next entry's height. */
export interface VerifierPluginEpoch {
  readonly fromHeight: number;
  /** Plugin names as commands write them, e.g. `allow`. */
  readonly names: readonly string[];
}

export interface ChainwebVersion {
  /** The name in URLs and header JSON, e.g. "development". */
  readonly name: string;
  /** The u32 in every binary header, e.g. 0x02. */
  readonly code: number;
  /** Graphs by height, ascending; the first starts at height 0. */
  readonly graphs: readonly GraphEpoch[];
  /** The targeted time between blocks of one chain, in microseconds. */
  readonly blockDelayMicros: number;
  /** Blocks per difficulty epoch (Chainweb's WindowWidth). */
  readonly windowWidth: number;
  readonly genesis: {
    /** Creation time and epoch start of every genesis block, µs since the Unix epoch. */
    readonly timeMicros: number;
    /** The proof-of-work target of each chain's genesis block, indexed by chain id. */
    readonly targets: readonly bigint[];
    /** Each chain's genesis payload hash (unpadded base64url), indexed by chain id. */
    readonly payloadHashes: readonly string[];
  };
  readonly cheats: {
    /** Accept any nonce (blocks are still hashed and their targets still checked). */
    readonly disablePow: boolean;
    /** Start the first difficulty epoch at block 1, since genesis times are arbitrary. */
    readonly fakeFirstEpochStart: boolean;
  };
  /** Verifier plugins by height, ascending (Chainweb's `versionVerifierPluginNames`). */
  readonly verifierPlugins: readonly VerifierPluginEpoch[];
  /** The fork number miners vote for; 0 means no fork is pending and votes stay 0. */
  readonly forkNumber: number;
  /**
   * Heights from which current consensus rules apply. Below them a network ran older rules that
   * Braid does not implement, so such blocks cannot be validated inductively.
   */
  readonly ruleHeights: {
    /** Chainweb's OldDAGuard: the difficulty adjustment averaged over adjacent parents. */
    readonly currentDifficultyAdjustment: number;
    /** Chainweb's SkipFeatureFlagValidation: fork number and fork votes are checked. */
    readonly featureFlagValidation: number;
  };
}

/** The graph of blocks at `height`. Headers use the graph at their parent's height. */
export function graphAt(version: ChainwebVersion, height: number): ChainGraph {
  let graph = version.graphs[0]!.graph;
  for (const epoch of version.graphs) {
    if (epoch.fromHeight <= height) graph = epoch.graph;
  }
  return graph;
}

/** The graph a non-genesis header at `height` is braided by: the one at its parent's height. */
export function graphForHeader(version: ChainwebVersion, chainId: number, height: number) {
  return graphAt(version, height === genesisHeight(version, chainId) ? height : height - 1);
}

/** Every chain the version ever has, ascending. */
export function allChainIds(version: ChainwebVersion): readonly number[] {
  return version.graphs[version.graphs.length - 1]!.graph.chainIds;
}

/** The height of a chain's genesis block: the first graph containing the chain. */
export function genesisHeight(version: ChainwebVersion, chainId: number): number {
  for (const epoch of version.graphs) {
    if (epoch.graph.adjacency.has(chainId)) return epoch.fromHeight;
  }
  throw new ChainwebVersionError(`chain ${chainId} does not exist in version ${version.name}`);
}
