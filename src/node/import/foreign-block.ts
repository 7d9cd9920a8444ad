import type { BlockHeader, ParentBlock } from "../../chain/header/types.ts";
import type { PayloadData, PayloadWithOutputs } from "../../chain/payload/payload.ts";

/**
 * A block made elsewhere: its header and its payload, with the outputs (a test's, or a whole
 * block read from a peer) or without them (what Chainweb's peers send: `payload/batch`), in
 * which case the outputs are the execution's.
 */
export interface ForeignBlock {
  readonly header: BlockHeader;
  readonly payload: PayloadWithOutputs | PayloadData;
}

/**
 * What executing a block made elsewhere reads of it: of its header only where it is (its chain,
 * height and time), its hash and the payload hash to check the outputs against. Only this goes to
 * an execution thread (a whole header costs its copy).
 */
export interface BlockToExecute {
  readonly header: ParentBlock & { readonly payloadHash: Uint8Array };
  readonly payload: PayloadWithOutputs | PayloadData;
}

/** `block` as a {@link BlockToExecute}. */
export function blockToExecute({ header, payload }: ForeignBlock): BlockToExecute {
  const { chainId, height, creationTime, hash, payloadHash } = header;
  return { header: { chainId, height, creationTime, hash, payloadHash }, payload };
}
