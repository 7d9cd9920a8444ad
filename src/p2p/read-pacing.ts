/**
 * How much of the network's large reads the thread takes in during one turn of its event loop:
 * its peers' answers (src/p2p/peer-client.ts) and clients' request bodies (src/api/http/
 * json-body.ts), all together. In one turn libuv reads each ready socket up to 32 times 64 KiB,
 * so twenty answers arriving as fast as a peer can write them could be 40 MiB read in a single
 * turn (12 MiB measured over loopback): with a peer answering without end the node's thread ran
 * 320–690 ms while one `/info` waited, and four 3 MiB request bodies sent at once were 4.4 MB read
 * in one turn. {@link paceRead} pauses a stream once the turn's budget is spent and resumes it in
 * the next turn, so the other sockets (the API's small requests among them) are served between.
 */
import type { Readable } from "node:stream";

/**
 * The most bytes of peers' answers and request bodies read in one turn of the event loop, all
 * together (a stream already being read may bring one more chunk, 64 KiB, before its pause takes
 * effect). A catch-up reads ~5.5 MB a second, a fraction of what this allows in the turns of a
 * second; a 2 MB body (the largest the node's API takes) arrives in two or three turns.
 */
export const MAX_READ_BYTES_PER_TURN = 1024 * 1024;

let readThisTurn = 0;
/** The streams paused this turn, resumed in the next. */
const paused: Readable[] = [];
let turnEndScheduled = false;

/** Counts `bytes` just read from `stream`, pausing it until the next turn once the budget is spent. */
export function paceRead(stream: Readable, bytes: number): void {
  readThisTurn += bytes;
  if (!turnEndScheduled) {
    turnEndScheduled = true;
    // Runs once this turn's sockets were read (the check phase follows the poll phase).
    setImmediate(endTurn);
  }
  if (readThisTurn > MAX_READ_BYTES_PER_TURN) {
    stream.pause();
    paused.push(stream);
  }
}

function endTurn(): void {
  turnEndScheduled = false;
  readThisTurn = 0;
  for (const stream of paused.splice(0)) stream.resume();
}
