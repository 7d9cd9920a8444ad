/**
 * How much of its peers' answers the node's thread takes in during one turn of its event loop. In
 * one turn libuv reads each ready socket up to 32 times 64 KiB, so twenty answers arriving as fast
 * as a peer can write them could be 40 MiB read in a single turn (12 MiB measured over loopback),
 * and with a peer answering without end the node's thread ran 320–690 ms while one `/info` waited.
 * {@link paceRead} pauses an answer once the turn's budget is spent and resumes it in the next
 * turn, so the other sockets (the API's among them) are served in between.
 */
import type { Readable } from "node:stream";

/**
 * The most bytes of peers' answers read in one turn of the event loop, all peers together (an
 * answer already being read may bring one more chunk, 64 KiB, before its pause takes effect). A
 * catch-up reads ~5.5 MB a second, a fraction of what this allows in the turns of a second.
 */
export const MAX_PEER_READ_BYTES_PER_TURN = 1024 * 1024;

let readThisTurn = 0;
/** The answers paused this turn, resumed in the next. */
const paused: Readable[] = [];
let turnEndScheduled = false;

/** Counts `bytes` just read from `answer`, pausing it until the next turn once the budget is spent. */
export function paceRead(answer: Readable, bytes: number): void {
  readThisTurn += bytes;
  if (!turnEndScheduled) {
    turnEndScheduled = true;
    // Runs once this turn's sockets were read (the check phase follows the poll phase).
    setImmediate(endTurn);
  }
  if (readThisTurn > MAX_PEER_READ_BYTES_PER_TURN) {
    answer.pause();
    paused.push(answer);
  }
}

function endTurn(): void {
  turnEndScheduled = false;
  readThisTurn = 0;
  for (const answer of paused.splice(0)) answer.resume();
}
