/**
 * Accepted commands are durable (issue #33): a follower takes 200 transfers while its miner is
 * stopped (SIGSTOP), answering 200 to each `send`, and is killed with `kill -9` before it could
 * pass any of them on. Restarted, it takes them back from its mempool journal; once the miner
 * runs again (SIGCONT) every one of them is mined, and its result is answered by both nodes.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import {
  endpoint,
  postJson,
  SENDER00,
  SENDER01,
  signWith,
  transferCommand,
} from "../e2e/support/kadena.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const COMMANDS = 200;
/** How long the restarted follower and the resumed miner may take to deliver every result. */
const DELIVERY_MS = 60_000;

/** The request keys of `keys` whose results `node` answers (one `poll`). */
async function resultsOn(node: NetNode, keys: readonly string[]): Promise<Set<string>> {
  const answer = await postJson(endpoint(node.url, "poll"), { requestKeys: keys });
  assert.equal(answer.status, 200, answer.text);
  const results = JSON.parse(answer.text) as Record<string, { result: { status: string } }>;
  for (const [key, found] of Object.entries(results)) {
    assert.equal(found.result.status, "success", `${key}: ${JSON.stringify(found)}`);
  }
  return new Set(Object.keys(results));
}

/** Polls both nodes until each answers every key's result or the deadline passes; the missing. */
async function missingAfter(nodes: readonly NetNode[], keys: readonly string[], ms: number) {
  const deadline = performance.now() + ms;
  for (;;) {
    const found = await Promise.all(nodes.map((node) => resultsOn(node, keys)));
    const missing = found.map((set) => keys.filter((key) => !set.has(key)).length);
    if (missing.every((n) => n === 0) || performance.now() > deadline) return missing;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe("commands a follower accepted", { skip: networkTestSkip(), timeout: 150_000 }, () => {
  let net: TestNetwork;
  let miner: NetNode;
  let follower: NetNode;

  before(async () => {
    net = await TestNetwork.create(["m", "f"]);
    miner = await net.startNode("m", { args: ["--mining", "on-demand"] });
    follower = await net.startNode("f", { args: ["--mining", "none", "--peer", miner.peer] });
  });
  after(() => {
    // A miner left stopped would outlive its SIGTERM.
    if (miner?.process.child.pid !== undefined) process.kill(miner.process.child.pid, "SIGCONT");
    return net?.close();
  });

  it(`are all mined after a kill -9 of the follower (${COMMANDS} transfers)`, async () => {
    const pid = miner.process.child.pid!;
    process.kill(pid, "SIGSTOP");
    const keys: string[] = [];
    for (let i = 1; i <= COMMANDS; i++) {
      // Distinct amounts make distinct commands.
      const command = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, `${i}.0`));
      const sent = await postJson(endpoint(follower.url, "send"), { cmds: [command] });
      assert.equal(sent.status, 200, sent.text);
      assert.deepEqual(JSON.parse(sent.text), { requestKeys: [command.hash] });
      keys.push(command.hash);
    }
    await follower.kill9();
    await follower.restart();
    // Written while the node opened, before it served.
    const startLog = follower.output();
    process.kill(pid, "SIGCONT");
    const started = performance.now();
    const missing = await missingAfter([follower, miner], keys, DELIVERY_MS);
    console.log(
      `# results polled for ${(performance.now() - started).toFixed(0)} ms after SIGCONT`,
    );
    assert.deepEqual(
      { onFollower: missing[0], onMiner: missing[1] },
      { onFollower: 0, onMiner: 0 },
      `results missing after ${DELIVERY_MS / 1000} s`,
    );
    assert.match(
      startLog,
      /mempool journal: 200 commands back in the mempools, 0 dropped \(in a block, expired or refused now\)/,
    );
  });
});
