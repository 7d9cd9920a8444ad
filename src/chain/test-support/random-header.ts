/** Random but well-formed block headers for property tests. */
import type { BlockHeader } from "../header/types.ts";
import type { Random } from "./random.ts";

export function randomHeader(random: Random, versionCode = 0x02): BlockHeader {
  const adjacentIds = new Set<number>();
  while (adjacentIds.size < 3) adjacentIds.add(random.int(20));
  return {
    featureFlags: random.bigint(52),
    creationTime: random.int(2 ** 31) * 1_000_000 + random.int(1_000_000),
    parent: random.bytes(32),
    adjacents: new Map([...adjacentIds].map((id) => [id, random.bytes(32)])),
    target: random.bigint(256),
    payloadHash: random.bytes(32),
    chainId: random.int(20),
    weight: random.bigint(256),
    height: random.int(2 ** 32) * 1024 + random.int(1024),
    versionCode,
    epochStart: random.int(2 ** 31) * 1_000_000,
    nonce: random.bigint(64),
    hash: random.bytes(32),
  };
}
