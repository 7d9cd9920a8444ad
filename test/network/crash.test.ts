/**
 * A follower killed with `kill -9` at random moments during its sync (issue #25's crash item),
 * four times (ten with CRASH_ROUNDS=full: `crash-rounds.ts`), each in its own network namespace
 * beside the miner: each restart opens its data
 * directory without complaint and goes on from what it had stored, and in the end its chains
 * are the miner's, block for block.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { crashRounds, killDelayMs } from "../support/crash-rounds.ts";
import { converged, cutOf } from "./support/converge.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

/** Heights the miner makes on every chain before the follower starts (20 chains: 12,000 blocks). */
const HEIGHTS = 600;
/** Heights the miner adds between two crashes, so that each restart has a sync to do. */
const HEIGHTS_PER_ROUND = 40;
const CRASHES = crashRounds(4, 10);
/** A crash comes this long after the follower's start, at random within the round's share. */
const CRASH_AFTER_MS: readonly [number, number] = [100, 1_200];
const CATCH_UP_MS = 120_000;

const CHAINS = Array.from({ length: 20 }, (_, c) => c);

async function mine(node: NetNode, blocks: number): Promise<void> {
  const response = await fetch(`${node.url}/braid/dev/mine`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ blocks, chains: CHAINS }),
  });
  assert.equal(response.status, 200, await response.text());
}

describe("a follower killed during sync", { skip: networkTestSkip(), timeout: 300_000 }, () => {
  let net: TestNetwork;
  let miner: NetNode;
  let follower: NetNode;
  /** What the follower printed, over its restarts. */
  let logs = "";

  before(async () => {
    net = await TestNetwork.create(["m", "f"]);
    miner = await net.startNode("m", { args: ["--mining", "none", "--dev-controls"] });
    await mine(miner, HEIGHTS);
  });
  after(() => net?.close());

  it(`restarts and catches up after ${CRASHES} crashes at random moments`, async () => {
    follower = await net.startNode("f", { args: ["--mining", "none", "--peer", miner.peer] });
    const heights: number[] = [];
    for (let i = 0; i < CRASHES; i++) {
      const delay = killDelayMs(i, CRASHES, Math.random(), CRASH_AFTER_MS);
      await new Promise((resolve) => setTimeout(resolve, delay));
      logs += follower.output();
      await follower.kill9();
      await mine(miner, HEIGHTS_PER_ROUND);
      await follower.restart();
      heights.push((await cutOf(follower)).height);
      assert.doesNotMatch(follower.output(), /internal error|cannot open|damaged/);
    }
    const { millis } = await converged([miner, follower], CATCH_UP_MS, 200);
    console.log(
      `# cut heights after each restart: ${heights.join(", ")}; caught up ${millis.toFixed(0)} ms after the last`,
    );
    assert.ok(
      heights.some((h) => h > 0),
      "the follower stored blocks between crashes",
    );
  });

  it("the follower's blocks are the miner's, and it reopens cleanly once more", async () => {
    logs += follower.output();
    await follower.stop();
    await follower.restart();
    const [theirs, ours] = await Promise.all([cutOf(miner), cutOf(follower)]);
    assert.deepEqual(ours.hashes, theirs.hashes);
    for (const chain of [0, 7, 19]) {
      const page = async (node: NetNode) =>
        (
          await fetch(
            `${node.url}/chainweb/0.0/development/chain/${chain}/hash?minheight=0&limit=360`,
          )
        ).text();
      assert.equal(await page(follower), await page(miner), `chain ${chain}'s blocks`);
    }
    // Every 2 s of a sync, and once when a sync of 1,000 blocks or more ends (the last catch-up
    // may take less than 2 s).
    assert.match(
      logs,
      /sync from .*: \d+ (of \d+ blocks|blocks in [\d.]+ s) \(\d+ blocks\/s\)/,
      "a progress line",
    );
  });
});
