/**
 * The node's log at `info` (issue 36): a block holding transactions is one line saying this node
 * mined it, then a line per transaction with its request key, status and gas, a failure's location
 * and message included; the empty blocks that keep the chains braided stay at `debug`; and in
 * `pow` mode every block the node solved has its line, empty ones included.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { endpoint, postJson, SENDER00, signWith, transferCommand } from "./support/kadena.ts";

const nodes: NodeProcess[] = [];
after(async () => {
  await Promise.all(nodes.map((n) => n.stop()));
});

/** The line of a block of chain 0 holding two transactions, mined by the node. */
const BLOCK_LINE = /^chain {2}0 {2}height +(\d+) {2}txs {3}2 {2}[\w-]{12} {2}mined$/;

describe("the node's log", { timeout: 60_000 }, () => {
  it("logs each transaction of a mined block: status, gas, and a failure's location and message", async () => {
    const node = await startNode();
    nodes.push(node);
    const now = Math.floor(Date.now() / 1000) - 5;
    const paid = await signWith(
      SENDER00,
      transferCommand(SENDER00, "sender01", "1.0", { creationTime: now }),
    );
    // Transfers to an account that does not exist: coin.transfer refuses it.
    const refused = await signWith(
      SENDER00,
      transferCommand(SENDER00, "nobody-at-all", "1.0", { creationTime: now }),
    );
    const sent = await postJson(endpoint(node.url, "send"), { cmds: [paid, refused] });
    assert.equal(sent.status, 200, sent.text);
    const blockLine = await node.waitForOutput(BLOCK_LINE, 20_000);
    const where = `chain  0  height ${BLOCK_LINE.exec(blockLine)![1]!.padStart(6)}`;
    const lines = node.output().split("\n");
    const block = lines.indexOf(blockLine);
    assert.equal(lines[block + 1], `${where}  tx  ${paid.hash}  success  gas     231`);
    // The location is the one Pact gives: the function, with its module's hash, and its line.
    assert.equal(
      lines[block + 2],
      `${where}  tx  ${refused.hash}  failure  gas    2500  at coin.transfer.{TQJjUiTOQZ_z22OQu5RlWnuV3WcQpOyB1SoPtY4TEi0}:246  "No value found in table coin_coin-table for key: nobody-at-all"`,
    );
    // The empty blocks that level the other chains are not at info.
    assert.deepEqual(
      lines.filter((line) => /^chain +\d+ +height .* txs +0 /.test(line)),
      [],
    );
  });

  it("logs every block it solved in pow mode", async () => {
    const node = await startNode({ args: ["--mining", "pow"] });
    nodes.push(node);
    const line = await node.waitForOutput(
      /^chain +\d+ {2}height +\d+ {2}txs {3}0 {2}[\w-]{12} {2}mined$/,
      20_000,
    );
    assert.ok(line.length > 0);
  });
});
