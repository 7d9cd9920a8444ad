/**
 * A Chainweb block header as Braid holds it in memory. Field meanings and wire encodings are in
 * `../shared/reference/chainweb-wire.md` §2. Hashes are the raw 32 bytes; their text form is
 * unpadded base64url. Microsecond times and heights fit safely in a JS number for millennia.
 */
export interface BlockHeader {
  /** u64: low 32 bits fork number, high 32 bits fork votes (0 in development). */
  readonly featureFlags: bigint;
  /** Microseconds since the Unix epoch. */
  readonly creationTime: number;
  readonly parent: Uint8Array;
  /** Adjacent chain id → hash of the adjacent parent block. Encoded sorted by chain id. */
  readonly adjacents: ReadonlyMap<number, Uint8Array>;
  /** Word256 proof-of-work target. */
  readonly target: bigint;
  readonly payloadHash: Uint8Array;
  readonly chainId: number;
  /** Word256 accumulated weight. */
  readonly weight: bigint;
  readonly height: number;
  /** The network version's numeric code (development = 0x02, mainnet01 = 0x05). */
  readonly versionCode: number;
  /** Microseconds since the Unix epoch. */
  readonly epochStart: number;
  /** u64 proof-of-work nonce. */
  readonly nonce: bigint;
  /** The block hash (Merkle root of the fields above). */
  readonly hash: Uint8Array;
}

/**
 * What executing on top of a block needs of it: its chain, height, time and hash (a header is
 * one).
 */
export type ParentBlock = Pick<BlockHeader, "chainId" | "height" | "creationTime" | "hash">;
