/**
 * A seeded generator of braided chain histories for tests and benchmarks: genesis headers of
 * every chain, then blocks added one at a time on a random chain whose neighbours have caught
 * up, with random payloads, creation times about one block delay apart, and a mined nonce when
 * the version requires proof of work.
 */
import { encodeBase64Url } from "../../crypto/index.ts";
import { adjacentChains } from "../graph/graph.ts";
import { encodeHeaderWithoutHash } from "../header/binary.ts";
import { genesisHeader } from "../header/genesis.ts";
import type { BlockHeader } from "../header/types.ts";
import { mineNonce } from "../mining/mine.ts";
import { headerFromWork, makeBlockHeader } from "../mining/new-header.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../payload/payload.ts";
import { allChainIds, type ChainwebVersion, genesisHeight, graphAt } from "../version/version.ts";
import type { Random } from "./random.ts";

export interface ChainwebHistory {
  readonly version: ChainwebVersion;
  /** Headers by chain, indexed by height − genesis height. */
  readonly chains: readonly BlockHeader[][];
  /** Every header (genesis included) in the order it was made. */
  readonly headers: readonly BlockHeader[];
  /** Payloads of the non-genesis blocks, by base64url payload hash. */
  readonly payloads: ReadonlyMap<string, PayloadWithOutputs>;
  /** Finds a header by chain and hash. */
  lookup(chainId: number, hash: Uint8Array): BlockHeader | undefined;
  /** The header of a chain at a height, if made. */
  at(chainId: number, height: number): BlockHeader | undefined;
}

const MAX_MINING_TRIES = 1_000_000;

export function makeChainwebHistory(
  random: Random,
  version: ChainwebVersion,
  blocks: number,
  maxTransactions = 4,
): ChainwebHistory {
  const chains = allChainIds(version).map((c) => [genesisHeader(version, c)]);
  const headers: BlockHeader[] = chains.map((c) => c[0]!);
  const byHash = new Map(headers.map((h) => [encodeBase64Url(h.hash), h]));
  const payloads = new Map<string, PayloadWithOutputs>();
  const at = (chainId: number, height: number) =>
    chains[chainId]?.[height - genesisHeight(version, chainId)];
  const tip = (chainId: number) => chains[chainId]!.at(-1)!;

  const extendable = () =>
    allChainIds(version).filter((c) => {
      const parent = tip(c);
      const graph = graphAt(version, parent.height);
      if (!graph.adjacency.has(c)) return false;
      return adjacentChains(graph, c).every((n) => at(n, parent.height) !== undefined);
    });

  for (let i = 0; i < blocks; i++) {
    const chainId = random.pick(extendable());
    const parent = tip(chainId);
    const neighbours = adjacentChains(graphAt(version, parent.height), chainId);
    const adjacentParents = new Map(neighbours.map((n) => [n, at(n, parent.height)!]));
    const latest = Math.max(...[parent, ...adjacentParents.values()].map((h) => h.creationTime));
    const delay = version.blockDelayMicros;
    const creationTime = latest + random.between(Math.floor(delay * 0.8), Math.floor(delay * 1.2));
    const payload = randomPayload(random, maxTransactions);
    payloads.set(encodeBase64Url(payload.payloadHash), payload);
    let header = makeBlockHeader({
      version,
      parent,
      adjacentParents,
      payloadHash: payload.payloadHash,
      creationTime,
    });
    if (!version.cheats.disablePow) {
      const work = encodeHeaderWithoutHash(header);
      if (mineNonce(work, header.target, random.bigint(64), MAX_MINING_TRIES) === undefined) {
        throw new Error(`no nonce found in ${MAX_MINING_TRIES} tries`);
      }
      header = headerFromWork(work);
    }
    chains[chainId]!.push(header);
    headers.push(header);
    byHash.set(encodeBase64Url(header.hash), header);
  }
  return {
    version,
    chains,
    headers,
    payloads,
    at,
    lookup(chainId, hash) {
      const found = byHash.get(encodeBase64Url(hash));
      return found?.chainId === chainId ? found : undefined;
    },
  };
}

function randomPayload(random: Random, maxTransactions: number): PayloadWithOutputs {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const count = random.int(maxTransactions + 1);
  const transactions = Array.from({ length: count }, (_, i) => ({
    transaction: utf8(`{"tx":${i},"nonce":"${encodeBase64Url(random.bytes(random.int(40)))}"}`),
    output: utf8(
      `{"result":${random.u32()},"log":"${encodeBase64Url(random.bytes(random.int(60)))}"}`,
    ),
  }));
  return makePayloadWithOutputs(
    transactions,
    utf8(`{"account":"miner-${random.int(5)}"}`),
    utf8(`{"coinbase":${random.u32()}}`),
  );
}
