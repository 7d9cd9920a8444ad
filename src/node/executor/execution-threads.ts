/**
 * Execution threads: `local` and the commands of new blocks run on `worker_threads` of their
 * own, so that however long a command runs — parsing, executing, encoding its result — the
 * node's thread goes on answering. Chains are spread over the threads (chain c on thread
 * c mod n); each thread takes its work one piece at a time, in order, and reads the contract
 * states through read-only views (execution-thread.ts).
 *
 * Every piece of work is bounded twice: the interpreter stops a command at its time limit, and a
 * watchdog here stops the thread itself {@link LOCAL_WATCHDOG_GRACE_MS} after the work's limit
 * (what runs outside the interpreter: decoding a huge `data`, encoding a huge result). A thread
 * that stops — the watchdog, or a command that exhausted its memory — is replaced, and the work
 * queued behind the piece that stopped it runs on the new one; that `local` call is refused,
 * that block is made on the node's thread instead (under the node's own limits).
 */
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { commandTimeoutMessage } from "../../execution/index.ts";
import type { NodeLogger } from "../logger.ts";
import type {
  BlockAnswer,
  BlockRequest,
  ContractExecutor,
  LocalAnswer,
  LocalRequest,
} from "./contract-executor.ts";
import type {
  AnswerTo,
  ThreadData,
  ThreadMessage,
  ThreadReply,
  ThreadWork,
} from "./thread-messages.ts";

/** How long past its time limit a call may hold its thread before the thread is stopped. */
export const LOCAL_WATCHDOG_GRACE_MS = 1_000;

/**
 * The most `local` calls one thread holds (running or queued); more are answered 503 at once,
 * so a flood of slow calls cannot make the node hold an unbounded queue. (New blocks are not
 * counted: the node makes at most one per chain at a time.)
 */
export const MAX_LOCALS_PER_THREAD = 256;

/** Starts in a row that fail before a thread is ready, after which its calls run on the node's. */
const MAX_FAILED_STARTS = 3;

/** The thread's code: the compiled file beside this one (`.ts` when run from the sources). */
const THREAD_URL = new URL(
  `./execution-thread${extname(fileURLToPath(import.meta.url))}`,
  import.meta.url,
);

/**
 * A worker running the thread's code. Run from the TypeScript sources (tests and benchmarks,
 * under tsx), the worker registers tsx's loader first: Node 20 does not give a worker the
 * main thread's module hooks. The built node never takes that path.
 */
function startWorker(data: ThreadData, name: string): Worker {
  if (!THREAD_URL.pathname.endsWith(".ts")) {
    return new Worker(THREAD_URL, { workerData: data, name });
  }
  const loader = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const code = `import(${loader}).then((tsx) => { tsx.register(); return import(${JSON.stringify(THREAD_URL.href)}); });`;
  return new Worker(code, { eval: true, workerData: data, name });
}

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

