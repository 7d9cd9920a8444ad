/**
 * Builds real block histories for the chain database's tests and benchmark: headers encoded
 * and hashed by the header codec, payloads hashed by the payload module. The headers are not
 * consensus-valid (no difficulty adjustment); the database does not need them to be.
 */

import { encodeBase64Url } from "../../crypto/index.ts";
import type { Block } from "../db/block-store.ts";
import { genesisHeader } from "../header/genesis.ts";
import { computeBlockHash } from "../header/hash.ts";
import type { BlockHeader } from "../header/types.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../payload/constants.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../payload/payload.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import { allChainIds, type ChainwebVersion } from "../version/version.ts";
import { MAX_WORD256 } from "../word256.ts";

const BLOCK_DELAY_MICROS = 30_000_000;

/** The payload of a block without transactions (the same bytes for every such block). */
export const EMPTY_PAYLOAD: PayloadWithOutputs = makePayloadWithOutputs(
  [],
  NO_MINER_DATA,
  NO_COINBASE_OUTPUT,
);

/** A payload with one made-up transaction, distinct per `label`. */
export function payloadWithTransaction(label: string): PayloadWithOutputs {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  return makePayloadWithOutputs(
    [{ transaction: utf8(`{"tx":"${label}"}`), output: utf8(`{"result":"${label}"}`) }],
    NO_MINER_DATA,
    NO_COINBASE_OUTPUT,
  );
}

/** A chain's genesis block, with `payload` in place of the network's genesis payload. */
export function testGenesis(
  chainId: number,
  payload: PayloadWithOutputs = EMPTY_PAYLOAD,
  version: ChainwebVersion = DEVELOPMENT,
): Block {
  return withHash(
    { ...genesisHeader(version, chainId), payloadHash: payload.payloadHash },
    payload,
  );
}

export interface ChildOptions {
  /** Distinguishes siblings (default 0). */
  readonly nonce?: bigint;
  /** Adjacent parents (default: the parent's). */
  readonly adjacents?: ReadonlyMap<number, Uint8Array>;
  /** A smaller target gives the block more weight (default: the parent's target). */
  readonly target?: bigint;
  readonly payload?: PayloadWithOutputs;
}

/** A block on top of `parent`: height + 1, weight + work of its target, 30 s later. */
export function childBlock(parent: BlockHeader, options: ChildOptions = {}): Block {
  const target = options.target ?? parent.target;
  const payload = options.payload ?? EMPTY_PAYLOAD;
  return withHash(
    {
      ...parent,
      creationTime: parent.creationTime + BLOCK_DELAY_MICROS,
      parent: parent.hash,
      adjacents: options.adjacents ?? parent.adjacents,
      target,
      payloadHash: payload.payloadHash,
      weight: parent.weight + MAX_WORD256 / target,
      height: parent.height + 1,
      nonce: options.nonce ?? 0n,
    },
    payload,
  );
}

function withHash(fields: BlockHeader, payload: PayloadWithOutputs): Block {
  return { header: { ...fields, hash: computeBlockHash(fields) }, payload };
}

/**
 * A chain (chain 0 of development) with forks and orphans, blocks named for the tests:
 * ```
 * height 0   1    2    3    4    5    6    7
 *        G ─ A1 ─ A2 ─ A3 ─ A4 ─ A5 ─ A6 ─ A7     main chain
 *                   │    └─ C4                  orphan
 *                   └─ B3 ─ B4 ─ B5             fork
 * ```
 * B5 carries a payload with a transaction; the others share the empty payload.
 */
export function forkedChain(): Map<string, Block> {
  const blocks = new Map<string, Block>();
  const add = (name: string, block: Block) => blocks.set(name, block);
  const header = (name: string) => blocks.get(name)!.header;
  add("G", testGenesis(0));
  add("A1", childBlock(header("G")));
  for (let height = 2; height <= 7; height++)
    add(`A${height}`, childBlock(header(`A${height - 1}`)));
  add("B3", childBlock(header("A2"), { nonce: 1n }));
  add("B4", childBlock(header("B3"), { nonce: 1n }));
  add("B5", childBlock(header("B4"), { nonce: 1n, payload: payloadWithTransaction("B5") }));
  add("C4", childBlock(header("A3"), { nonce: 2n }));
  return blocks;
}

/**
 * {@link forkedChain} with what its tests look up by name: a block, its hash, and the names of
 * headers ("?" for a header not of the chain).
 */
export function namedForkedChain() {
  const history = forkedChain();
  const nameOf = new Map([...history].map(([name, b]) => [encodeBase64Url(b.header.hash), name]));
  const block = (name: string) => history.get(name)!;
  return {
    history,
    block,
    hash: (name: string) => block(name).header.hash,
    names: (headers: Iterable<BlockHeader>) =>
      [...headers].map((h) => nameOf.get(encodeBase64Url(h.hash)) ?? "?"),
  };
}

/** A block on `parent` whose adjacent parents are the given blocks of the adjacent chains. */
export function braidedChild(
  parent: BlockHeader,
  adjacentParents: ReadonlyMap<number, BlockHeader>,
  options: Omit<ChildOptions, "adjacents"> = {},
): Block {
  const adjacents = new Map(
    [...parent.adjacents.keys()].map((chainId) => [chainId, adjacentParents.get(chainId)!.hash]),
  );
  return childBlock(parent, { ...options, adjacents });
}

/**
 * Every chain of the version advancing in step: `layers[h]` maps each chain to its block at
 * height h, whose adjacent parents are the adjacent chains' blocks at height h - 1.
 */
export function braidedLayers(
  height: number,
  version: ChainwebVersion = DEVELOPMENT,
): Map<number, BlockHeader>[] {
  const chainIds = allChainIds(version);
  const layers = [new Map(chainIds.map((c) => [c, testGenesis(c, EMPTY_PAYLOAD, version).header]))];
  for (let h = 1; h <= height; h++) {
    const below = layers[h - 1]!;
    layers.push(new Map(chainIds.map((c) => [c, braidedChild(below.get(c)!, below).header])));
  }
  return layers;
}
