/**
 * One `worker_thread` that runs contract work beside the thread that answers HTTP: the node's
 * execution threads (src/node/executor/execution-threads.ts) and the development server's
 * contract thread (src/api/devserver/contract-thread.ts) are each built on it. Work is posted as
 * plain data and taken one piece at a time, in order — but work its owner ranks higher (the
 * node's new blocks, then `local` calls, then a sync's blocks to check) goes ahead of the waiting
 * work ranked lower; each piece's answer comes back as plain data. The thread's side of the exchange is `serveWork` (work-thread-port.ts).
 *
 * A watchdog stops the thread when a piece of work has run on it past the limit its owner gives
 * (what runs outside the interpreter's clock: parsing a huge body, encoding a huge result), as
 * does the thread stopping on its own (an error, memory exhausted); the piece under way is given
 * the owner's answer for that, and the pieces queued behind it go on on a fresh thread. As the
 * interpreter's time limit does (thread-cpu.ts), the watchdog counts the thread's CPU time once
 * the wall clock has passed the limit, so that a machine busy with other work, when the thread
 * is not even running, does not stop work that would fit.
 */
import { extname } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { reusedReading, threadCpuMsAt } from "./thread-cpu.ts";

/** How long past its time limit a piece of work may hold its thread before the thread is stopped. */
export const WATCHDOG_GRACE_MS = 1_000;

/**
 * How many pieces of work are posted to the thread beyond the one it runs, so that it goes on to
 * the next without waiting for this thread to post it; the rest wait here, where work ranked
 * higher can pass them. Work ranked highest thus waits for at most the piece running and this
 * many more.
 */
export const WORK_POSTED_AHEAD = 1;

/**
 * How many pieces of streamed work (its owner says which: a sync's runs of blocks to check) are
 * posted ahead while only such work is posted: the thread works through them while this thread
 * is busy storing what it answered, instead of waiting for it to post the next. Urgent work may
 * wait for them all (on the execution threads, about 40 ms of a sync's blocks).
 */
export const STREAMED_WORK_POSTED_AHEAD = 64;

/**
 * How old a reading of the worker's CPU time the watchdog may count a piece of work from, in
 * milliseconds of wall time: it may count this much of what ran before the piece (the watchdog
 * fires at most this much early, against a hold limit of seconds), and reads the time once per
 * this instead of once per piece.
 */
export const WATCHDOG_CPU_READING_REUSE_MS = 100;

/** Starts in a row that fail before a thread is ready, after which the thread is given up. */
const MAX_FAILED_STARTS = 3;

/** What the owner tells its thread. */
export type ThreadMessage<W> =
  | { readonly kind: "work"; readonly id: number; readonly work: W }
  | { readonly kind: "close" };

/** What the thread tells its owner. */
export type ThreadReply<A> =
  /** The thread has loaded its code and takes work; its CPU time is in `cpuFile` (Linux). */
  | { readonly kind: "ready"; readonly cpuFile: string | null }
  | { readonly kind: "answer"; readonly id: number; readonly answer: A };

/**
 * The URL of the module `name` beside the module at `moduleUrl` (its `import.meta.url`), with
 * that module's extension: `.js` in the built code, `.ts` when run from the sources.
 */
export function siblingModule(moduleUrl: string, name: string): URL {
  return new URL(`./${name}${extname(fileURLToPath(moduleUrl))}`, moduleUrl);
}

/**
 * A worker running the module at `code`. Run from the TypeScript sources (tests, benchmarks, the
 * CLI under tsx), the worker registers tsx's loader first: Node 20 does not give a worker the
 * main thread's module hooks. The built code never takes that path.
 */
