/**
 * Genesis blocks. A genesis header's parent is `genesisParentHash`: the plain (untagged) Merkle
 * root of three leaves, "CHAINWEB_GENESIS", the version code (u32 LE) and the chain id (u32 LE).
 * Its adjacents are the genesis parent hashes of the neighbouring chains; its creation time and
 * epoch start are the version's genesis time; flags, weight and nonce are 0; its height is the
 * height at which the chain joins the graph. Facts: `chainweb-wire.md` §2.
 */
import { decodeBase64Url } from "../../crypto/index.ts";
import { adjacentChains } from "../graph/graph.ts";
import { merkleLeaf, merkleRoot } from "../merkle/tree.ts";
import { type ChainwebVersion, genesisHeight, graphAt } from "../version/version.ts";
import { computeBlockHash } from "./hash.ts";
import type { BlockHeader } from "./types.ts";

const GENESIS_MARKER = new TextEncoder().encode("CHAINWEB_GENESIS");

function u32le(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, true);
  return out;
}

/** Remembers one value per version and chain (versions are immutable data). */
function perVersionAndChain<T>(make: (version: ChainwebVersion, chainId: number) => T) {
  const cache = new WeakMap<ChainwebVersion, Map<number, T>>();
  return (version: ChainwebVersion, chainId: number): T => {
    let values = cache.get(version);
    if (values === undefined) {
      values = new Map();
      cache.set(version, values);
    }
    let value = values.get(chainId);
    if (value === undefined) {
      value = make(version, chainId);
      values.set(chainId, value);
    }
    return value;
  };
}

/** The parent hash of a chain's genesis block (computed once per version and chain; do not mutate). */
export const genesisParentHash = perVersionAndChain((version, chainId) =>
  merkleRoot([
    merkleLeaf(GENESIS_MARKER),
    merkleLeaf(u32le(version.code)),
    merkleLeaf(u32le(chainId)),
  ]),
);

/** The genesis header of a chain (computed once per version and chain). */
export const genesisHeader = perVersionAndChain(makeGenesisHeader);

function makeGenesisHeader(version: ChainwebVersion, chainId: number): BlockHeader {
  const height = genesisHeight(version, chainId);
  const neighbours = adjacentChains(graphAt(version, height), chainId);
  const time = version.genesis.timeMicros;
  const fields = {
    featureFlags: 0n,
    creationTime: time,
    parent: genesisParentHash(version, chainId),
    adjacents: new Map(neighbours.map((c) => [c, genesisParentHash(version, c)])),
    target: version.genesis.targets[chainId]!,
    payloadHash: decodeBase64Url(version.genesis.payloadHashes[chainId]!),
    chainId,
    weight: 0n,
    height,
    versionCode: version.code,
    epochStart: time,
    nonce: 0n,
    hash: new Uint8Array(32),
  };
  return { ...fields, hash: computeBlockHash(fields) };
}

export function isGenesisHeader(version: ChainwebVersion, header: BlockHeader): boolean {
  return header.height === genesisHeight(version, header.chainId);
}
