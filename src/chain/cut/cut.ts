/**
 * A cut: the head of every chain of a braid at one moment, the value a node's state is (and
 * what Chainweb's nodes gossip). Its height is the sum of the heads' heights, its weight the sum
 * of their weights, its id the SHA-512/256 hash of the head hashes in chain order,
 * and its wire form CutHashes (chainweb-wire.md §9).
 */
import { encodeBase64Url, sha512t256Parts } from "../../crypto/index.ts";
import type { BlockHeader } from "../header/types.ts";
import { word256ToBytes } from "../word256.ts";

/** The head of each chain, by chain id. */
export type Cut = ReadonlyMap<number, BlockHeader>;

const WORD256_MAX = (1n << 256n) - 1n;

/** The chain ids of the cut, ascending. */
function chainIdsOf(cut: Cut): number[] {
  return [...cut.keys()].sort((a, b) => a - b);
}

/** The sum of the heads' heights. */
export function cutHeight(cut: Cut): number {
  let height = 0;
  for (const head of cut.values()) height += head.height;
  return height;
}

/** The sum of the heads' weights, modulo 2^256 as Chainweb's weight word holds it. */
export function cutWeight(cut: Cut): bigint {
  let weight = 0n;
  for (const head of cut.values()) weight += head.weight;
  return weight & WORD256_MAX;
}

/** The cut's id: SHA-512/256 of the head hashes, in chain order. */
export function cutId(cut: Cut): Uint8Array {
  return sha512t256Parts(chainIdsOf(cut).map((c) => cut.get(c)!.hash));
}

/**
 * The cut stepped back, highest head first, until its height is at most `maxheight` (`GET /cut`
 * with `maxheight`); `parentOf` finds a head's parent. A head without a parent stays.
 */
export function limitCutHeight(
  cut: Cut,
  maxheight: number,
  parentOf: (header: BlockHeader) => BlockHeader | undefined,
): Cut {
  const heads = new Map(cut);
  let height = cutHeight(heads);
  while (height > maxheight) {
    let top: BlockHeader | undefined;
    for (const h of heads.values()) if (top === undefined || h.height > top.height) top = h;
    const parent = top === undefined ? undefined : parentOf(top);
    if (top === undefined || parent === undefined) break;
    heads.set(top.chainId, parent);
    height -= top.height - parent.height;
  }
  return heads;
}

/** Who sent a cut: a peer's id (or null) and address. */
export interface CutOrigin {
  readonly id: string | null;
  readonly address: { readonly hostname: string; readonly port: number };
}

/** The cut as CutHashes JSON, for the network `instance` (its name), from `origin` (null: ours). */
export function encodeCutHashes(cut: Cut, instance: string, origin: CutOrigin | null): string {
  const hashes: Record<string, { height: number; hash: string }> = {};
  for (const c of chainIdsOf(cut)) {
    const head = cut.get(c)!;
    hashes[String(c)] = { height: head.height, hash: encodeBase64Url(head.hash) };
  }
  return JSON.stringify({
    hashes,
    origin,
    weight: encodeBase64Url(word256ToBytes(cutWeight(cut))),
    height: cutHeight(cut),
    instance,
    id: encodeBase64Url(cutId(cut)),
  });
}
