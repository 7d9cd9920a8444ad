/** What the node and its execution threads tell each other (execution-threads.ts). */
import type { MinerAccount } from "../options.ts";
import type {
  BlockAnswer,
  BlockRequest,
  ForeignRunAnswer,
  ForeignRunRequest,
  LocalAnswer,
  LocalRequest,
} from "./contract-executor.ts";

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

/** One piece of work for a thread. */
export type ThreadWork =
  | { readonly kind: "local"; readonly request: LocalRequest }
  | { readonly kind: "block"; readonly request: BlockRequest }
  | { readonly kind: "foreign"; readonly request: ForeignRunRequest };

/** The answer to each kind of work. */
export type AnswerTo<W extends ThreadWork> = W extends { readonly kind: "local" }
  ? LocalAnswer
  : W extends { readonly kind: "block" }
    ? BlockAnswer
    : ForeignRunAnswer;

/** An answer to any piece of work. */
export type ThreadAnswer = LocalAnswer | BlockAnswer | ForeignRunAnswer;
