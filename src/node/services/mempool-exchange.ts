/**
 * The node's mempools as peers see them (the `mempools` port, Chainweb's mempool P2P API): the
 * request keys pending since a high-water mark, membership, the pending commands' text, and
 * insertion of a peer's commands through `send`'s admission rules (the command service's
 * `insertEach`). Private commands are never shown to peers.
 */
import type { ParsedCommand } from "../../command/index.ts";
import { transactionText } from "../executor/block/block-executor.ts";
import type { MempoolMark, PendingSince } from "../mempool/mempool.ts";
import type { NodeChain } from "../node-chain.ts";
import type { InsertOutcome, NodeCommandService } from "./command-service.ts";

export interface MempoolExchange {
  /**
   * A chain's pending request keys added since `mark` (every one without a mark, or for a mark of
   * another run or too old), and the mark to ask from next time.
   */
  pending(chainId: number, mark?: MempoolMark): PendingSince;
  /** Whether each request key is pending on the chain. */
  member(chainId: number, hashes: readonly string[]): boolean[];
  /** Each pending command's transaction text (`{"hash","sigs","cmd"}`), or null when not pending. */
  lookup(chainId: number, hashes: readonly string[]): (string | null)[];
  /** Admits verified commands each on its own under `send`'s rules (never all or none). */
  insert(chainId: number, commands: readonly ParsedCommand[]): InsertOutcome;
}

export class NodeMempoolExchange implements MempoolExchange {
  constructor(
    private readonly chains: readonly NodeChain[],
    private readonly commands: Pick<NodeCommandService, "insertEach">,
  ) {}

  pending(chainId: number, mark?: MempoolMark): PendingSince {
    return this.chains[chainId]!.mempool.pendingSince(mark);
  }

  member(chainId: number, hashes: readonly string[]): boolean[] {
    const mempool = this.chains[chainId]!.mempool;
    return hashes.map((hash) => mempool.publicCommand(hash) !== undefined);
  }

  lookup(chainId: number, hashes: readonly string[]): (string | null)[] {
    const mempool = this.chains[chainId]!.mempool;
    return hashes.map((hash) => {
      const command = mempool.publicCommand(hash);
      return command === undefined ? null : transactionText(command);
    });
  }

  insert(chainId: number, commands: readonly ParsedCommand[]): InsertOutcome {
    return this.commands.insertEach(chainId, commands);
  }
}
