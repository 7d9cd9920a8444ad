/**
 * Execution threads: `local` and the commands of new blocks run on `worker_threads` of their
 * own, so that however long a command runs — parsing, executing, encoding its result — the
 * node's thread goes on answering. Chains are spread over the threads (chain c on thread
 * c mod n); each thread takes its work one piece at a time, in order, and reads the contract
 * states through read-only views (execution-thread.ts).
 *
 * Every piece of work is bounded twice: the interpreter stops a command at its time limit, and a
 * watchdog stops the thread itself {@link WATCHDOG_GRACE_MS} after the work's limit (what runs
 * outside the interpreter: decoding a huge `data`, encoding a huge result). A thread that stops —
 * the watchdog, or a command that exhausted its memory — is replaced, and the work queued behind
 * the piece that stopped it runs on the new one; that `local` call is refused, that block is made
 * on the node's thread instead (under the node's own limits). The thread, its watchdog and its
 * replacement are the execution layer's `WorkThread` (src/execution/work-thread.ts).
 */
import { commandTimeoutMessage } from "../../execution/index.ts";
import { siblingModule, WATCHDOG_GRACE_MS, WorkThread } from "../../execution/work-thread.ts";
import type { NodeLogger } from "../logger.ts";
import {
  type BlockAnswer,
  type BlockRequest,
  type ContractExecutor,
  type ForeignChecker,
  type ForeignRunAnswer,
  type ForeignRunRequest,
  type LocalAnswer,
  type LocalRequest,
  parentBlockOf,
} from "./contract-executor.ts";
import type { AnswerTo, ThreadAnswer, ThreadData, ThreadWork } from "./thread-messages.ts";

/**
 * The most `local` calls one thread holds (running or queued); more are answered 503 at once,
 * so a flood of slow calls cannot make the node hold an unbounded queue. (New blocks are not
 * counted: the node makes at most one per chain at a time.)
 */
export const MAX_LOCALS_PER_THREAD = 256;

/** The thread's code: the compiled file beside this one (`.ts` when run from the sources). */
const THREAD_CODE = siblingModule(import.meta.url, "execution-thread");

export interface ExecutionThreadsOptions {
  readonly threads: number;
  readonly data: ThreadData;
  /**
   * Saves a chain's state to its file before a call on it is handed over (a contract state
   * holds its newest blocks in an open transaction until it is saved). May throw a failure of
   * the disk.
   */
  readonly saveState: (chainId: number) => void;
  readonly log: NodeLogger;
}

export class ExecutionThreads implements ContractExecutor, ForeignChecker {
  private readonly threads: ExecutionThread[];

  constructor(private readonly options: ExecutionThreadsOptions) {
    this.threads = Array.from(
      { length: options.threads },
      (_, i) => new ExecutionThread(i, options.data, options.log),
    );
    // Started now: loading a thread's code takes a fraction of a second the first call would wait.
    for (const thread of this.threads) thread.start();
  }

  local(request: LocalRequest): Promise<LocalAnswer> {
    return this.run({
      kind: "local",
      request: { ...request, parent: parentBlockOf(request.parent) },
    });
  }

  makeBlock(request: BlockRequest): Promise<BlockAnswer> {
    return this.run({
      kind: "block",
      request: { ...request, parent: parentBlockOf(request.parent) },
    });
  }

  /**
   * Checks a sync's blocks ahead of their import. A run that goes on from the one before is
   * handed over without saving the chain's state: the thread goes on from where that run left
   * its scratch state.
   */
  checkForeign(request: ForeignRunRequest): Promise<ForeignRunAnswer> {
    const work = {
      kind: "foreign",
      request: { ...request, parent: parentBlockOf(request.parent) },
    } as const;
    return request.continues ? this.threadOf(work).run(work) : this.run(work);
  }

