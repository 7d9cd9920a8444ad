/**
 * Hostile peers against a real `braid node` process, each party in a network namespace of its
 * own (issue #33):
 *
 * - **A flood of cuts from made-up origins.** 60 `PUT /cut` name addresses where a trap only
 *   counts connections (`support/connection-trap.ts`): each is answered 401 Unknown peer, the
 *   peer table stays empty, the trap is never called, and a genuine node that announces itself
 *   afterwards is learnt.
 * - **A peer that answers without end** (`support/lying-peer-server.ts`, a `header/branch` or a
 *   `payload/batch` answer that never ends): what the node reads (its process's `rchar`) stays
 *   within the bytes a peer may send in an interval, the node penalises the peer once and asks it
 *   nothing more, and `/info`, asked every 10 ms (support/info-probe.ts), is answered throughout:
 *   while any one answer waits, the node's thread runs at most {@link SLOWEST_ANSWER_MS} of CPU
 *   time (the wall clock also counts the node's waits for a core, which the peer writing as fast
 *   as it is read takes on the same machine; it is printed). Before the node paced what it reads
 *   per turn of its event loop (src/p2p/read-pacing.ts), it read the twenty endless answers up to
 *   40 MiB a turn, and its thread ran 320–690 ms while one `/info` waited.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import {
  MAX_PEER_BYTES_PER_INTERVAL,
  MAX_PEER_REQUESTS_IN_FLIGHT,
  PEER_BYTES_INTERVAL_MS,
} from "../../src/p2p/peer-client.ts";
import { SLOWEST_ANSWER_MS } from "../support/answer-probe.ts";
import { infoWaitsSummary, infoWaitsUntil } from "./support/info-probe.ts";
import { ENDLESS } from "./support/lying-peer.ts";
import { startEndlessPeer } from "./support/lying-peer-process.ts";
import { DEFAULT_NODE_PORT, type NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

const BASE = "/chainweb/0.0/development";
const TRAP = fileURLToPath(new URL("./support/connection-trap.ts", import.meta.url));
/** The made-up origins of the flood: this many ports of the trap's host. */
const FLOOD = 60;
const TRAP_FIRST_PORT = 2000;
/** How long the node is watched after the flood (it polls its peers every second). */
const AFTER_FLOOD_MS = 3_000;
/** How long a genuine node may take to be learnt once it announces itself. */
const LEARNT_WITHIN_MS = 20_000;
/** How long the endless answers are watched, from the first one asked for. */
const ATTACK_MS = 15_000;
/** How long the node is watched once the peer is penalised. */
const QUIET_MS = 5_000;
/**
 * What the node may read past the bound on each connection it cuts off: what the system had read
 * from the socket before the node's code saw it (measured: up to ~2 MiB a connection).
 */
const CUT_OFF_READS_BYTES = 2 * 1024 * 1024;
/** What the node reads besides its peer's answers while it is watched (the `/info` requests, …). */
const OTHER_READS_BYTES = 4 * 1024 * 1024;

