/**
 * Partition and heal (issue #25's second Show item): two `pow` nodes, each in its own network
 * namespace, mine on either side of an `nft` partition; each side mines commands of its own and
 * one command sent to both. After healing, both converge on the heavier cut within a bounded
 * time (measured); the losing side's commands are mined again on the winning branch; every
 * result either side reported is answered by both afterwards, and the balances show each
 * transfer executed exactly once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ICommand, ICommandResult } from "@kadena/client";
import { clientFor, SENDER00, SENDER01, signWith, transferCommand } from "../e2e/support/kadena.ts";
import { converged, cutOf, eventually, senderBalances } from "./support/converge.ts";
import type { NetNode } from "./support/net-node.ts";
import { networkTestSkip, TestNetwork } from "./support/netns.ts";

/** How long the two sides mine apart. */
const APART_MS = 4_000;
/** The bound on convergence after the partition heals (cut polling runs every second). */
const CONVERGE_MS = 30_000;
/** How long a result may take to be mined (pow at the development difficulty). */
const MINED_MS = 30_000;

async function result(node: NetNode, command: ICommand): Promise<ICommandResult> {
  return clientFor(node.url, "pact").pollOne(
    { requestKey: command.hash, chainId: "0", networkId: "development" },
    { timeout: MINED_MS, interval: 100 },
  );
}

describe("partition and heal", { skip: networkTestSkip(), timeout: 180_000 }, () => {
  let net: TestNetwork;
  let a: NetNode;
  let b: NetNode;
  const sent: Record<string, ICommand> = {};
  const reported: Record<string, ICommandResult> = {};

  before(async () => {
    net = await TestNetwork.create(["a", "b"]);
    a = await net.startNode("a", { args: ["--mining", "pow"] });
    b = await net.startNode("b", { args: ["--mining", "pow", "--peer", a.peer] });
    await converged([a, b], CONVERGE_MS);
  });
  after(async () => {
    if (process.env.DEBUG_NET)
      for (const n of [a, b])
        console.log(
          n
            .output()
            .split("\n")
            .filter((l) => !/^ {2}|^$|pow:/.test(l))
            .slice(-40)
            .join("\n"),
        );
    await net?.close();
  });

  it("each side mines its own commands, and one sent to both, while partitioned", async () => {
    await net.partition(["a"], ["b"]);
    const transfer = (from: typeof SENDER00, to: string, nonce: number) =>
      signWith(
        from,
        transferCommand(from, to, "1.0", { creationTime: Math.floor(Date.now() / 1000) - nonce }),
      );
    sent.onA = await transfer(SENDER00, SENDER01.name, 1);
    sent.onB = await transfer(SENDER01, SENDER00.name, 2);
    sent.onBoth = await transfer(SENDER00, SENDER01.name, 3);
    await clientFor(a.url, "pact").submit([sent.onA, sent.onBoth]);
    await clientFor(b.url, "pact").submit([sent.onB, sent.onBoth]);
    reported.onA = await result(a, sent.onA);
    reported.onB = await result(b, sent.onB);
    reported.onBothA = await result(a, sent.onBoth);
    reported.onBothB = await result(b, sent.onBoth);
    for (const r of Object.values(reported)) assert.equal(r.result.status, "success");
    assert.notEqual(
      reported.onBothA!.metaData!.blockHash,
      reported.onBothB!.metaData!.blockHash,
      "the command sent to both is in a block of each side",
    );
    await new Promise((resolve) => setTimeout(resolve, APART_MS));
    const [cutA, cutB] = await Promise.all([cutOf(a), cutOf(b)]);
    assert.notEqual(cutA.hashes["0"]!.hash, cutB.hashes["0"]!.hash, "the sides forked");
  });

  it("after healing both converge on the heavier cut within the bound", async () => {
    await net.heal();
    const { millis } = await converged([a, b], CONVERGE_MS);
    console.log(`# converged ${millis.toFixed(0)} ms after the partition healed`);
  });

  it("every command is on the winning branch once, its result answered by both nodes", async () => {
    // Mining goes on, and the losing side's commands are mined again by both nodes at once, so
    // the tips may fork for a moment: the answers are compared once the nodes agree.
    for (const command of [sent.onA!, sent.onB!, sent.onBoth!]) {
      await eventually(
        `both nodes answer one result for ${command.hash}`,
        async () => {
          const [onA, onB] = await Promise.all([result(a, command), result(b, command)]);
          assert.equal(onA.result.status, "success");
          return JSON.stringify(onA) === JSON.stringify(onB) ? onA : undefined;
        },
        CONVERGE_MS,
        200,
      );
    }
    const balances = await eventually(
      "both nodes' balances agree",
      async () => {
        const both = await Promise.all([a, b].map(senderBalances));
        return JSON.stringify(both[0]) === JSON.stringify(both[1]) ? both[0] : undefined;
      },
      CONVERGE_MS,
      200,
    );
    // sender00 sent 1.0 twice and received 1.0 once, paying gas twice (231 at 1e-8); sender01
    // the other way round. A transfer executed twice would move another 1.0.
    assert.deepEqual(balances, {
      status: "success",
      data: [{ decimal: "99999998.999995380000" }, { decimal: "110000000.999997690000" }],
    });
  });
});
