/**
 * A cut: the head of every chain of a braid at one moment, the value a node's state is (and
 * what Chainweb's nodes gossip). Its height is the sum of the heads' heights, its weight the sum
 * of their weights, its id the SHA-512/256 hash of the head hashes in chain order,
 * and its wire form CutHashes (chainweb-wire.md §9).
 */
import { parseRequestKey } from "../../command/index.ts";
import { encodeBase64Url, sha512t256Parts } from "../../crypto/index.ts";
import type { BlockHeader } from "../header/types.ts";
import { word256FromBytes, word256ToBytes } from "../word256.ts";

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

/** A cut as a peer sends it (CutHashes): each chain's head hash and height, and who sent it. */
export interface CutHashes {
  readonly heads: ReadonlyMap<number, { readonly hash: Uint8Array; readonly height: number }>;
  /** The weight the sender claims (checked only by the headers it leads to). */
  readonly weight: bigint;
  readonly height: number;
  readonly origin: CutOrigin | null;
}

/**
 * CutHashes JSON (a `PUT /cut` body, a peer's `GET /cut`) for a network of `chainCount` chains:
 * every chain named once with a 32-byte hash and a height; the reason it is not one otherwise.
 * The origin is checked by its reader (the P2P layer's peer objects).
 */
export function decodeCutHashes(value: unknown, chainCount: number): CutHashes | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return "a cut must be a JSON object";
  }
  const { hashes, weight, height, origin } = value as Record<string, unknown>;
  if (typeof hashes !== "object" || hashes === null || Array.isArray(hashes)) {
    return '"hashes" must be an object of chain ids';
  }
  const heads = new Map<number, { hash: Uint8Array; height: number }>();
  for (const [key, entry] of Object.entries(hashes)) {
    const chainId = Number(key);
    if (!/^(0|[1-9]\d*)$/.test(key) || chainId >= chainCount)
      return `"${key}" is not a chain of this network`;
    const { hash, height: h } = (entry ?? {}) as { hash?: unknown; height?: unknown };
    const bytes = typeof hash === "string" ? hashBytes(hash) : null;
    if (bytes === null) return `the hash of chain ${key} is not a base64url block hash`;
    if (typeof h !== "number" || !Number.isSafeInteger(h) || h < 0) {
      return `the height of chain ${key} is not a height`;
    }
    heads.set(chainId, { hash: bytes, height: h });
  }
  if (heads.size !== chainCount) return `the cut names ${heads.size} of ${chainCount} chains`;
  const weightBytes = typeof weight === "string" ? hashBytes(weight) : null;
  if (weightBytes === null) return '"weight" must be a base64url 256-bit word';
  if (typeof height !== "number" || !Number.isSafeInteger(height) || height < 0) {
    return '"height" must be a height';
  }
  return {
    heads,
    weight: word256FromBytes(weightBytes),
    height,
    origin: (origin ?? null) as CutOrigin | null,
  };
}

/**
 * 32 bytes from their one text form (unpadded base64url, unused bits zero: the form request keys
 * have, `parseRequestKey`), or null.
 */
function hashBytes(text: string): Uint8Array | null {
  const parsed = parseRequestKey(text);
  return parsed.ok ? parsed.bytes : null;
}
