/**
 * Pacing the network's large reads (peers' answers, request bodies): within one turn of the event
 * loop, streams flow until their bytes together pass MAX_READ_BYTES_PER_TURN; the one that passes
 * it, and any read after it in the same turn, are paused, and every one paused flows again in the
 * next turn with a fresh budget.
 */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { MAX_READ_BYTES_PER_TURN, paceRead } from "./read-pacing.ts";

/** A stream being read (an answer, a body): flowing into a 'data' listener. */
function flowingStream(): PassThrough {
  const stream = new PassThrough();
  stream.on("data", () => {});
  return stream;
}

describe("pacing the network's reads", () => {
  it("pauses the streams read past the turn's budget until the next turn", async () => {
    await nextTurn();
    const [a, b, c] = [flowingStream(), flowingStream(), flowingStream()];
    const half = MAX_READ_BYTES_PER_TURN / 2;
    paceRead(a, half);
    paceRead(b, half);
    assert.deepEqual([a.isPaused(), b.isPaused()], [false, false], "within the budget");
    paceRead(c, 1);
    paceRead(a, 1);
    assert.deepEqual([a.isPaused(), b.isPaused(), c.isPaused()], [true, false, true]);

    await nextTurn();
    assert.deepEqual([a.isPaused(), b.isPaused(), c.isPaused()], [false, false, false]);
    paceRead(b, MAX_READ_BYTES_PER_TURN);
    assert.equal(b.isPaused(), false, "a fresh budget in the next turn");
    paceRead(b, 1);
    assert.equal(b.isPaused(), true);
    await nextTurn();
    assert.equal(b.isPaused(), false);
  });
});
