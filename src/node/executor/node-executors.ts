/**
 * Who executes the node's contract work: the execution threads when the node has them, this
 * thread's executor otherwise, for whatever the threads leave unserved (a state not saved while
 * writes fail, a chain that moved under the work), and for new blocks whose commands' gas limits
 * leave each too little work to be worth a thread. Each side has its own time limits: on a thread
 * chainweb-node's (2 s for `local`, 12.5 µs per unit of the block gas limit for a new block's
 * command); on the node's thread, which must keep answering, the node's `commandTimeLimit`
 * (100 ms).
 */
import type { BlockTimeLimits } from "./block/block-executor.ts";
import type { BlockAnswer, BlockRequest, LocalAnswer, LocalRequest } from "./contract-executor.ts";
import type { ExecutionThreads } from "./execution-threads.ts";
import type { InProcessExecutor } from "./in-process-executor.ts";

/**
 * A new block whose every command has a gas limit of at most this is made on the node's thread:
 * each command's work is small (a transfer takes ~700 gas and under a millisecond; most contract
 * code 1–5 µs a unit of gas), well within `commandTimeLimit` there, and the block stops taking
 * commands after `BLOCK_TIME_BUDGET_MS`; handing it to a thread costs more (saving the chain's
 * state for the thread to read, the messages, applying the writes: ~3 ms a block, measured with
 * one transfer). A block holding a command that may do more goes to a thread, where its limit is
 * chainweb-node's.
 */
export const SMALL_COMMAND_GAS = 10_000;

export interface ExecutionLimits {
  /** One `local` on a thread (`localTimeLimit`). */
  readonly localOnThreadMs: number;
  /** One command of a new block on a thread (`blockCommandTimeLimit`). */
  readonly blockCommandOnThreadMs: number;
  /** One command of either on the node's thread (`commandTimeLimit`). */
  readonly commandHereMs: number;
  /** How long a new block takes commands (`BLOCK_TIME_BUDGET_MS`). */
  readonly blockBudgetMs: number;
}

export class NodeExecutors {
  constructor(
    private readonly threads: ExecutionThreads | null,
    private readonly here: InProcessExecutor,
    private readonly limits: ExecutionLimits,
  ) {}

  /** Runs `local`; `request` makes the call with a time limit (its parent resolved then). */
  async local(request: (timeLimitMs: number) => LocalRequest): Promise<LocalAnswer> {
    if (this.threads !== null) {
      const answer = await this.threads.local(request(this.limits.localOnThreadMs));
      if (answer.kind !== "unserved") return answer;
    }
    return this.here.local(request(this.limits.commandHereMs));
  }

  /** Executes a new block's commands; `unserved` when the chain moved on from its parent. */
  async makeBlock(request: Omit<BlockRequest, "limits">): Promise<BlockAnswer> {
    const { blockBudgetMs, blockCommandOnThreadMs, commandHereMs } = this.limits;
    const limits = (commandMs: number): BlockTimeLimits => ({
      commandMs,
      blockMs: blockBudgetMs,
    });
    if (this.threads !== null && request.largestGasLimit > SMALL_COMMAND_GAS) {
      const answer = await this.threads.makeBlock({
        ...request,
        limits: limits(blockCommandOnThreadMs),
      });
      if (answer.kind !== "unserved") return answer;
    }
    return this.here.makeBlock({ ...request, limits: limits(commandHereMs) });
  }

  /** Resolves once the execution threads have loaded their code (at once without threads). */
  started(): Promise<void> {
    return this.threads?.started() ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.threads?.close() ?? Promise.resolve();
  }
}
