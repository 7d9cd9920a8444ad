/**
 * A cut: the head of every chain of a braid at one moment, the value a node's state is (and
 * what Chainweb's nodes gossip). Its height is the sum of the heads' heights, its weight the sum
 * of their weights, its id the SHA-512/256 hash of the head hashes in chain order,
 * and its wire form CutHashes (chainweb-wire.md §9).
 *
 * CutHashes may carry blocks along (chainweb-node's optional `headers` and `payloads` maps, which
 * its nodes consult before asking the origin): a node gossiping blocks it just made sends them
 * with its cut, so its peers import them without a request.
 */
import { parseRequestKey } from "../../command/index.ts";
import { encodeBase64Url, sha512t256Parts } from "../../crypto/index.ts";
import { decodeHeaderBase64, encodeHeaderBase64 } from "../header/json.ts";
import type { BlockHeader } from "../header/types.ts";
import { decodePayloadDataObject, encodePayloadDataObject } from "../payload/json.ts";
import type { PayloadData } from "../payload/payload.ts";
import { type ChainwebVersion, graphAt } from "../version/version.ts";
import { word256FromBytes, word256ToBytes } from "../word256.ts";

/** The head of each chain, by chain id. */
export type Cut = ReadonlyMap<number, BlockHeader>;

const WORD256_MAX = (1n << 256n) - 1n;

/** The most headers, and the most payloads, a cut received may carry along. */
export const CUT_ATTACHMENT_LIMIT = 1_000;

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
 * The cut limited to the cut height `maxheight` (`GET /cut?maxheight=`), as chainweb-node's
 * `limitCut` does: the average chain height at that cut height (`maxheight` over the number of
 * chains the graph has there, rounded down) bounds every chain, whose head above it steps back to
 * its ancestor at that height (`ancestorAt`: one lookup, not a walk). Chains the graph does not
 * have yet at the lowest head left are left out. The result's height may be below `maxheight`.
 */
export function limitCutHeight(
  version: ChainwebVersion,
  cut: Cut,
  maxheight: number,
  ancestorAt: (header: BlockHeader, height: number) => BlockHeader | undefined,
): Cut {
  const bound = Math.floor(maxheight / chainCountAtCutHeight(version, maxheight));
  if ([...cut.values()].every((head) => head.height <= bound)) return cut;
  const heads = new Map<number, BlockHeader>();
  for (const [chainId, head] of cut) {
    const limited = head.height <= bound ? head : ancestorAt(head, bound);
    if (limited !== undefined) heads.set(chainId, limited);
  }
  const lowest = Math.min(...[...heads.values()].map((head) => head.height));
  const present = graphAt(version, lowest).adjacency;
  for (const chainId of heads.keys()) if (!present.has(chainId)) heads.delete(chainId);
  return heads;
}

/** The number of chains at a cut height: a graph's epoch starts at its height times its order. */
function chainCountAtCutHeight(version: ChainwebVersion, cutHeight: number): number {
  let count = version.graphs[0]!.graph.chainIds.length;
  for (const { fromHeight, graph } of version.graphs) {
    if (fromHeight * graph.chainIds.length <= cutHeight) count = graph.chainIds.length;
  }
  return count;
}

/** Who sent a cut: a peer's id (or null) and address. */
export interface CutOrigin {
  readonly id: string | null;
  readonly address: { readonly hostname: string; readonly port: number };
}

/** Blocks a cut carries along: headers, and payloads without their outputs. */
export interface CutAttachments {
  readonly headers: readonly BlockHeader[];
  readonly payloads: readonly PayloadData[];
}

const NO_ATTACHMENTS: CutAttachments = { headers: [], payloads: [] };

/**
 * The cut as CutHashes JSON, for the network `instance` (its name), from `origin` (null: ours),
 * with `attached` blocks in its `headers` and `payloads` maps (left out when empty, as
 * chainweb-node does).
 */
export function encodeCutHashes(
  cut: Cut,
  instance: string,
  origin: CutOrigin | null,
  attached: CutAttachments = NO_ATTACHMENTS,
): string {
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
    ...(attached.headers.length === 0
      ? {}
      : {
          headers: Object.fromEntries(
            attached.headers.map((h) => [encodeBase64Url(h.hash), encodeHeaderBase64(h)]),
          ),
        }),
    ...(attached.payloads.length === 0
      ? {}
      : {
          payloads: Object.fromEntries(
            attached.payloads.map((p) => [
              encodeBase64Url(p.payloadHash),
              encodePayloadDataObject(p),
            ]),
          ),
        }),
  });
}

/** A cut as a peer sends it (CutHashes): each chain's head hash and height, and who sent it. */
export interface CutHashes {
  readonly heads: ReadonlyMap<number, { readonly hash: Uint8Array; readonly height: number }>;
  /** The weight the sender claims (checked only by the headers it leads to). */
  readonly weight: bigint;
  readonly height: number;
  readonly origin: CutOrigin | null;
  /** The blocks it carries along (none when it names only hashes). */
  readonly attached: CutAttachments;
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
  const { hashes, weight, height, origin, headers, payloads } = value as Record<string, unknown>;
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
  const attachedHeaders = decodeAttached("headers", headers, (v) =>
    typeof v === "string" ? decodeHeaderBase64(v) : null,
  );
  if (typeof attachedHeaders === "string") return attachedHeaders;
  const attachedPayloads = decodeAttached("payloads", payloads, decodePayloadDataObject);
  if (typeof attachedPayloads === "string") return attachedPayloads;
  return {
    heads,
    weight: word256FromBytes(weightBytes),
    height,
    origin: (origin ?? null) as CutOrigin | null,
    attached: { headers: attachedHeaders, payloads: attachedPayloads },
  };
}

/**
 * The values of an optional map a cut carries (`headers`, `payloads`; their keys are the values'
 * own hashes, which are read from the values, as chainweb-node does), or the reason it is not one.
 */
function decodeAttached<T>(
  name: string,
  map: unknown,
  decode: (value: unknown) => T | null,
): T[] | string {
  if (map === undefined) return [];
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    return `"${name}" must be an object of hashes`;
  }
  const values = Object.values(map);
  if (values.length > CUT_ATTACHMENT_LIMIT) {
    return `"${name}" holds ${values.length} entries, more than this node takes (${CUT_ATTACHMENT_LIMIT})`;
  }
  const decoded: T[] = [];
  for (const [key, value] of Object.entries(map)) {
    let item: T | null;
    try {
      item = decode(value);
    } catch {
      item = null;
    }
    if (item === null) return `"${name}": the entry ${key.slice(0, 64)} does not decode`;
    decoded.push(item);
  }
  return decoded;
}

/**
 * 32 bytes from their one text form (unpadded base64url, unused bits zero: the form request keys
 * have, `parseRequestKey`), or null.
 */
function hashBytes(text: string): Uint8Array | null {
  const parsed = parseRequestKey(text);
  return parsed.ok ? parsed.bytes : null;
}
