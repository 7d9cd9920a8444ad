/**
 * Refusals of a command's times point to the fix (issue 36): `send` and preflight keep Chainweb's
 * words first, then name the command's creation time and time to live, the node's time in
 * seconds and as a date, and how to set `creationTime` — before and after `braid dev time`.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { dated, hinted } from "../support/time-refusal.ts";
import { endpoint, postJson, SENDER00, signWith, transferCommand } from "./support/kadena.ts";

/** The node's time a refusal names (seconds), after checking it is shown with its date. */
function nodeTimeIn(text: string): number {
  const match = /the node's time is (\d+) \(([^)]+)\)\. /.exec(text);
  assert.ok(match !== null, text);
  const seconds = Number(match[1]);
  assert.equal(`${seconds} (${match[2]})`, dated(seconds));
  return seconds;
}

let node: NodeProcess;
before(async () => {
  node = await startNode();
});
after(async () => {
  await node?.stop();
});

/** A signed transfer from sender00 created at `creationTime`, living 600 s. */
const transfer = (creationTime: number) =>
  signWith(SENDER00, transferCommand(SENDER00, "sender01", "1.0", { creationTime, ttl: 600 }));

describe("time refusals", { timeout: 60_000 }, () => {
  it("send: a creation time of 0 names both times and the way out", async () => {
    const command = await transfer(0);
    const before = Math.floor(Date.now() / 1000);
    const answer = await postJson(endpoint(node.url, "send"), { cmds: [command] });
    const after = Math.ceil(Date.now() / 1000);
    assert.equal(answer.status, 400);
    const nodeTime = nodeTimeIn(answer.text);
    assert.ok(nodeTime >= before - 1 && nodeTime <= after, `${nodeTime} not ${before}..${after}`);
    assert.equal(
      answer.text,
      `One or more transactions were invalid: Transaction "${command.hash}" at index 0 failed with: Transaction time-to-live is expired: the command's creationTime is 0 (1970-01-01T00:00:00Z) and its ttl 600 s, the node's time is ${dated(nodeTime)}. Set meta.creationTime to the node's time: the time now (Math.floor(Date.now() / 1000)), or, once \`braid dev time\` has moved the node's clock, the time it printed`,
    );
  });

  it("after `braid dev time +1d`: send and preflight name the node's time", async () => {
    const moved = await postJson(`${node.url}/braid/dev/time`, { seconds: 86_400 });
    assert.equal(moved.status, 200, moved.text);
    const created = Math.floor(Date.now() / 1000) - 5;
    const command = await transfer(created);
    const sent = await postJson(endpoint(node.url, "send"), { cmds: [command] });
    assert.equal(sent.status, 400);
    const nodeTime = nodeTimeIn(sent.text);
    assert.ok(Math.abs(nodeTime - (created + 86_400)) <= 10, sent.text);
    assert.equal(
      sent.text,
      hinted(
        `One or more transactions were invalid: Transaction "${command.hash}" at index 0 failed with: Transaction time-to-live is expired`,
        created,
        600,
        dated(nodeTime),
      ),
    );
    // A block made at the new time: a command created by the system clock is before it.
    const mined = await postJson(`${node.url}/braid/dev/mine`, { blocks: 1, chains: [0] });
    assert.equal(mined.status, 200, mined.text);
    const preflight = await postJson(
      endpoint(node.url, "local", { query: "preflight=true" }),
      command,
    );
    assert.equal(preflight.status, 400);
    assert.equal(
      preflight.text,
      hinted(
        'Metadata validation failed: ["Tx time outside of valid range"]',
        created,
        600,
        dated(nodeTimeIn(preflight.text)),
      ),
    );
  });
});
