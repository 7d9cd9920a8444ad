import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeLogger } from "./logger.ts";
import { PLAIN_LINE_MS, ProgressLine, TTY_REDRAW_MS } from "./progress.ts";

/** An output that keeps what is written, a terminal or not, and a clock the test moves. */
function capture(isTTY: boolean) {
  const written: string[] = [];
  let now = 0;
  return {
    out: { isTTY, write: (text: string) => written.push(text) },
    written,
    clock: () => now,
    wait: (ms: number) => {
      now += ms;
    },
  };
}

describe("progress line", () => {
  it("on a terminal, redraws one line in place, at most every TTY_REDRAW_MS", () => {
    const t = capture(true);
    const line = new ProgressLine(t.out, t.clock);
    line.update("1 of 3");
    line.update("2 of 3");
    t.wait(TTY_REDRAW_MS);
    line.update("3 of 3");
    line.done("done: 3");
    assert.deepEqual(t.written, ["\r\x1b[K1 of 3", "\r\x1b[K3 of 3", "\r\x1b[K", "done: 3\n"]);
  });

  it("elsewhere, writes plain lines, at most one every PLAIN_LINE_MS", () => {
    const t = capture(false);
    const line = new ProgressLine(t.out, t.clock);
    line.update("1 of 3");
    t.wait(PLAIN_LINE_MS - 1);
    line.update("2 of 3");
    t.wait(1);
    line.update("3 of 3");
    line.done("done: 3");
    assert.deepEqual(t.written, ["1 of 3\n", "3 of 3\n", "done: 3\n"]);
  });

  it("the node's log erases a terminal's progress line before writing a line, and shows progress at info only", () => {
    const t = capture(true);
    const log = makeLogger("info", t.out);
    log.progress("replaying 1 of 2");
    log.info("chain  0  height 1");
    log.debug("not shown");
    assert.deepEqual(t.written, ["\r\x1b[Kreplaying 1 of 2", "\r\x1b[K", "chain  0  height 1\n"]);
    const quiet = capture(true);
    const warnLog = makeLogger("warn", quiet.out);
    warnLog.progress("hidden");
    warnLog.progressDone("hidden too");
    assert.deepEqual(quiet.written, []);
  });
});
