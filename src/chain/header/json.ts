/**
 * The JSON forms of a block header (chainweb-wire.md §2):
 * - the default form: a string, base64url of the 318 binary bytes;
 * - the object form, keys in chainweb-node's order: nonce (decimal string), creationTime,
 *   parent, adjacents ({"<chain id>": hash}), target (base64url of 32 LE bytes), payloadHash,
 *   chainId, weight (like target), height, chainwebVersion (the network's name), chainVersion
 *   (the same name, the interface spec's key), epochStart, featureFlags, hash;
 * - the sorted-key object form of the header stream (SSE), adjacents keys sorted as text.
 * Numbers in the object form are JSON numbers, so `featureFlags` must stay below 2^53 there.
 */
import { decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import { findVersionByCode, findVersionByName } from "../version/known-versions.ts";
import type { ChainwebVersion } from "../version/version.ts";
import { WORD256_BYTES, word256FromBytes, word256ToBytes } from "../word256.ts";
import { ADJACENT_COUNT, decodeHeader, encodeHeader, HASH_BYTES } from "./binary.ts";
import type { BlockHeader } from "./types.ts";

export class HeaderJsonError extends Error {
  override name = "HeaderJsonError";
}

/**
 * The object form's fields, in chainweb-node's order. The network's name is written twice:
 * `chainwebVersion` is what chainweb-node writes and deployed clients read, `chainVersion` what
 * the interface spec names. `chainVersion` comes right after `chainwebVersion`, where the spec
 * lists it (between `height` and `epochStart`), so both the spec's order and chainweb-node's order
 * of their own keys hold.
 */
export interface HeaderObject {
  nonce: string;
  creationTime: number;
  parent: string;
  adjacents: Record<string, string>;
  target: string;
  payloadHash: string;
  chainId: number;
  weight: string;
  height: number;
  chainwebVersion: string;
  chainVersion: string;
  epochStart: number;
  featureFlags: number;
  hash: string;
}

const U64_MAX = 0xffff_ffff_ffff_ffffn;

export function encodeHeaderObject(
  header: BlockHeader,
  versions?: readonly ChainwebVersion[],
): HeaderObject {
  if (header.featureFlags > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new HeaderJsonError(
      `featureFlags ${header.featureFlags} is too large for the JSON object form (limit 2^53 - 1)`,
    );
  }
  const adjacents: Record<string, string> = {};
  for (const id of [...header.adjacents.keys()].sort((a, b) => a - b)) {
    adjacents[String(id)] = encodeBase64Url(header.adjacents.get(id)!);
  }
  const network = findVersionByCode(header.versionCode, versions).name;
  return {
    nonce: header.nonce.toString(),
    creationTime: header.creationTime,
    parent: encodeBase64Url(header.parent),
    adjacents,
    target: encodeBase64Url(word256ToBytes(header.target)),
    payloadHash: encodeBase64Url(header.payloadHash),
    chainId: header.chainId,
    weight: encodeBase64Url(word256ToBytes(header.weight)),
    height: header.height,
    chainwebVersion: network,
    chainVersion: network,
    epochStart: header.epochStart,
    featureFlags: Number(header.featureFlags),
    hash: encodeBase64Url(header.hash),
  };
}

/** The object form as JSON text, keys in chainweb-node's order. */
export function encodeHeaderJson(header: BlockHeader, versions?: readonly ChainwebVersion[]) {
  return JSON.stringify(encodeHeaderObject(header, versions));
}

/**
 * The object form with every key sorted as text, as the header stream sends it (aeson's
 * `toJSON` with an ordered key map): adjacents come out as "10", "15", "5".
 */
export function encodeHeaderSortedJson(
  header: BlockHeader,
  versions?: readonly ChainwebVersion[],
): string {
  return sortedJson(encodeHeaderObject(header, versions));
}

function sortedJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(",")}}`;
}

/** The default JSON form: base64url of the binary header. */
export function encodeHeaderBase64(header: BlockHeader): string {
  return encodeBase64Url(encodeHeader(header));
}

export function decodeHeaderBase64(text: string): BlockHeader {
  return decodeHeader(decodeBase64Url(text));
}

/**
 * Decodes the object form, keys in any order (unknown keys, such as the extended form's
 * `powHash`, are ignored). The network is `chainwebVersion` or `chainVersion`, or both naming the
 * same one. Every bad or missing field is named in one HeaderJsonError.
 */
export function decodeHeaderObject(
  value: unknown,
  versions?: readonly ChainwebVersion[],
): BlockHeader {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new HeaderJsonError(
      `a block header object must be a JSON object, got ${describe(value)}`,
    );
  }
  const o = value as Record<string, unknown>;
  const problems: string[] = [];
  const field = <T>(name: string, parse: (v: unknown) => T, fallback: T): T => {
    if (!(name in o)) {
      problems.push(`missing field "${name}"`);
      return fallback;
    }
    try {
      return parse(o[name]);
    } catch (e) {
      problems.push(`field "${name}": ${(e as Error).message}`);
      return fallback;
    }
  };
  const zero = new Uint8Array(HASH_BYTES);
  const header: BlockHeader = {
    featureFlags: field(
      "featureFlags",
      (v) => BigInt(safeInteger(v, 0, Number.MAX_SAFE_INTEGER)),
      0n,
    ),
    creationTime: field("creationTime", (v) => safeInteger(v), 0),
    parent: field("parent", hash, zero),
    adjacents: field("adjacents", adjacentsObject, new Map()),
    target: field("target", word256, 0n),
    payloadHash: field("payloadHash", hash, zero),
    chainId: field("chainId", (v) => safeInteger(v, 0, 0xffff_ffff), 0),
    weight: field("weight", word256, 0n),
    height: field("height", (v) => safeInteger(v, 0), 0),
    versionCode: versionCodeOf(o, problems, versions),
    epochStart: field("epochStart", (v) => safeInteger(v), 0),
    nonce: field("nonce", nonce, 0n),
    hash: field("hash", hash, zero),
  };
  if (problems.length > 0) {
    throw new HeaderJsonError(`invalid block header object: ${problems.join("; ")}`);
  }
  return header;
}

/** The keys a network name may come under: chainweb-node's, then the interface spec's. */
const VERSION_KEYS = ["chainwebVersion", "chainVersion"] as const;

function versionCodeOf(
  o: Record<string, unknown>,
  problems: string[],
  versions: readonly ChainwebVersion[] | undefined,
): number {
  const given = VERSION_KEYS.filter((key) => key in o);
  if (given.length === 0) {
    problems.push(`missing field "chainwebVersion" (or "chainVersion")`);
    return 0;
  }
  const found = given.flatMap((key) => {
    try {
      return [{ key, version: findVersionByName(text(o[key]), versions) }];
    } catch (e) {
      problems.push(`field "${key}": ${(e as Error).message}`);
      return [];
    }
  });
  const [first, second] = found;
  if (first !== undefined && second !== undefined && first.version.name !== second.version.name) {
    problems.push(
      `fields "${first.key}" and "${second.key}" name different networks (${first.version.name}, ${second.version.name})`,
    );
  }
  return first?.version.code ?? 0;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}

function text(v: unknown): string {
  if (typeof v !== "string") throw new Error(`expected a string, got ${describe(v)}`);
  return v;
}

function safeInteger(v: unknown, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  if (typeof v !== "number" || !Number.isSafeInteger(v)) {
    throw new Error(`expected an integer, got ${describe(v)}`);
  }
  if (v < min || v > max) throw new Error(`${v} is outside ${min}..${max}`);
  return v;
}

function bytes(v: unknown, length: number): Uint8Array {
  const decoded = decodeBase64Url(text(v));
  if (decoded.length !== length) {
    throw new Error(`expected base64url of ${length} bytes, got ${decoded.length} bytes`);
  }
  return decoded;
}

const hash = (v: unknown) => bytes(v, HASH_BYTES);
const word256 = (v: unknown) => word256FromBytes(bytes(v, WORD256_BYTES));

function nonce(v: unknown): bigint {
  const digits = text(v);
  if (!/^(0|[1-9][0-9]*)$/.test(digits)) {
    throw new Error(`expected a decimal string, got ${describe(v)}`);
  }
  const n = BigInt(digits);
  if (n > U64_MAX) throw new Error(`${digits} does not fit in 64 bits`);
  return n;
}

function adjacentsObject(v: unknown): Map<number, Uint8Array> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new Error(`expected an object of chain id to hash, got ${describe(v)}`);
  }
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length !== ADJACENT_COUNT) {
    throw new Error(`expected ${ADJACENT_COUNT} adjacent parents, got ${entries.length}`);
  }
  const map = new Map<number, Uint8Array>();
  for (const [key, h] of entries) {
    if (!/^(0|[1-9][0-9]*)$/.test(key) || Number(key) > 0xffff_ffff) {
      throw new Error(`key ${JSON.stringify(key)} is not a chain id`);
    }
    try {
      map.set(Number(key), hash(h));
    } catch (e) {
      throw new Error(`chain ${key}: ${(e as Error).message}`);
    }
  }
  return map;
}
