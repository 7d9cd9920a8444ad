/**
 * What the node offers the layers above it (the API and the CLI): narrow views, built where the
 * node is put together (node.ts). Each route registrar takes `Pick<NodePorts, …>` of the ports it
 * uses, so what a part of the API can touch is written in its signature, and none reaches into
 * the node's insides (the layering check, .dependency-cruiser.cjs, holds the API and the CLI to
 * this file and the few node modules it names there).
 */
import type { Cut } from "../chain/cut/cut.ts";
import type { ChainDatabase, ExplorerIndexes } from "../chain/db/index.ts";
import type { BlockHeader } from "../chain/header/types.ts";
import type { ChainwebVersion } from "../chain/version/version.ts";
import type { NodeClock } from "./clock.ts";
import type { DevControls } from "./dev/controls.ts";
import type { NodeEvents } from "./events.ts";
import type { ForeignBlock } from "./import/foreign-block.ts";
import type { MiningCoordinator } from "./miner/coordination.ts";
import type { CommandService } from "./services/command-service.ts";
import type { MempoolExchange } from "./services/mempool-exchange.ts";

export {
  checkFundRequest,
  DevControlRefusal,
  type DevControls,
  FUND_PREDICATES,
  type FundRequest,
} from "./dev/controls.ts";
export { LocalBusy, LocalRefusal } from "./executor/local.ts";
export { DEV_ACCOUNTS, type DevAccount } from "./genesis/accounts.ts";
export type { ForeignBlock } from "./import/foreign-block.ts";
export { ImportError, type ImportErrorCode } from "./import/import-error.ts";
export {
  MAX_PENDING_COMMANDS,
  MEMPOOL_RECENT_LOG_SIZE,
  type MempoolMark,
  type PendingSince,
} from "./mempool/mempool.ts";
export { SolvedWorkRefusal } from "./miner/coordination.ts";
export type { StoredBlock } from "./node-chain.ts";
export {
  type PeerAddress,
  parsePeerAddress,
  peerAddressProblem,
  peerKey,
} from "./peer-address.ts";
export { CommandRefusal } from "./refusals.ts";
// What the API recognises of what the ports give and throw.
export type {
  CommandService,
  InsertOutcome,
} from "./services/command-service.ts";
export type { MempoolExchange } from "./services/mempool-exchange.ts";
export { SpvRefusal } from "./spv.ts";

/** The network a node serves. */
export interface NetworkInfo {
  readonly version: ChainwebVersion;
  /** The network id commands name (`development`). */
  readonly networkId: string;
  /** How many chains it has: their ids are 0 to `chainCount - 1`. */
  readonly chainCount: number;
}

/**
 * The chain database as its readers see it: blocks, headers, payloads, ancestry, the request-key
 * and explorer indexes; nothing that writes.
 */
export type BlockReads = Pick<
  ChainDatabase,
  | "header"
  | "block"
  | "payload"
  | "link"
  | "linksInRange"
  | "children"
  | "ancestorAt"
  | "ancestorHashAt"
  | "isAncestor"
  | "headersAtHeight"
  | "maxHeight"
  | "scanBlocks"
  | "scanHeaders"
  | "transactionLocations"
>;

/** The explorer's indexes: an account's transfers, a defpact's continuations. */
export type ExplorerReads = Pick<ExplorerIndexes, "recentTransfers" | "continuations">;

export interface NodePorts {
  readonly network: NetworkInfo;
  readonly blocks: BlockReads;
  readonly explorer: ExplorerReads;
  /** The cut: every chain's head; one chain's head (undefined for a chain the network lacks). */
  readonly heads: {
    cut(): Cut;
    head(chainId: number): BlockHeader | undefined;
  };
  /** Stored blocks, moves of the cut, reorganisations. */
  readonly events: NodeEvents;
  readonly clock: Pick<NodeClock, "nowMicros" | "nowSeconds">;
  readonly commands: CommandService;
  /** The mempools as peers see them (Chainweb's mempool P2P API and mempool sync). */
  readonly mempools: MempoolExchange;
  /** The mining coordination API's work and solutions; null unless every block needs a nonce. */
  readonly mining: MiningCoordinator | null;
  /** The development controls, or why they are refused (a network that is not for development). */
  readonly dev: DevControls | { readonly refused: string };
  /** Blocks from peers: each through the import pipeline (validated, executed, compared). */
  readonly sync: {
    /**
     * Imports blocks, parents first, letting the event loop run between its transactions;
     * rejects with an `ImportError` for the first bad one.
     */
    importBlocks(blocks: readonly ForeignBlock[]): Promise<void>;
    /**
     * A peer's cut, by its heads' hashes: adopted when its blocks are all stored, it is braided
     * and it is heavier than the node's cut.
     */
    offerCut(heads: ReadonlyMap<number, Uint8Array>): void;
  };
}
