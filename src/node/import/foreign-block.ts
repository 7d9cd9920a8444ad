import type { BlockHeader } from "../../chain/header/types.ts";
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
