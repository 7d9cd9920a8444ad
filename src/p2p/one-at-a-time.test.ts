import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { OneAtATime } from "./one-at-a-time.ts";

/** A promise the test settles, and a way to settle it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

const turns = () => new Promise((resolve) => setImmediate(resolve));

describe("work one at a time per key", () => {
  it("runs once more after the run under way, however often it was asked meanwhile", async () => {
    const runs = new OneAtATime(() => false);
    const gates = [gate(), gate()];
    let started = 0;
    const work = () => gates[started++]!.opened;
    runs.run("a", work);
    runs.run("a", work);
    runs.run("a", work);
    assert.equal(started, 1, "one run at a time");
    gates[0]!.open();
    await turns();
    assert.equal(started, 2, "once more, for the three asked meanwhile");
    gates[1]!.open();
    await turns();
    assert.equal(started, 2);
  });

  it("runs other keys beside it, runs again after a failed run, and not once stopped", async () => {
    let stopped = false;
    const runs = new OneAtATime(() => stopped);
    const keys: string[] = [];
    const failing = gate();
    runs.run("a", () => {
      keys.push("a");
      return failing.opened.then(() => Promise.reject(new Error("refused")));
    });
    runs.run("b", async () => {
      keys.push("b");
    });
    runs.run("a", async () => {
      keys.push("a again");
    });
    assert.deepEqual(keys, ["a", "b"]);
    failing.open();
    await turns();
    assert.deepEqual(keys, ["a", "b", "a again"]);
    const held = gate();
    runs.run("c", () => held.opened);
    runs.run("c", async () => {
      keys.push("c again");
    });
    stopped = true;
    held.open();
    await turns();
    assert.deepEqual(keys, ["a", "b", "a again"], "no rerun once stopped");
  });
});