function startWorker(code: URL, data: unknown, name: string): Worker {
  if (!code.pathname.endsWith(".ts")) return new Worker(code, { workerData: data, name });
  const loader = JSON.stringify(import.meta.resolve("tsx/esm/api"));
  const bootstrap = `import(${loader}).then((tsx) => { tsx.register(); return import(${JSON.stringify(code.href)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: data, name });
}

export interface WorkThreadOptions<W, A> {
  /** The thread's code (`siblingModule`); it calls `serveWork`. */
  readonly code: URL;
  /** Its `workerData`. */
  readonly data: unknown;
  /** The thread's name (in profiles and debuggers). */
  readonly name: string;
  /** How long `work` may hold the thread before it is stopped: its limit and the grace. */
  readonly holdLimitMs: (work: W) => number;
  /**
   * The answer of `work` when its thread was stopped under it: by the watchdog, or because the
   * thread stopped on its own (`why`, the error's message).
   */
  readonly stoppedAnswer: (work: W, why: "watchdog" | string) => A;
  /** The answer of work given to a thread that is closing. */
  readonly closingAnswer: A;
  /** The answer of work given to a thread that could not start. */
  readonly unstartedAnswer: A;
  /** Told when the watchdog stops the thread under `work`, before it is replaced. */
  readonly onHeld: (work: W, limitMs: number) => void;
  /** Told once when the thread has failed to start too often and is given up. */
  readonly onGivenUp: (reason: string) => void;
  /**
   * How `work` ranks: it goes ahead of the waiting work (not posted yet) ranked lower, behind that
   * ranked as high or higher (all work ranks 0 by default, in order).
   */
  readonly rank?: (work: W) => number;
  /** Whether `work` is streamed ({@link STREAMED_WORK_POSTED_AHEAD}; none is by default). */
  readonly streamed?: (work: W) => boolean;
}

interface Job<W, A> {
  readonly id: number;
  readonly work: W;
  readonly resolve: (answer: A) => void;
}

export class WorkThread<W, A> {
  private worker: Worker | null = null;
  private ready = false;
  /** Where the running worker's CPU time is read (null: the wall clock stands in). */
  private cpuFile: string | null = null;
  /**
   * Its CPU time from a reading at most {@link WATCHDOG_CPU_READING_REUSE_MS} old, where a piece
   * starts: read for every piece, it cost this thread 14 % of its time under a load of `local`.
   */
  private cpuAtStart: (() => number | null) | null = null;
  private failedStarts = 0;
  private closed = false;
  /**
   * The work given: the piece running first, then those posted to the worker (`posted` in all,
   * at most 1 + {@link WORK_POSTED_AHEAD}, or of streamed work 1 +
   * {@link STREAMED_WORK_POSTED_AHEAD}), then those waiting here, the higher ranked first.
   */
  private readonly jobs: Job<W, A>[] = [];
  private posted = 0;
  private nextId = 0;
  private watchdog: NodeJS.Timeout | undefined;
  /**
   * The exits of workers stopped and replaced: one stopped inside native code (a long SQLite
   * statement) runs on until that returns, its files still open, so closing waits for them too.
   */
  private readonly retiring = new Set<Promise<void>>();
  private markStarted: () => void = () => {};
  /** Why the thread could not start, once it has been given up (its work gets `unstartedAnswer`). */
  givenUp: string | null = null;
  /** Resolves when the thread first loaded its code, or was given up. */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(private readonly options: WorkThreadOptions<W, A>) {}

  /** Starts the worker now rather than with the first work (loading its code takes a while). */
  start(): void {
    this.workerOf();
  }

  /**
   * Queues `work` behind the work already given (work ranked higher: behind the work posted and
   * the work waiting that ranks as high or higher); resolves with its answer.
   */
  run(work: W): Promise<A> {
    if (this.closed) return Promise.resolve(this.options.closingAnswer);
    // Work waits for a thread loading its code (at start, or replaced), not for one given up.
    if (this.givenUp !== null) return Promise.resolve(this.options.unstartedAnswer);
    return new Promise((resolve) => {
      const job: Job<W, A> = { id: this.nextId++, work, resolve };
      const rank = this.options.rank;
      let at = this.jobs.length;
      if (rank !== undefined) {
        const own = rank(work);
        at = this.posted;
        while (at < this.jobs.length && rank(this.jobs[at]!.work) >= own) at++;
      }
      this.jobs.splice(at, 0, job);
      this.postWaiting(this.workerOf());
      this.holdProcess();
      if (this.jobs.length === 1 && this.ready) this.watch(job);
    });
  }

  /** How many pieces of work the thread holds (running and queued), or of them that `which` selects. */
  holding(which?: (work: W) => boolean): number {
    return which === undefined
      ? this.jobs.length
      : this.jobs.filter((job) => which(job.work)).length;
  }

  /**
   * Answers the work it holds with `closingAnswer` and stops the worker; resolves once it and
   * every worker stopped before it have exited (their files closed).
   */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.watchdog);
    for (const job of this.jobs.splice(0)) job.resolve(this.options.closingAnswer);
    const worker = this.worker;
    this.worker = null;
    const exits = [...this.retiring];
    if (worker !== null) {
      // Held until it has exited, so whoever awaits the close is not left with nothing pending.
      worker.ref();
      exits.push(
        new Promise((resolve) => {
          worker.once("exit", () => resolve());
          worker.postMessage({ kind: "close" } satisfies ThreadMessage<W>);
          // A thread busy with work does not read the message until the work ends.
          setTimeout(() => void worker.terminate(), WATCHDOG_GRACE_MS).unref();
        }),
      );
    }
    await Promise.all(exits);
  }

  private workerOf(): Worker {
    if (this.worker !== null) return this.worker;
    const worker = startWorker(this.options.code, this.options.data, this.options.name);
    this.worker = worker;
    this.holdProcess();
    this.ready = false;
    worker.on("message", (reply: ThreadReply<A>) => this.replied(worker, reply));
    worker.on("error", (e) => this.stopped(worker, e));
    worker.on("exit", (code) => this.stopped(worker, new Error(`it exited (code ${code})`)));
    return worker;
  }

  /**
   * A thread keeps the process alive while it has work (whoever waits for the answer may have
   * nothing else pending), and not while idle: the owner's server does that.
   */
  private holdProcess(): void {
    if (this.jobs.length > 0) this.worker?.ref();
    else this.worker?.unref();
  }

  /** Posts the waiting work the worker may hold ({@link WORK_POSTED_AHEAD}), in order. */
  private postWaiting(worker: Worker): void {
    while (this.posted < this.jobs.length && this.posted < this.postLimit()) {
      const job = this.jobs[this.posted++]!;
      worker.postMessage({ kind: "work", id: job.id, work: job.work } satisfies ThreadMessage<W>);
    }
  }

  /** How many pieces the worker may hold with the next waiting one: more when all are streamed. */
  private postLimit(): number {
    const streamed = this.options.streamed;
    if (streamed === undefined) return 1 + WORK_POSTED_AHEAD;
    for (let i = 0; i <= this.posted; i++) {
      if (!streamed(this.jobs[i]!.work)) return 1 + WORK_POSTED_AHEAD;
    }
    return 1 + STREAMED_WORK_POSTED_AHEAD;
  }

  private replied(worker: Worker, reply: ThreadReply<A>): void {
    if (worker !== this.worker) return;
    if (reply.kind === "ready") {
      this.ready = true;
      const cpuFile = reply.cpuFile;
      this.cpuFile = cpuFile;
      this.cpuAtStart =
        cpuFile === null
          ? null
          : reusedReading(() => threadCpuMsAt(cpuFile), WATCHDOG_CPU_READING_REUSE_MS);
      this.markStarted();
      this.failedStarts = 0;
      if (this.jobs.length > 0) this.watch(this.jobs[0]!);
      return;
    }
    const job = this.jobs[0];
    if (job === undefined || job.id !== reply.id) return;
    this.jobs.shift();
    this.posted--;
    clearTimeout(this.watchdog);
    this.postWaiting(worker);
    this.holdProcess();
    job.resolve(reply.answer);
    if (this.jobs.length > 0) this.watch(this.jobs[0]!);
  }

  /** Stops the thread when the work it runs has run past its limit and the grace. */
  private watch(job: Job<W, A>): void {
    clearTimeout(this.watchdog);
    const limitMs = this.options.holdLimitMs(job.work);
    const cpuFile = this.cpuFile;
    const cpuAtStart = this.cpuAtStart?.() ?? null;
    const check = (waitMs: number) => {
      this.watchdog = setTimeout(() => {
        if (this.jobs[0] !== job) return;
        const cpuNow = cpuFile === null ? null : threadCpuMsAt(cpuFile);
        const ranMs = cpuAtStart === null || cpuNow === null ? limitMs : cpuNow - cpuAtStart;
        // Waited for a core meanwhile: what is left of the limit, on the wall clock again.
        if (ranMs < limitMs) return check(limitMs - ranMs);
        this.options.onHeld(job.work, limitMs);
        this.replace(this.options.stoppedAnswer(job.work, "watchdog"));
      }, waitMs);
      this.watchdog.unref();
    };
    check(limitMs);
  }

  /** The worker stopped on its own: an error in it, or it ran out of memory. */
  private stopped(worker: Worker, error: Error): void {
    if (worker !== this.worker || this.closed) return;
    if (!this.ready) {
      this.failedStarts++;
      this.worker = null;
      if (this.failedStarts >= MAX_FAILED_STARTS) {
        this.givenUp = error.message;
        this.markStarted();
        this.options.onGivenUp(error.message);
        this.posted = 0;
        for (const job of this.jobs.splice(0)) job.resolve(this.options.unstartedAnswer);
        return;
      }
      this.posted = 0;
      this.postWaiting(this.workerOf());
      return;
    }
    const running = this.jobs[0];
    this.replace(
      running === undefined ? null : this.options.stoppedAnswer(running.work, error.message),
    );
  }

  /**
   * Answers the running work with `answer`, stops the worker and hands the work queued behind
   * it to a new one.
   */
  private replace(answer: A | null): void {
    clearTimeout(this.watchdog);
    const worker = this.worker;
    this.worker = null;
    if (worker !== null) this.retire(worker);
    const running = this.jobs.shift();
    if (running !== undefined && answer !== null) running.resolve(answer);
    this.posted = 0;
    if (this.jobs.length === 0) return;
    this.postWaiting(this.workerOf());
  }

  /** Stops `worker`, keeping its exit for {@link close} until it comes. */
  private retire(worker: Worker): void {
    // A worker that has stopped running already (it exited on its own) has no exit left to wait for.
    if (worker.threadId !== -1) {
      const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
      this.retiring.add(exited);
      void exited.then(() => this.retiring.delete(exited));
    }
    void worker.terminate();
  }
}