export class ExecutionThreads implements ContractExecutor {
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
    return this.run({ kind: "local", request });
  }

  makeBlock(request: BlockRequest): Promise<BlockAnswer> {
    return this.run({ kind: "block", request });
  }

  private run<W extends ThreadWork>(work: W): Promise<AnswerTo<W>> {
    try {
      this.options.saveState(work.request.chainId);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.threads[work.request.chainId % this.threads.length]!.run(work);
  }

  /** Resolves once every thread has loaded its code (or given up starting). */
  started(): Promise<void> {
    return Promise.all(this.threads.map((thread) => thread.started)).then(() => undefined);
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

interface Job {
  readonly id: number;
  readonly work: ThreadWork;
  readonly resolve: (answer: LocalAnswer | BlockAnswer) => void;
}

/** How long a piece of work may hold its thread: its limit, and then the grace. */
function holdLimitMs(work: ThreadWork): number {
  if (work.kind === "local") return work.request.timeLimitMs + LOCAL_WATCHDOG_GRACE_MS;
  // A block's budget, the command under way when it ends, and one made again after a time-out.
  const { blockMs, commandMs } = work.request.limits;
  return blockMs + 2 * commandMs + LOCAL_WATCHDOG_GRACE_MS;
}

/** What a piece of work is answered when its thread was stopped under it (`why`). */
function stoppedAnswer(work: ThreadWork, why: "watchdog" | string): LocalAnswer | BlockAnswer {
  if (work.kind === "block") return { kind: "unserved" };
  return why === "watchdog"
    ? { kind: "refused", message: commandTimeoutMessage(work.request.timeLimitMs) }
    : { kind: "refused", message: `the command stopped its execution thread: ${why}` };
}

class ExecutionThread {
  private worker: Worker | null = null;
  private ready = false;
  private failedStarts = 0;
  /** Why the thread could not start (its calls are answered `unserved`: run on the node's thread). */
  private broken: string | null = null;
  private closed = false;
  /** Calls handed to the worker, oldest (the one running) first. */
  private readonly jobs: Job[] = [];
  private nextId = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private markStarted: () => void = () => {};
  /** Resolves when the thread first loaded its code, or gave up starting. */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(
    private readonly index: number,
    private readonly data: ThreadData,
    private readonly log: NodeLogger,
  ) {}

  start(): void {
    this.workerOf();
  }

  run<W extends ThreadWork>(work: W): Promise<AnswerTo<W>> {
    const answer = (a: LocalAnswer | BlockAnswer) => Promise.resolve(a as AnswerTo<W>);
    if (this.closed) return answer(closing());
    // Work waits for a thread that is loading its code (at start, or after it was replaced):
    // run here instead, a heavy command would hold the node's thread.
    if (this.broken !== null) return answer({ kind: "unserved" });
    if (work.kind === "local" && this.locals() >= MAX_LOCALS_PER_THREAD) {
      return answer({
        kind: "busy",
        message: `${MAX_LOCALS_PER_THREAD} local calls wait for execution thread ${this.index} already; try again shortly`,
      });
    }
    return new Promise((resolve) => {
      const job: Job = {
        id: this.nextId++,
        work,
        resolve: resolve as (a: LocalAnswer | BlockAnswer) => void,
      };
      this.jobs.push(job);
      this.post(this.workerOf(), job);
      this.holdProcess();
      if (this.jobs.length === 1 && this.ready) this.watch(job);
    });
  }

  private locals(): number {
    return this.jobs.filter((job) => job.work.kind === "local").length;
  }

  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.watchdog);
    for (const job of this.jobs.splice(0)) job.resolve(closing());
    const worker = this.worker;
    this.worker = null;
    if (worker === null) return Promise.resolve();
    // Held until it has exited, so whoever awaits the close is not left with nothing pending.
    worker.ref();
    return new Promise((resolve) => {
      worker.once("exit", () => resolve());
      worker.postMessage({ kind: "close" } satisfies ThreadMessage);
      // A thread busy with a call does not read the message until the call ends.
      setTimeout(() => void worker.terminate(), LOCAL_WATCHDOG_GRACE_MS).unref();
    });
  }

  private workerOf(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = startWorker(this.data, `braid-execution-${this.index}`);
    this.worker = worker;
    this.holdProcess();
    this.ready = false;
    worker.on("message", (reply: ThreadReply) => this.replied(worker, reply));
    worker.on("error", (e) => this.stopped(worker, e));
    worker.on("exit", (code) => this.stopped(worker, new Error(`it exited (code ${code})`)));
    return worker;
  }

  /**
   * A thread keeps the process alive while it has work (whoever waits for the answer may have
   * nothing else pending), and not while idle: the node's server does that.
   */
  private holdProcess(): void {
    if (this.jobs.length > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  private post(worker: Worker, job: Job): void {
    worker.postMessage({ kind: "work", id: job.id, work: job.work } satisfies ThreadMessage);
  }

  private replied(worker: Worker, reply: ThreadReply): void {
    if (worker !== this.worker) return;
    if (reply.kind === "ready") {
      this.ready = true;
      this.markStarted();
      this.failedStarts = 0;
      if (this.jobs.length > 0) this.watch(this.jobs[0]!);
      return;
    }
    const job = this.jobs[0];
    if (job === undefined || job.id !== reply.id) return;
    this.jobs.shift();
    clearTimeout(this.watchdog);
    this.holdProcess();
    job.resolve(reply.answer);
    if (this.jobs.length > 0) this.watch(this.jobs[0]!);
  }

  /** Stops the thread when the work it runs holds it past its limit and the grace. */
  private watch(job: Job): void {
    clearTimeout(this.watchdog);
    const limitMs = holdLimitMs(job.work);
    this.watchdog = setTimeout(() => {
      if (this.jobs[0] !== job) return;
      const what = job.work.kind === "local" ? "a local call" : "a new block";
      this.log.warn(
        `execution thread ${this.index}: ${what} on chain ${job.work.request.chainId} held it ${limitMs} ms; the thread is replaced`,
      );
      this.replace(stoppedAnswer(job.work, "watchdog"));
    }, limitMs);
    this.watchdog.unref();
  }

  /** The worker stopped on its own: an error in it, or it ran out of memory. */
  private stopped(worker: Worker, error: Error): void {
    if (worker !== this.worker || this.closed) return;
    if (!this.ready) {
      this.failedStarts++;
      if (this.failedStarts >= MAX_FAILED_STARTS) {
        this.broken = error.message;
        this.worker = null;
        this.markStarted();
        this.log.error(
          `execution thread ${this.index} could not start (${error.message}); its local calls run on the node's thread`,
        );
        for (const job of this.jobs.splice(0)) job.resolve({ kind: "unserved" });
        return;
      }
      this.worker = null;
      const worker = this.workerOf();
      for (const job of this.jobs) this.post(worker, job);
      return;
    }
    const running = this.jobs[0];
    this.replace(running === undefined ? null : stoppedAnswer(running.work, error.message));
  }

  /**
   * Answers the running work with `answer`, stops the worker and hands the work queued behind
   * it to a new one.
   */
  private replace(answer: LocalAnswer | BlockAnswer | null): void {
    clearTimeout(this.watchdog);
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) void worker.terminate();
    const running = this.jobs.shift();
    if (running !== undefined && answer !== null) running.resolve(answer);
    if (this.jobs.length === 0) return;
    const next = this.workerOf();
    for (const job of this.jobs) this.post(next, job);
  }
}

function closing(): LocalAnswer | BlockAnswer {
  return { kind: "failed", message: "the node is shutting down" };
}
