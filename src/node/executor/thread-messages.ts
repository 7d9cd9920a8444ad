/** What the node and its execution threads tell each other (execution-threads.ts). */
import type { MinerAccount } from "../options.ts";
import type { LocalAnswer, LocalRequest } from "./contract-executor.ts";

/** What a thread is started with: the network and where the node's files are. */
export interface ThreadData {
  /** The network's name (its version). */
  readonly network: string;
  readonly networkId: string;
  readonly miner: MinerAccount;
  readonly blockGasLimit: number;
  readonly chainDbPath: string;
  /** Each chain's contract state file, by chain id. */
  readonly statePaths: readonly string[];
}

export type ThreadMessage =
  | { readonly kind: "local"; readonly id: number; readonly request: LocalRequest }
  | { readonly kind: "close" };

export type ThreadReply =
  /** The thread has loaded its code and takes calls. */
  | { readonly kind: "ready" }
  | { readonly kind: "answer"; readonly id: number; readonly answer: LocalAnswer };