async function until(what: string, withinMs: number, done: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + withinMs;
  while (!(await done())) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${withinMs} ms`);
    await sleep(100);
  }
}

/** The node's peer table, as `GET /cut/peer` lists it (`ADDRESS:PORT` each). */
async function peersOf(node: NetNode): Promise<string[]> {
  const response = await fetch(`${node.url}${BASE}/cut/peer`);
  assert.equal(response.status, 200);
  const { items } = (await response.json()) as {
    items: { address: { hostname: string; port: number } }[];
  };
  return items.map(({ address }) => `${address.hostname}:${address.port}`);
}

describe("a flood of cuts from made-up origins", {
  skip: networkTestSkip(),
  timeout: 120_000,
}, () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create(["victim", "trap", "genuine"]);
  });
  after(() => net?.close());

  it(`${FLOOD} PUT /cut: each refused, no origin called nor kept, and a genuine peer is still learnt`, async () => {
    const victim = await net.startNode("victim", { args: ["--mining", "none"] });
    const trapAddress = net.host("trap").address;
    const trap = net.startScript("trap", TRAP, [
      trapAddress,
      String(TRAP_FIRST_PORT),
      String(FLOOD),
    ]);
    await trap.waitForOutput(/^\{"ready":true\}$/, 30_000);
    const cut = (await (await fetch(`${victim.url}${BASE}/cut`)).json()) as object;

    const answers = new Set<string>();
    for (let i = 0; i < FLOOD; i++) {
      const origin = { id: null, address: { hostname: trapAddress, port: TRAP_FIRST_PORT + i } };
      const response = await fetch(`${victim.url}${BASE}/cut`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ ...cut, origin }),
      });
      answers.add(`${response.status} ${await response.text()}`);
    }
    await sleep(AFTER_FLOOD_MS);
    const called = trap
      .output()
      .split("\n")
      .filter((line) => line.startsWith('{"connection"'));
    assert.deepEqual(await peersOf(victim), [], "the peer table after the flood");
    assert.deepEqual(called, [], "connections to the made-up origins");
    assert.deepEqual([...answers], ["401 Unknown peer"]);

    // A node that is a peer, announcing itself (PUT /cut/peer), is verified and learnt.
    const genuine = await net.startNode("genuine", {
      args: ["--mining", "none", "--peer", victim.peer],
    });
    await until("the genuine node learnt", LEARNT_WITHIN_MS, async () =>
      (await peersOf(victim)).includes(genuine.peer),
    );
    assert.deepEqual(await peersOf(victim), [genuine.peer]);
    assert.ok(victim.output().includes(`peer ${genuine.peer} joined`), victim.output());
  });
});

/**
 * The bytes the node's process has read so far (`rchar` of /proc/PID/io: every read(), its
 * sockets' included): what its peer got it to take in, whatever the sockets' buffers held.
 */
function bytesRead(node: NetNode): number {
  const io = readFileSync(`/proc/${node.process.child.pid}/io`, "utf8");
  return Number(/^rchar: (\d+)$/m.exec(io)![1]);
}

describe("a peer that answers without end", { skip: networkTestSkip(), timeout: 240_000 }, () => {
  let net: TestNetwork;
  before(async () => {
    net = await TestNetwork.create(ENDLESS.flatMap((_, i) => [`endless${i}`, `victim${i}`]));
  });
  after(() => net?.close());

  const endpoints = { "endless-branch": "header/branch", "endless-payloads": "payload/batch" };
  const bound =
    MAX_PEER_BYTES_PER_INTERVAL +
    MAX_PEER_REQUESTS_IN_FLIGHT * CUT_OFF_READS_BYTES +
    OTHER_READS_BYTES;

  for (const [i, mode] of ENDLESS.entries()) {
    const endpoint = endpoints[mode];
    it(`an endless ${endpoint} answer: at most ${bound} bytes read, the peer penalised once and asked nothing more, the node running at most ${SLOWEST_ANSWER_MS} ms while an /info answer waits`, async () => {
      const victimUrl = `http://${net.host(`victim${i}`).address}:${DEFAULT_NODE_PORT}`;
      const peer = await startEndlessPeer(net, `endless${i}`, mode, victimUrl);
      let victim: NetNode | undefined;
      try {
        victim = await net.startNode(`victim${i}`, {
          args: ["--mining", "none", "--peer", peer.key],
        });
        assert.equal(victim.url, victimUrl);
        const readBefore = bytesRead(victim);
        await until(`the first ${endpoint} request`, 20_000, () =>
          peer.requests().some((r) => r.endsWith(endpoint)),
        );
        const waits = await infoWaitsUntil(victim, sleep(ATTACK_MS));
        const read = bytesRead(victim) - readBefore;
        console.log(
          `${mode}: the node read ${read} bytes in ${ATTACK_MS} ms (the peer wrote ${peer.sentBytes()}); ` +
            infoWaitsSummary(waits),
        );
        assert.ok(read <= bound, `the node read ${read} bytes, more than ${bound}`);
        const most = Math.max(...waits.serverCpuMs);
        assert.ok(
          most <= SLOWEST_ANSWER_MS,
          `the node ran ${most.toFixed(0)} ms while an /info answer waited`,
        );

        const reason = `it sent more than ${MAX_PEER_BYTES_PER_INTERVAL} bytes within ${PEER_BYTES_INTERVAL_MS} ms`;
        const penalty = `peer ${peer.key}: ${reason}; not asked for a while`;
        const lines = victim.output().split("\n");
        assert.equal(lines.filter((line) => line === penalty).length, 1, victim.output());
        console.log(lines.filter((line) => line.startsWith(`peer ${peer.key}`)).join("\n"));
        const info = (await (await fetch(`${victim.url}/info`)).json()) as {
          braidPeers: { address: string; problem: string | null }[];
        };
        assert.deepEqual(info.braidPeers, [
          { ...info.braidPeers[0]!, address: peer.key, problem: reason },
        ]);
        // Penalised: nothing more is asked of it; /info as fast as without an attack.
        const asked = peer.requests().length;
        const quiet = await infoWaitsUntil(victim, sleep(QUIET_MS));
        console.log(`${mode}: afterwards ${infoWaitsSummary(quiet)}`);
        assert.deepEqual(peer.requests().slice(asked), []);
      } finally {
        await victim?.stop();
        await peer.process.kill();
      }
    });
  }
});
