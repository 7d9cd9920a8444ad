import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { KeyWaiters } from "./key-waiters.ts";

describe("KeyWaiters", () => {
  it("wakes every waiter of a key with the published value, and only them", async () => {
    const waiters = new KeyWaiters<string>();
    const a = waiters.wait("k", 10_000);
    const b = waiters.wait("k", 10_000);
    const other = waiters.wait("j", 20);
    assert.equal(waiters.count, 3);
    waiters.publish("k", "result");
    assert.deepEqual(await Promise.all([a, b, other]), ["result", "result", undefined]);
    assert.equal(waiters.count, 0);
  });

  it("gives up after the time-out and when the signal aborts", async () => {
    const waiters = new KeyWaiters<string>();
    const started = Date.now();
    assert.equal(await waiters.wait("k", 50), undefined);
    assert.ok(Date.now() - started >= 45);
    const controller = new AbortController();
    const aborted = waiters.wait("k", 10_000, controller.signal);
    controller.abort();
    assert.equal(await aborted, undefined);
    assert.equal(waiters.count, 0);
    waiters.publish("k", "late");
  });

  it("answers every waiter when closed", async () => {
    const waiters = new KeyWaiters<number>();
    const pending = [waiters.wait("a", 10_000), waiters.wait("b", 10_000)];
    waiters.close();
    assert.deepEqual(await Promise.all(pending), [undefined, undefined]);
    assert.equal(waiters.count, 0);
  });
});
