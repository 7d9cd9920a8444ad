/**
 * A lying peer (support/lying-peer.ts) against a real `braid node` process that also follows an
 * honest node (another process): for each lie — a header without its proof of work, a wrong
 * adjacent parent, a payload that does not match its hashes, outputs that differ from execution
 * — the follower logs the refusal once with the import pipeline's exact code and reason, stores
 * nothing of the liar's branch (`GET header/{hash}` 404, its cut never names a block of it) and
 * still follows the honest node.
 *
 * The liar serves its cut when polled and also gossips it (`PUT /cut`) while the follower is
 * fetching its branch, so the follower is offered the same lie twice and must refuse it once.
 * Nodes listen on 127.0.0.1, ports picked free.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { encodeBase64Url } from "../../src/crypto/index.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { LIES, type Lie, lyingBranch, startLyingPeer } from "./support/lying-peer.ts";

const BASE = "/chainweb/0.0/development";
/** How long the follower may take to refuse the lie (it polls its peers every second). */
const REFUSAL_WITHIN_MS = 20_000;
/** How long the honest node's blocks may take to reach the follower. */
const FOLLOW_WITHIN_MS = 30_000;

const b64 = encodeBase64Url;

/** `host:port` of a node process. */
const keyOf = (node: NodeProcess) => new URL(node.url).host;

async function until(what: string, withinMs: number, done: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`);
    await sleep(100);
  }
}

async function cutOf(node: NodeProcess): Promise<Map<number, string>> {
  const response = await fetch(`${node.url}${BASE}/cut`);
  assert.equal(response.status, 200);
  const { hashes } = (await response.json()) as { hashes: Record<string, { hash: string }> };
  return new Map(Object.entries(hashes).map(([c, { hash }]) => [Number(c), hash]));
}

async function headerStatus(node: NodeProcess, chainId: number, hash: string): Promise<number> {
  const response = await fetch(`${node.url}${BASE}/chain/${chainId}/header/${hash}`);
  await response.arrayBuffer();
  return response.status;
}

/** Reads the node's cut every 100 ms until stopped: every head hash it named (a failed read: stop rejects). */
function watchCut(node: NodeProcess): { stop(): Promise<Set<string>> } {
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

describe("a lying peer", { timeout: 240_000 }, () => {
  /** The honest node of the cases whose follower does not require proof of work. */
  let onDemand: NodeProcess;
  before(async () => {
    onDemand = await startNode({ args: ["--mining", "on-demand"] });
  });
  after(async () => {
    await onDemand?.stop();
  });

  const cases: Readonly<Record<Lie, string>> = {
    "bad-pow": "a header without proof of work is refused by a node that requires it",
    "wrong-adjacent": "a header naming another block as an adjacent parent is refused",
    "payload-mismatch": "a payload that does not match the header's hashes is refused",
    "outputs-mismatch": "a block whose outputs differ from executing it is refused",
  };

  for (const lie of LIES) {
    it(`${cases[lie]}: logged once, nothing of it stored, the honest node still followed`, async () => {
      const pow = lie === "bad-pow";
      // A follower that requires proof of work follows a pow miner (on-demand blocks carry none).
      const honest = pow ? await startNode({ args: ["--mining", "pow"] }) : onDemand;
      const liar = await startLyingPeer(lyingBranch(lie));
      let follower: NodeProcess | undefined;
      let watch: ReturnType<typeof watchCut> | undefined;
      try {
        follower = await startNode({
          args: [
            "--mining",
            "none",
            "--peer",
            liar.key,
            "--peer",
            keyOf(honest),
            ...(pow ? ["--require-pow", "true"] : []),
          ],
        });
        watch = watchCut(follower);
        assert.equal(await liar.gossip(follower.url), 204, "PUT /cut from the liar");

        const { lying, code, reason } = liar.branch;
        const refusal = `peer ${liar.key}: block ${b64(lying.hash)} of chain ${lying.chainId} is refused (${code}): ${reason}; not asked for a while`;
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

        const named = await watch.stop();
        for (const { header } of liar.branch.blocks) {
          const hash = b64(header.hash);
          assert.equal(
            await headerStatus(follower, header.chainId, hash),
            404,
            `the liar's block ${hash} of chain ${header.chainId}`,
          );
          assert.ok(!named.has(hash), `the follower's cut named the liar's block ${hash}`);
        }
        const aboutLiar = output()
          .split("\n")
          .filter((line) => line.startsWith(`peer ${liar.key}`) && !line.endsWith(" joined"));
        assert.deepEqual(aboutLiar, [refusal], "the liar is logged once, for its lie");
        assert.ok(liar.requests.includes(`POST ${BASE}/chain/0/header/branch`));
        assert.ok(liar.requests.includes(`POST ${BASE}/chain/0/payload/batch`));
        console.log(`${lie}: the honest cut reached the follower in ${followMs} ms`);
      } finally {
        await watch?.stop().catch(() => undefined);
        await follower?.stop();
        await liar.close();
        if (pow) await honest.kill();
      }
    });
  }
});
