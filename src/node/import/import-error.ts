/**
 * Why a block was refused on import, as a code (for logs and, later, for scoring the peer that
 * sent it) with the block and the reason in words. A refused block is stored nowhere.
 */
import { encodeBase64Url } from "../../crypto/index.ts";

export type ImportErrorCode =
  /** The header fails a check of the chain core (its parent unknown, hash, braiding, weight …). */
  | "invalid-header"
  /**
   * The header fails no check but one: it was created after this node's clock (chain core's
   * `BlockInTheFuture`, chainweb-node's rule). It may be valid later; nothing of it is kept.
   */
  | "block-in-the-future"
  /** The payload's hashes do not match its contents, or the header's `payloadHash`. */
  | "payload-mismatch"
  /** The payload's miner data is not a miner Braid can pay. */
  | "invalid-miner-data"
  /**
   * A transaction of the payload is not a valid command (its hash or a signature is wrong), or
   * cannot be in the block (already on its branch, for another chain, out of its time).
   */
  | "invalid-command"
  /** Executing the payload's commands gives other outputs than the payload holds. */
  | "outputs-mismatch";

export class ImportError extends Error {
  override readonly name = "ImportError";
  constructor(
    readonly code: ImportErrorCode,
    readonly chainId: number,
    readonly blockHash: Uint8Array,
    readonly reason: string,
  ) {
    super(
      `block ${encodeBase64Url(blockHash)} of chain ${chainId} is refused (${code}): ${reason}`,
    );
  }
}
