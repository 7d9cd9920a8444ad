/**
 * Mining coordination (Chainweb's `/mining/work`, `/mining/solved`, `/mining/updates`;
 * chainweb-wire.md §8): an external miner asks for work, searches a nonce and sends the solved
 * header back. Work is `chainId (u32 LE) ‖ target (32 bytes LE) ‖ the 286 header bytes without
 * the hash`; a miner may change the nonce (offset 278) and the creation time (offset 8) and
 * nothing else. The coordinator remembers the work it handed out (the latest
 * {@link MAX_OPEN_WORK}) by those bytes with nonce and time zeroed, so a solution finds its block's
 * commands again.
 */
import { equalBytes } from "../../chain/bytes.ts";
import { encodeHeaderWithoutHash, HeaderOffset, WORK_BYTES } from "../../chain/header/binary.ts";
import { computePowHash, meetsTarget, powHashHex } from "../../chain/header/hash.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { headerFromWork } from "../../chain/mining/new-header.ts";
import { validateHeader } from "../../chain/validation/validate.ts";
import type { ChainwebVersion } from "../../chain/version/version.ts";
import { word256ToBytes } from "../../chain/word256.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { BlockProducer, PowWork } from "./producer.ts";

/** How many handed-out works are remembered. */
export const MAX_OPEN_WORK = 256;
/** Bytes of a work answer: chain id, target, header without hash. */
export const WORK_RESPONSE_BYTES = 4 + 32 + WORK_BYTES;

/** A solution the node refuses: the status and Chainweb's text. */
export class SolvedWorkRefusal extends Error {
  override readonly name = "SolvedWorkRefusal";
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export class MiningCoordinator {
  private readonly open = new Map<string, PowWork>();

  constructor(
    private readonly version: ChainwebVersion,
    private readonly producer: BlockProducer,
    private readonly nowMicros: () => number = () => Date.now() * 1000,
  ) {}

  /** Work for the next block of `chainId` when it can grow now, else of the lowest chain. */
  async work(chainId?: number): Promise<Uint8Array> {
    const work = await this.producer.nextWork(chainId);
    const header = encodeHeaderWithoutHash(work.header);
    const key = workKey(header);
    this.open.delete(key);
    this.open.set(key, work);
    while (this.open.size > MAX_OPEN_WORK) this.open.delete(this.open.keys().next().value!);
    const out = new Uint8Array(WORK_RESPONSE_BYTES);
    new DataView(out.buffer).setUint32(0, work.chainId, true);
    word256ToBytes(work.header.target, out, 4);
    out.set(header, 36);
    return out;
  }

  /** Stores the block of a solved work; returns its header. Throws {@link SolvedWorkRefusal}. */
  solved(bytes: Uint8Array): BlockHeader {
    if (bytes.length !== WORK_BYTES) {
      throw new SolvedWorkRefusal(
        400,
        `Decoding error: solved work must be the ${WORK_BYTES} bytes of a header without its hash, got ${bytes.length} bytes`,
      );
    }
    const work = this.open.get(workKey(bytes));
    if (work === undefined) throw new SolvedWorkRefusal(404, "No associated Payload");
    const header = headerFromWork(bytes);
    const invalid = (why: string) => new SolvedWorkRefusal(400, `Invalid solved work: ${why}`);
    const pow = computePowHash(header);
    if (!meetsTarget(pow, header.target)) {
      throw invalid(`the PoW hash ${powHashHex(pow)} exceeds the target`);
    }
    const checked = validateHeader({
      version: this.version,
      header,
      parent: work.parent,
      adjacentParents: work.adjacentParents,
      // A solved block is held to the rule of a peer's (BLOCK_TIME_ALLOWANCE_MICROS), as in
      // chainweb-node, where it enters the same cut pipeline.
      now: this.nowMicros(),
    });
    if (!checked.ok) throw invalid(checked.failures.map((f) => f.message).join("; "));
    const stored = this.producer.storeSolved(work, header.nonce, header.creationTime);
    if (stored === null) {
      throw invalid(
        `chain ${work.chainId} moved on since this work was made (its parent is no longer the head); fetch new work`,
      );
    }
    this.open.delete(workKey(bytes));
    if (!equalBytes(stored.hash, header.hash)) {
      throw new Error(
        `the stored block ${encodeBase64Url(stored.hash)} is not the solved header ${encodeBase64Url(header.hash)}`,
      );
    }
    return stored;
  }
}

/** The work's identity: its bytes with the nonce and the creation time zeroed. */
function workKey(header: Uint8Array): string {
  const copy = header.slice(0, WORK_BYTES);
  copy.fill(0, HeaderOffset.creationTime, HeaderOffset.creationTime + 8);
  copy.fill(0, HeaderOffset.nonce, HeaderOffset.nonce + 8);
  return encodeBase64Url(copy);
}
