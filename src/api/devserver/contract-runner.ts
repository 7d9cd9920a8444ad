/**
 * The development server's contract thread, seen from the thread that answers HTTP: the one
 * writer of the contract state, which takes the server's commands one at a time in the order they
 * came, each under the server's time limit, so that however long one runs the server goes on
 * answering `poll`, `listen` and `GET`s.
 *
 * A command that holds the thread {@link WATCHDOG_GRACE_MS} past its time limit (what the
 * interpreter's clock does not see: parsing a huge body of code, encoding a huge result), or runs
 * it out of memory, has the thread stopped; a fresh one opens the state again from its file, where
 * every command that ended is committed and the stopped one left nothing. That is why a server
 * without `persistDir` keeps its state in a temporary file rather than in the thread's memory.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandTimeoutMessage } from "../../execution/index.ts";
import { siblingModule, WATCHDOG_GRACE_MS, WorkThread } from "../../execution/work-thread.ts";
import type { LogSink } from "../http/access-log.ts";
import type { DevServerConfig } from "./config.ts";
import type { ContractAnswer, ContractThreadData, ContractWork } from "./contract-work.ts";
import { STATE_FILE } from "./limits.ts";

const THREAD_CODE = siblingModule(import.meta.url, "contract-thread");

/**
 * The start of a temporary state folder's name; the server's process id follows, so that a later
 * server can tell the folders of servers that ended without removing theirs (`kill -9`).
 */
export const TEMPORARY_STATE_PREFIX = "braid-devserver-state-";

/** Removes the temporary state folders left by servers whose process is gone. */
function removeAbandonedStates(): void {
  const dir = tmpdir();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMPORARY_STATE_PREFIX)) continue;
    const pid = Number.parseInt(name.slice(TEMPORARY_STATE_PREFIX.length), 10);
    if (!Number.isSafeInteger(pid) || pid === process.pid || isRunning(pid)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
  }
}

/** Whether a process with this id exists (one of another user's counts: it is not ours to judge). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** What the work is called in the log. */
function describe(work: ContractWork): string {
  return work.kind === "verify"
    ? "a verify call"
    : `a ${work.kind === "local" ? "local " : ""}command`;
}

export class ContractRunner {
  private readonly thread: WorkThread<ContractWork, ContractAnswer>;
  /** The temporary folder of a server without `persistDir`, removed on close. */
  private readonly temporary: string | null;

  constructor(config: DevServerConfig, log: LogSink) {
    const dir = config.persistDir;
    if (dir === null) removeAbandonedStates();
    this.temporary =
      dir === null ? mkdtempSync(join(tmpdir(), `${TEMPORARY_STATE_PREFIX}${process.pid}-`)) : null;
    const data: ContractThreadData = {
      config,
      statePath: join(dir ?? this.temporary!, STATE_FILE),
      pragmas: dir === null ? [] : config.pragmas,
    };
    const limitMs = config.commandTimeLimitMs;
    this.thread = new WorkThread<ContractWork, ContractAnswer>({
      code: THREAD_CODE,
      data,
      name: "braid-devserver-contracts",
      holdLimitMs: () => limitMs + WATCHDOG_GRACE_MS,
      stoppedAnswer: (_work, why) => ({
        kind: "stopped",
        message:
          why === "watchdog"
            ? commandTimeoutMessage(limitMs)
            : `the command stopped the server's contract thread: ${why}`,
      }),
      closingAnswer: { kind: "failed", message: "the server is shutting down" },
      unstartedAnswer: { kind: "failed", message: "the server's contract thread could not start" },
      onHeld: (work, heldMs) =>
        log.line(
          `${describe(work)} held the contract thread ${heldMs} ms; the thread is replaced and opens the state again`,
        ),
      onGivenUp: (reason) => log.line(`the contract thread could not start: ${reason}`),
    });
    this.thread.start();
  }

  /** Resolves once the thread has opened the state; throws why it could not. */
  async started(): Promise<void> {
    await this.thread.started;
    const reason = this.thread.givenUp;
    if (reason !== null) throw new Error(`the contract state could not be opened: ${reason}`);
  }

  /** Queues `work` behind the work already given; resolves with its answer. */
  run(work: ContractWork): Promise<ContractAnswer> {
    return this.thread.run(work);
  }

  /** How many pieces of work wait for the thread, the one running included. */
  get waiting(): number {
    return this.thread.holding();
  }

  /** Stops the thread (work not done yet is answered `failed`) and removes a temporary state. */
  async close(): Promise<void> {
    await this.thread.close();
    if (this.temporary !== null) rmSync(this.temporary, { recursive: true, force: true });
  }
}
