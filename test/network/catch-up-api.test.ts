/**
 * The API answers while a node catches up (issue #34): a peer makes {@link CATCH_UP_HEIGHTS}
 * heights of the 20 chains, then a fresh follower joins it, each in a network namespace of its
 * own. From the follower's start until its cut is its peer's, a client asks the follower's
 * `/info` every {@link POLL_EVERY_MS} ms, one request after another. While any one answer is
 * awaited, the follower's thread may run for at most {@link SLOWEST_INFO_MS}: its CPU time, not
 * the wall clock, which on a loaded machine also counts the follower's waits for a core (as
 * test/hostile/responsive-api.timed.test.ts measures). The answers' count, wall-clock p99 and
 * slowest are printed. Before imports let the event loop run, one sync's batch of 1,000 blocks
 * held the thread for a second or more.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { post } from "../crash/support/requests.ts";
import { mainThreadCpuMs } from "../support/thread-cpu.ts";
import { converged, cutOf } from "./support/converge.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const CHAINS = Array.from({ length: 20 }, (_, c) => c);
/** The heights the follower lacks: 2,000 blocks of the 20 chains. */
const CATCH_UP_HEIGHTS = 100;
/** The pause between one `/info` answer and the next request. */
const POLL_EVERY_MS = 10;
/** The most the follower's thread may run while one `/info` answer is awaited (issue #34's bound). */
const SLOWEST_INFO_MS = 200;
/** How long the catch-up may take. */
const CATCH_UP_MS = 60_000;

/** For each `/info` answer: its wall-clock time and the follower's thread's CPU time meanwhile. */
interface Waits {
  readonly wallMs: number[];
  readonly serverCpuMs: number[];
}

/** Asks `node`'s `/info`, one request after another, until `done` settles. */
async function infoWaitsUntil(node: NetNode, done: Promise<unknown>): Promise<Waits> {
  let finished = false;
  const watched = done.finally(() => {
    finished = true;
  });
  const pid = node.process.child.pid!;
  const waits: Waits = { wallMs: [], serverCpuMs: [] };
  while (!finished) {
    const cpu = mainThreadCpuMs(pid);
    const started = performance.now();
    const response = await fetch(`${node.url}/info`);
    await response.arrayBuffer();
    assert.equal(response.status, 200, "/info during the catch-up");
    waits.wallMs.push(performance.now() - started);
    waits.serverCpuMs.push(mainThreadCpuMs(pid) - cpu);
    await sleep(POLL_EVERY_MS);
  }
  await watched;
  return waits;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe("the API during a catch-up", { skip: networkTestSkip(), timeout: 180_000 }, () => {
  let net: TestNetwork;
  let peer: NetNode;

  before(async () => {
    net = await TestNetwork.create(["peer", "follower"]);
    peer = await net.startNode("peer", { args: ["--mining", "none", "--dev-controls"] });
    const mined = await post(
      `${peer.url}/braid/dev/mine`,
      JSON.stringify({ blocks: CATCH_UP_HEIGHTS, chains: CHAINS }),
    );
    assert.equal(mined.status, 200, mined.text);
  });
  after(() => net?.close());

  it(`a follower catching up ${CATCH_UP_HEIGHTS * CHAINS.length} blocks runs at most ${SLOWEST_INFO_MS} ms while /info waits`, async () => {
    const follower = await net.startNode("follower", {
      args: ["--mining", "none", "--peer", peer.peer],
    });
    try {
      const caughtUp = converged([peer, follower], CATCH_UP_MS, 50);
      const { wallMs, serverCpuMs } = await infoWaitsUntil(follower, caughtUp);
      const { cut, millis } = await caughtUp;
      const most = Math.max(...serverCpuMs);
      console.log(
        `# caught up ${CATCH_UP_HEIGHTS * CHAINS.length} blocks in ${millis.toFixed(0)} ms; /info answered ` +
          `${wallMs.length} times, p99 ${percentile(wallMs, 99).toFixed(0)} ms, slowest ` +
          `${Math.max(...wallMs).toFixed(0)} ms; the follower ran at most ${most.toFixed(0)} ms during one`,
      );
      assert.equal(cut.height, (await cutOf(peer)).height);
      assert.ok(wallMs.length >= 2, "/info asked during the catch-up");
      assert.ok(
        most <= SLOWEST_INFO_MS,
        `the follower ran ${most.toFixed(0)} ms while an /info answer waited`,
      );
      assert.doesNotMatch(follower.output(), /is refused|not asked for a while|internal error/);
    } finally {
      await follower.stop();
    }
  });
});
