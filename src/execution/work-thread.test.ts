/**
 * A work thread whose work runs past its limit is stopped and replaced. A thread stopped inside
 * native code (a long SQLite statement) runs on until the statement returns, its files open: the
 * owner's `close` resolves only once that thread has exited too, so that whoever closes it (the
 * development server removing its temporary folder) finds its files closed.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { STREAMED_WORK_POSTED_AHEAD, siblingModule, WorkThread } from "./work-thread.ts";

/** Rows SQLite counts in the held statement: a second or more on this project's machines. */
const HELD_ROWS = 20_000_000;

/**
 * The descriptors this process holds open on threads' CPU time files (thread-cpu.ts keeps each
 * thread's open): a live thread's names its file; an exited thread's names nothing any more.
 */
function threadStatDescriptors(): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (/\/task\/\d+\/(sched)?stat$/.test(readlinkSync(`/proc/self/fd/${fd}`))) count++;
    } catch {
      // Names nothing: an exited thread's file (or the listing's own descriptor, counted alike
      // in every listing).
      count++;
    }
  }
  return count;
}

describe("a work thread stopped under its work", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-work-thread-"));
  const path = join(dir, "held.sqlite");
  after(() => rmSync(dir, { recursive: true, force: true }));

  /** A thread over the held SQLite file whose work may hold it 50 ms; `held` hears of stops. */
  const heldThread = (held: number[] = []) =>
    new WorkThread<{ rows: number }, string>({
      code: siblingModule(import.meta.url, "test-support/held-thread"),
      data: { path },
      name: "held",
      holdLimitMs: () => 50,
      stoppedAnswer: (_work, why) => `stopped: ${why}`,
      closingAnswer: "closing",
      unstartedAnswer: "unstarted",
      onHeld: (_work, limitMs) => held.push(limitMs),
      onGivenUp: () => {},
    });

  it("answers the work as stopped, and its close waits for the stopped thread to exit", async () => {
    const held: number[] = [];
    const thread = heldThread(held);
    thread.start();
    await thread.started;
    assert.equal(await thread.run({ rows: HELD_ROWS }), "stopped: watchdog");
    assert.deepEqual(held, [50]);
    await thread.close();
    // The stopped thread's exclusive lock is gone: it has exited, its connection closed.
    const db = new Database(path, { timeout: 0 });
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    db.close();
  });

  it("leaves open none of the CPU time files its threads kept open, the stopped one's neither", {
    skip: process.platform !== "linux",
  }, async () => {
    const before = threadStatDescriptors();
    const thread = heldThread();
    assert.equal(await thread.run({ rows: HELD_ROWS }), "stopped: watchdog");
    assert.equal(await thread.run({ rows: 1 }), "counted");
    // The stopped thread's, until it has exited, and its replacement's.
    assert.ok(threadStatDescriptors() >= before + 1);
    await thread.close();
    assert.equal(threadStatDescriptors(), before);
  });
});

describe("the order of a work thread's work", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-work-order-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("posts streamed work far ahead, and work ranked higher passes the streamed work still waiting", async () => {
    type Work = { readonly rows: number; readonly kind: "run" | "call" };
    const thread = new WorkThread<Work, string>({
      code: siblingModule(import.meta.url, "test-support/held-thread"),
      data: { path: join(dir, "order.sqlite") },
      name: "order",
      holdLimitMs: () => 60_000,
      stoppedAnswer: (_work, why) => `stopped: ${why}`,
      closingAnswer: "closing",
      unstartedAnswer: "unstarted",
      onHeld: () => {},
      onGivenUp: () => {},
      rank: (work) => (work.kind === "call" ? 1 : 0),
      streamed: (work) => work.kind === "run",
    });
    try {
      const done: string[] = [];
      const runs = Array.from({ length: STREAMED_WORK_POSTED_AHEAD + 5 }, (_, i) =>
        thread.run({ rows: 1_000, kind: "run" }).then(() => done.push(`run ${i}`)),
      );
      const call = thread.run({ rows: 1, kind: "call" }).then(() => done.push("call"));
      await Promise.all([...runs, call]);
      // Behind the run under way and the runs posted ahead of it, ahead of the runs still waiting.
      assert.equal(done.indexOf("call"), 1 + STREAMED_WORK_POSTED_AHEAD);
      assert.equal(done.length, STREAMED_WORK_POSTED_AHEAD + 6);
    } finally {
      await thread.close();
    }
  });
});