  private run<W extends ThreadWork>(work: W): Promise<AnswerTo<W>> {
    try {
      this.options.saveState(work.request.chainId);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.threadOf(work).run(work);
  }

  private threadOf(work: ThreadWork): ExecutionThread {
    return this.threads[work.request.chainId % this.threads.length]!;
  }

  /** Resolves once every thread has loaded its code (or given up starting). */
  started(): Promise<void> {
    return Promise.all(this.threads.map((thread) => thread.started)).then(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

/**
 * How long a block from elsewhere may hold an execution thread while it is checked: its commands
 * run without a time limit (a block's commands all run, bounded by their gas), so a block past
 * this stops the thread, and the node's thread executes the run instead, as it does without
 * threads.
 */
export const FOREIGN_BLOCK_HOLD_MS = 2_000;

/**
 * Which work passes which while it waits for its thread: a new block passes `local` calls (a
 * client's command waits for its block), and both pass a sync's runs of blocks to check (a
 * catch-up hands a thread hundreds at once).
 */
const WORK_RANKS: Readonly<Record<ThreadWork["kind"], number>> = { block: 2, local: 1, foreign: 0 };

/** How long a piece of work may hold its thread: its limit, and then the grace. */
function holdLimitMs(work: ThreadWork): number {
  if (work.kind === "local") return work.request.timeLimitMs + WATCHDOG_GRACE_MS;
  if (work.kind === "foreign") {
    return work.request.blocks.length * FOREIGN_BLOCK_HOLD_MS + WATCHDOG_GRACE_MS;
  }
  // A block's budget, the command under way when it ends, and one made again after a time-out.
  const { blockMs, commandMs } = work.request.limits;
  return blockMs + 2 * commandMs + WATCHDOG_GRACE_MS;
}

/** What a piece of work is answered when its thread was stopped under it (`why`). */
function stoppedAnswer(work: ThreadWork, why: "watchdog" | string): ThreadAnswer {
  if (work.kind !== "local") return { kind: "unserved" };
  return why === "watchdog"
    ? {
        kind: "refused",
        message: commandTimeoutMessage(work.request.timeLimitMs),
      }
    : {
        kind: "refused",
        message: `the command stopped its execution thread: ${why}`,
      };
}

/** Execution thread `index`: its work in order; a `local` call beyond the bound is refused. */
class ExecutionThread {
  private readonly thread: WorkThread<ThreadWork, ThreadAnswer>;

  constructor(
    private readonly index: number,
    data: ThreadData,
    log: NodeLogger,
  ) {
    this.thread = new WorkThread({
      code: THREAD_CODE,
      data,
      name: `braid-execution-${index}`,
      holdLimitMs,
      stoppedAnswer,
      closingAnswer: { kind: "failed", message: "the node is shutting down" },
      // Run on the node's thread instead.
      unstartedAnswer: { kind: "unserved" },
      // A new block waits for no `local` call but the one running (and the one posted after it),
      // and a `local` call for none of a sync's blocks but those posted (see WORK_RANKS).
      rank: (work) => WORK_RANKS[work.kind],
      // A sync's runs are posted well ahead (the node's thread is busy storing the ones before).
      streamed: (work) => work.kind === "foreign",
      onHeld: (work, limitMs) => {
        const what = {
          local: "a local call",
          block: "a new block",
          foreign: "a block from elsewhere",
        }[work.kind];
        log.warn(
          `execution thread ${index}: ${what} on chain ${work.request.chainId} held it ${limitMs} ms; the thread is replaced`,
        );
      },
      onGivenUp: (reason) =>
        log.error(
          `execution thread ${index} could not start (${reason}); its local calls run on the node's thread`,
        ),
    });
  }

  get started(): Promise<void> {
    return this.thread.started;
  }

  start(): void {
    this.thread.start();
  }

  run<W extends ThreadWork>(work: W): Promise<AnswerTo<W>> {
    const isLocal = (w: ThreadWork) => w.kind === "local";
    if (isLocal(work) && this.thread.holding(isLocal) >= MAX_LOCALS_PER_THREAD) {
      return Promise.resolve({
        kind: "busy",
        message: `${MAX_LOCALS_PER_THREAD} local calls wait for execution thread ${this.index} already; try again shortly`,
      } as AnswerTo<W>);
    }
    return this.thread.run(work) as Promise<AnswerTo<W>>;
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
