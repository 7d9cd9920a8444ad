/**
 * Checking and storing blocks made elsewhere (a peer's, or a competing branch in a test), parents
 * first: each header is validated by the chain core against its parent and adjacent parents,
 * each payload's hashes are checked, and each block is executed on its fork's state and must
 * give the outputs it holds (fork-execution.ts). Only when every block of the batch passes is
 * the batch stored (adopting it is the importer's). A refused batch leaves nothing behind: the
 * first refusal is thrown as an {@link ImportError}.
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { Block, ChainDatabase, TxIndexEntry } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { payloadHashMismatches } from "../../chain/payload/payload.ts";
import { validateHeader } from "../../chain/validation/validate.ts";
import type { ChainwebVersion } from "../../chain/version/version.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import type { WritesOfChecked } from "../executor/chain-state.ts";
import { ForkExecution } from "../executor/fork-execution.ts";
import type { NodeChain } from "../node-chain.ts";
import { indexOfPayload } from "../stored-payload.ts";
import type { ForeignBlock } from "./foreign-block.ts";

import { ImportError } from "./import-error.ts";

export interface ImportContext {
  readonly version: ChainwebVersion;
  /** Blocks from elsewhere must carry their proof of work even on a development network. */
  readonly powRequired: boolean;
  readonly chainDb: ChainDatabase;
  readonly chains: readonly NodeChain[];
  /** The node's clock (µs, `braid dev time` included) when the import started. */
  readonly now: number;
}

/**
 * Checks and stores `blocks`; returns them as stored, with their transaction index entries, and
 * what each wrote on the overlay it was checked on (for the chain's state to take when the block
 * is adopted, instead of executing it again).
 */
export function importBlocks(
  context: ImportContext,
  blocks: readonly ForeignBlock[],
): {
  readonly stored: { readonly block: Block; readonly index: TxIndexEntry[] }[];
  readonly writesOf: WritesOfChecked;
} {
  const { chainDb, chains } = context;
  const checked = new Map<string, Block>();
  const find: HeaderFinder = (_chainId, hash) =>
    checked.get(encodeBase64Url(hash))?.header ?? chainDb.header(hash);
  const execution = new ForkExecution(chainDb, checked);
  for (const block of blocks) {
    const parent = checkHeader(context.version, block.header, find, {
      powRequired: context.powRequired,
      now: context.now,
    });
    checkPayload(block);
    const payload = execution.check(chains[block.header.chainId]!, block, parent);
    checked.set(encodeBase64Url(block.header.hash), {
      header: block.header,
      payload,
    });
  }
  const stored = [...checked.values()].map((block) => ({
    block,
    index: indexOfPayload(block.payload),
  }));
  chainDb.insertBlocks(stored.map(({ block, index }) => ({ ...block, index })));
  return { stored, writesOf: (hash) => execution.writesOf(hash) };
}

/** The known header `hash` names on chain `chainId`, if any. */
export type HeaderFinder = (chainId: number, hash: Uint8Array) => BlockHeader | undefined;

/** How {@link checkHeader} checks a header beyond the chain core's rules. */
export interface HeaderCheck {
  /**
   * Its hash was computed already — the node made the header, or an execution thread checked the
   * block (checked-ahead.ts) — so it is not computed again.
   */
  readonly hashChecked?: boolean;
  /** Its proof of work is checked even on a development network (validate.ts). */
  readonly powRequired?: boolean;
  /** The node's clock (µs): a header from elsewhere created after it is refused. */
  readonly now?: number;
}

/**
 * Validates the header with the chain core against the parent and adjacent parents `find`
 * gives; returns its parent, or throws an {@link ImportError}: `block-in-the-future` when its
 * creation time is all that is wrong with it, `invalid-header` otherwise.
 */
export function checkHeader(
  version: ChainwebVersion,
  header: BlockHeader,
  find: HeaderFinder,
  { hashChecked = false, powRequired = false, now }: HeaderCheck = {},
): BlockHeader {
  const adjacentParents = new Map<number, BlockHeader>();
  for (const [chainId, hash] of header.adjacents) {
    const adjacent = find(chainId, hash);
    if (adjacent !== undefined) adjacentParents.set(chainId, adjacent);
  }
  const parent = find(header.chainId, header.parent);
  const result = validateHeader({
    version,
    header,
    parent,
    adjacentParents,
    hashComputedHere: hashChecked,
    powRequired,
    now,
  });
  if (!result.ok || parent === undefined) {
    const failures = result.ok ? [] : result.failures;
    const reasons = result.ok ? ["its parent is unknown"] : failures.map((f) => f.message);
    const early = failures.length > 0 && failures.every((f) => f.kind === "BlockInTheFuture");
    const code = early ? "block-in-the-future" : "invalid-header";
    throw new ImportError(code, header.chainId, header.hash, reasons.join("; "));
  }
  return parent;
}

/** The payload's hashes must match its contents, and its hash the header's. */
export function checkPayload({ header, payload }: ForeignBlock): void {
  const wrong = payloadHashMismatches(payload);
  if (!equalBytes(payload.payloadHash, header.payloadHash)) wrong.push("the header's payloadHash");
  if (wrong.length > 0) {
    throw new ImportError(
      "payload-mismatch",
      header.chainId,
      header.hash,
      `the payload does not match ${wrong.join(", ")}`,
    );
  }
}
