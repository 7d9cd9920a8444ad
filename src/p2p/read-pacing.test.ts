/**
 * Pacing peers' answers: within one turn of the event loop, answers flow until their bytes
 * together pass MAX_PEER_READ_BYTES_PER_TURN; the one that passes it, and any read after it in the
 * same turn, are paused, and every one paused flows again in the next turn with a fresh budget.
 */
import assert from "node:assert/strict";
import { PassThrough } from "node:stream";
import { describe, it } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { MAX_PEER_READ_BYTES_PER_TURN, paceRead } from "./read-pacing.ts";

/** An answer being read: a stream flowing into a 'data' listener. */
function flowingAnswer(): PassThrough {
  const answer = new PassThrough();
  answer.on("data", () => {});
  return answer;
}

describe("pacing peers' answers", () => {
  it("pauses the answers read past the turn's budget until the next turn", async () => {
    await nextTurn();
    const [a, b, c] = [flowingAnswer(), flowingAnswer(), flowingAnswer()];
    const half = MAX_PEER_READ_BYTES_PER_TURN / 2;
    paceRead(a, half);
    paceRead(b, half);
    assert.deepEqual([a.isPaused(), b.isPaused()], [false, false], "within the budget");
    paceRead(c, 1);
    paceRead(a, 1);
    assert.deepEqual([a.isPaused(), b.isPaused(), c.isPaused()], [true, false, true]);

    await nextTurn();
    assert.deepEqual([a.isPaused(), b.isPaused(), c.isPaused()], [false, false, false]);
    paceRead(b, MAX_PEER_READ_BYTES_PER_TURN);
    assert.equal(b.isPaused(), false, "a fresh budget in the next turn");
    paceRead(b, 1);
    assert.equal(b.isPaused(), true);
    await nextTurn();
    assert.equal(b.isPaused(), false);
  });
});
