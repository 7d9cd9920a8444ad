/**
 * A lying peer (support/lying-peer-server.ts) against a real `braid node` process that also
 * follows an honest node (another process), each in a network namespace of its own: for each lie
 * — a header without its proof of work, a wrong adjacent parent, a creation time a day ahead, a
 * payload that does not match its hashes, outputs that differ from execution — the follower logs the refusal once with the import
 * pipeline's exact code and reason, stores nothing of the liar's branch (`GET header/{hash}` 404,
 * its cut never names a block of it) and still follows the honest node.
 *
 * The liar serves its cut when polled and, when first asked for its branch, also gossips it
 * (`PUT /cut`), so the follower is offered the same lie twice and must refuse it once. Each case
 * has a liar and a follower on hosts of their own.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { LIES, type Lie } from "./support/lying-peer.ts";
import { startLyingPeer } from "./support/lying-peer-process.ts";
import { DEFAULT_NODE_PORT, type NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const BASE = "/chainweb/0.0/development";
/** How long the follower may take to refuse the lie (it polls its peers every second). */
const REFUSAL_WITHIN_MS = 20_000;
/** How long the honest node's blocks may take to reach the follower. */
const FOLLOW_WITHIN_MS = 30_000;

/** A node, as this test reaches it. */
type Reached = Pick<NetNode, "url">;

async function until(what: string, withinMs: number, done: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`);
    await sleep(100);
  }
}

async function cutOf(node: Reached): Promise<Map<number, string>> {
  const response = await fetch(`${node.url}${BASE}/cut`);
  assert.equal(response.status, 200);
  const { hashes } = (await response.json()) as { hashes: Record<string, { hash: string }> };
  return new Map(Object.entries(hashes).map(([c, { hash }]) => [Number(c), hash]));
}

async function headerStatus(node: Reached, chainId: number, hash: string): Promise<number> {
  const response = await fetch(`${node.url}${BASE}/chain/${chainId}/header/${hash}`);
  await response.arrayBuffer();
  return response.status;
}

/** Reads the node's cut every 100 ms until stopped: every head hash it named (a failed read: stop rejects). */
function watchCut(node: Reached): { stop(): Promise<Set<string>> } {
  const named = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const hash of (await cutOf(node)).values()) named.add(hash);
      await sleep(100);
    }
  })();
  // Read by stop(); handled here so that a failure after the test gave up is not unhandled.
  loop.catch(() => undefined);
  return {
    async stop() {
      running = false;
      await loop;
      return named;
    },
  };
}

describe("a lying peer", { skip: networkTestSkip(), timeout: 300_000 }, () => {
  const liarHost = (i: number) => `liar${i}`;
  const followerHost = (i: number) => `follow${i}`;
  let net: TestNetwork;
  /** The honest node of the cases whose follower does not require proof of work. */
  let onDemand: NetNode;
  before(async () => {
    const perCase = LIES.flatMap((_, i) => [liarHost(i), followerHost(i)]);
    net = await TestNetwork.create(["ondemand", "pow", ...perCase]);
    onDemand = await net.startNode("ondemand", {
      args: ["--mining", "on-demand", "--dev-controls"],
    });
  });
  after(() => net?.close());

  const cases: Readonly<Record<Lie, string>> = {
    "bad-pow": "a header without proof of work is refused by a node that requires it",
    "wrong-adjacent": "a header naming another block as an adjacent parent is refused",
    "from-the-future": "a header created a day after the follower's clock is refused",
    "payload-mismatch": "a payload that does not match the header's hashes is refused",
    "outputs-mismatch": "a block whose outputs differ from executing it is refused",
  };

  for (const [i, lie] of LIES.entries()) {
    it(`${cases[lie]}: logged once, nothing of it stored, the honest node still followed`, async () => {
      const pow = lie === "bad-pow";
      const followerUrl = `http://${net.host(followerHost(i)).address}:${DEFAULT_NODE_PORT}`;
      const [honest, liar] = await Promise.all([
        // A follower that requires proof of work follows a pow miner (on-demand blocks carry none).
        pow ? net.startNode("pow", { args: ["--mining", "pow"] }) : onDemand,
        startLyingPeer(net, liarHost(i), lie, followerUrl),
      ]);
      let follower: NetNode | undefined;
      let watch: ReturnType<typeof watchCut> | undefined;
      try {
        follower = await net.startNode(followerHost(i), {
          args: [
            "--mining",
            "none",
            "--peer",
            liar.key,
            "--peer",
            honest.peer,
            ...(pow ? ["--require-pow", "true"] : []),
          ],
        });
        assert.equal(follower.url, followerUrl);
        watch = watchCut(follower);

        const { lying, code, reason } = liar;
        const refusal = `peer ${liar.key}: block ${lying.hash} of chain ${lying.chainId} is refused (${code}): ${reason}; not asked for a while`;
        const output = follower.output;
        await until("the refusal logged", REFUSAL_WITHIN_MS, () => output().includes(refusal));

        // The honest network goes on, and the follower with it.
        if (!pow) {
          const mined = await fetch(`${honest.url}/braid/dev/mine`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ blocks: 2, chains: [0, 7] }),
          });
          assert.equal(mined.status, 200, await mined.text());
        }
        const target = await cutOf(honest);
        const started = Date.now();
        await until("the honest node's cut on the follower", FOLLOW_WITHIN_MS, async () => {
          for (const [chainId, hash] of target) {
            if ((await headerStatus(follower!, chainId, hash)) !== 200) return false;
          }
          return true;
        });
        const followMs = Date.now() - started;

        // The lying block and everything above it is stored nowhere. The blocks below it are
        // valid on their own (the liar's node made them), and a node may keep them, as
        // chainweb-node keeps every header it validated: the pipeline stores the blocks of a
        // sync that extend its heads one by one, and stops at the first bad one.
        const named = await watch.stop();
        const refused = liar.blocks.filter((b) => b.hash === lying.hash || b.height > lying.height);
        assert.ok(refused.length >= 1);
        for (const { hash, chainId } of refused) {
          assert.equal(
            await headerStatus(follower, chainId, hash),
            404,
            `the liar's block ${hash} of chain ${chainId}`,
          );
          assert.ok(!named.has(hash), `the follower's cut named the liar's block ${hash}`);
        }
        const aboutLiar = output()
          .split("\n")
          .filter((line) => line.startsWith(`peer ${liar.key}`) && !line.endsWith(" joined"));
        assert.deepEqual(aboutLiar, [refusal], "the liar is logged once, for its lie");
        assert.equal(liar.gossip(), 204, "PUT /cut from the liar");
        const requests = liar.requests();
        assert.ok(requests.includes(`POST ${BASE}/chain/0/header/branch`), requests.join("\n"));
        // A lie in the payload is found only by reading it. A lie in the header may be refused
        // before its payload is asked for, or without asking: its payload may be one the
        // follower holds already (the postdated block's is the honest node's first block's of
        // chain 0: the same parent and miner, no transactions).
        if (lie === "payload-mismatch" || lie === "outputs-mismatch") {
          assert.ok(requests.includes(`POST ${BASE}/chain/0/payload/batch`), requests.join("\n"));
        }
        console.log(`${lie}: the honest cut reached the follower in ${followMs} ms`);
      } finally {
        await watch?.stop().catch(() => undefined);
        await follower?.stop();
        await liar.process.kill();
        if (pow) await honest.kill9();
      }
    });
  }
});
