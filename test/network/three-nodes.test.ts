/**
 * Three nodes, one miner (issue #25's first Show item), each in its own network namespace: B
 * mines on demand, A and C only follow (A names B, C names only A and learns of B through A). A
 * `@kadena/client` transfer sent to A reaches B's mempool, is mined by B, and its result is
 * answered by `listen` and `poll` on C; B logs its block as mined, A and C as from a peer, each
 * with the transfer's line; afterwards every node's cut, block pages and balances agree.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ICommand } from "@kadena/client";
import { clientFor, SENDER00, SENDER01, signWith, transferCommand } from "../e2e/support/kadena.ts";
import { converged, senderBalances } from "./support/converge.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

/** How long the network may take to agree after the block (polling runs every second). */
const AGREE_MS = 10_000;

describe("three nodes, one miner", { skip: networkTestSkip(), timeout: 90_000 }, () => {
  let net: TestNetwork;
  let a: NetNode;
  let b: NetNode;
  let c: NetNode;
  let transfer: ICommand;

  before(async () => {
    net = await TestNetwork.create(["a", "b", "c"]);
    b = await net.startNode("b", { args: ["--mining", "on-demand"] });
    a = await net.startNode("a", { args: ["--mining", "none", "--peer", b.peer] });
    c = await net.startNode("c", { args: ["--mining", "none", "--peer", a.peer] });
  });
  after(() => net?.close());

  it("C learns of B through A", async () => {
    await c.waitForLog(new RegExp(`peer ${b.peer.replaceAll(".", "\\.")} joined`), {
      timeoutMs: 15_000,
    });
  });

  it("a transfer sent to A is mined by B and answered by listen and poll on C", async () => {
    transfer = await signWith(SENDER00, transferCommand(SENDER00, SENDER01.name, "1.0"));
    const sent = await clientFor(a.url, "pact").submitOne(transfer);
    assert.deepEqual(sent, { requestKey: transfer.hash, chainId: "0", networkId: "development" });
    const started = performance.now();
    const listened = await clientFor(c.url, "pact").listen(sent);
    const millis = performance.now() - started;
    assert.deepEqual(listened.result, { status: "success", data: "Write succeeded" });
    const polled = await clientFor(c.url, "contract").pollOne(sent, { timeout: 5_000 });
    assert.deepEqual(polled, listened);
    const onB = await clientFor(b.url, "pact").pollOne(sent, { timeout: 5_000 });
    assert.deepEqual(onB, listened, "B mined it: the same result there");
    console.log(`# send on A → result on C: ${millis.toFixed(0)} ms`);
  });

  it("B logs the transfer's block as mined, A and C as from a peer, each with its line", async () => {
    for (const [node, origin] of [
      [b, "mined"],
      [a, "from peer"],
      [c, "from peer"],
    ] as const) {
      const block = await node.waitForLog(
        new RegExp(`^chain {2}0 {2}height +\\d+ {2}txs {3}1 {2}[\\w-]{12} {2}${origin}$`),
      );
      const lines = node.output().split("\n");
      const where = block.slice(0, "chain  0  height      1".length);
      assert.equal(
        lines[lines.indexOf(block) + 1],
        `${where}  tx  ${transfer.hash}  success  gas     231`,
      );
    }
  });

  it("every node's cut, block pages and balances agree afterwards", async () => {
    const { cut } = await converged([a, b, c], AGREE_MS);
    assert.ok(cut.hashes["0"]!.height >= 1);
    const pages = await Promise.all(
      [a, b, c].map(async (node) => {
        const response = await fetch(
          `${node.url}/chainweb/0.0/development/chain/0/hash?minheight=0`,
        );
        return response.text();
      }),
    );
    assert.equal(pages[1], pages[0]);
    assert.equal(pages[2], pages[0]);
    const balances = await Promise.all([a, b, c].map(senderBalances));
    assert.deepEqual(balances[0], {
      status: "success",
      data: [{ decimal: "99999998.999997690000" }, 110000001],
    });
    assert.deepEqual(balances[1], balances[0]);
    assert.deepEqual(balances[2], balances[0]);
  });

  it("the block reached every node once: no node logged a refusal", async () => {
    for (const node of [a, b, c]) {
      assert.doesNotMatch(node.output(), /is refused|not asked for a while|internal error/);
    }
  });
});
