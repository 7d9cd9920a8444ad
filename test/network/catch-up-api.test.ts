/**
 * The API answers while a node catches up (issue #34): a peer makes {@link CATCH_UP_HEIGHTS}
 * heights of the 20 chains, then a fresh follower joins it, each in a network namespace of its
 * own. From the follower's start until its cut is its peer's, a client asks the follower's
 * `/info` every 10 ms, one request after another (support/info-probe.ts). While any one answer
 * is awaited, the follower's thread may run for at most {@link SLOWEST_ANSWER_MS}: its CPU time,
 * not the wall clock, which on a loaded machine also counts the follower's waits for a core (as
 * test/hostile/responsive-api.timed.test.ts measures). The answers' count, wall-clock p99 and
 * slowest are printed. Before imports let the event loop run, one sync's batch of 1,000 blocks
 * held the thread for a second or more.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { post } from "../crash/support/requests.ts";
import { PROBE_EVERY_MS, SLOWEST_ANSWER_MS } from "../support/answer-probe.ts";
import { converged, cutOf } from "./support/converge.ts";
import { infoWaitsSummary, infoWaitsUntil } from "./support/info-probe.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const CHAINS = Array.from({ length: 20 }, (_, c) => c);
/** The heights the follower lacks: 2,000 blocks of the 20 chains. */
const CATCH_UP_HEIGHTS = 100;
/** How long the catch-up may take. */
const CATCH_UP_MS = 60_000;

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

  it(`a follower catching up ${CATCH_UP_HEIGHTS * CHAINS.length} blocks, /info asked every ${PROBE_EVERY_MS} ms: the follower runs at most ${SLOWEST_ANSWER_MS} ms while an answer waits`, async () => {
    const follower = await net.startNode("follower", {
      args: ["--mining", "none", "--peer", peer.peer],
    });
    try {
      const caughtUp = converged([peer, follower], CATCH_UP_MS, 50);
      const waits = await infoWaitsUntil(follower, caughtUp);
      const { cut, millis } = await caughtUp;
      const most = Math.max(...waits.serverCpuMs);
      console.log(
        `# caught up ${CATCH_UP_HEIGHTS * CHAINS.length} blocks in ${millis.toFixed(0)} ms; ${infoWaitsSummary(waits)}`,
      );
      assert.equal(cut.height, (await cutOf(peer)).height);
      assert.ok(waits.wallMs.length >= 2, "/info asked during the catch-up");
      assert.ok(
        most <= SLOWEST_ANSWER_MS,
        `the follower ran ${most.toFixed(0)} ms while an /info answer waited`,
      );
      assert.doesNotMatch(follower.output(), /is refused|not asked for a while|internal error/);
    } finally {
      await follower.stop();
    }
  });
});
