/**
 * What the node offers the layers above it (the API and the CLI): narrow views, built by the
 * composition root (node.ts). Each route registrar takes `Pick<NodePorts, …>` of the ports it
 * uses, so what a part of the API can touch is written in its signature, and none reaches into
 * the node's insides (the layering check, .dependency-cruiser.cjs, holds the API and the CLI to
 * this file and the few node modules it names there).
 */
import type { Cut } from "../chain/cut/cut.ts";
import type { ChainDatabase } from "../chain/db/index.ts";
import type { ChainwebVersion } from "../chain/version/version.ts";
import type { ParsedCommand } from "../command/index.ts";
import type { NodeClock } from "./clock.ts";
import type { DevControls } from "./dev/controls.ts";
import type { NodeEvents } from "./events.ts";
import type { LocalOptions } from "./local.ts";
import type { MiningCoordinator } from "./miner/coordination.ts";

// What the API recognises of what the ports give and throw.
export type { StoredBlock } from "./chain.ts";
export {
  checkFundRequest,
  DevControlRefusal,
  type DevControls,
  FUND_PREDICATES,
  type FundRequest,
} from "./dev/controls.ts";
export { DEV_ACCOUNTS, type DevAccount } from "./genesis/accounts.ts";
export { LocalRefusal } from "./local.ts";
export { SolvedWorkRefusal } from "./miner/coordination.ts";
export { CommandRefusal } from "./refusals.ts";
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
  | "scanBlocks"
  | "transactionLocations"
  | "recentTransfers"
  | "continuations"
>;

/** Commands: admitting them, running them locally, their results and SPV proofs. */
export interface CommandService {
  /** Admits verified commands to a chain's mempool (all or none); their request keys. */
  submit(chainId: number, commands: readonly ParsedCommand[]): string[];
  /** Runs `check` while the mining mode knows commands for `chainId` are on their way. */
  admitting<T>(chainId: number, check: () => Promise<T>): Promise<T>;
  /** `local`: the JSON text of its answer. */
  local(chainId: number, command: ParsedCommand, options: LocalOptions): string;
  /** The JSON text of a command's result, or null when it is not (yet) confirmed. */
  result(chainId: number, hashBytes: Uint8Array, confirmationDepth?: number): string | null;
  /** An SPV proof of a command's output for another chain (base64url of Chainweb's JSON). */
  spvProof(chainId: number, requestKey: Uint8Array, targetChainId: number): string;
  /** Whether blocks are made as requests need them (a `send` may wait for its block). */
  readonly minesOnRequest: boolean;
}

export interface NodePorts {
  readonly network: NetworkInfo;
  readonly blocks: BlockReads;
  /** The cut: every chain's head. */
  readonly heads: { cut(): Cut };
  /** Stored blocks, moves of the cut, reorganisations. */
  readonly events: NodeEvents;
  readonly clock: Pick<NodeClock, "nowMicros" | "nowSeconds">;
  readonly commands: CommandService;
  /** The mining coordination API's work and solutions; null unless every block needs a nonce. */
  readonly mining: MiningCoordinator | null;
  /** The development controls, or why they are refused (a network that is not for development). */
  readonly dev: DevControls | { readonly refused: string };
}
