import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { equalBytes } from "../../chain/bytes.ts";
import type { ParsedCommand } from "../../command/index.ts";
import type { BraidNode } from "../node.ts";
import { devCommand, devTransfer, manualNode } from "../test-support/dev-node.ts";

const MODULE = `(namespace 'free)
(module ledger GOV
  (defcap GOV () true)
  (defschema entry note:string amount:decimal)
  (deftable entries:{entry})
  (defun add (key:string note:string amount:decimal)
    (insert entries key { "note": note, "amount": amount }))
  (defun total () (fold (+) 0.0 (map (at 'amount) (select entries (constantly true))))))
(create-table entries)`;

/** The commands of three blocks: a deploy with its table, rows and a transfer, a failure, reads. */
function blocks(): ParsedCommand[][] {
  const transfer = devTransfer("2.5", "transfer");
  return [
    [devCommand({ code: MODULE, nonce: "deploy", gasLimit: 100_000 })],
    [
      devCommand({ code: '(free.ledger.add "a" "first" 1.5)', nonce: "a" }),
      transfer,
      devCommand({ code: '(free.ledger.add "a" "again" 9.0)', nonce: "dup" }),
      devCommand({ code: '(free.ledger.add "b" "second" 2.25)', nonce: "b" }),
    ],
    [
      devCommand({
        code: "(free.ledger.total)",
        nonce: "total",
        gasLimit: 60_000,
      }),
    ],
  ];
}

/**
 * Mines each block of {@link blocks} on chain 0, made on its state or beside it; their commands'
 * outputs (what the payload holds of them: the coinbase names its parent, whose time differs).
 */
async function mineAll(
  node: BraidNode,
  commandsOf: readonly ParsedCommand[][],
  beside: boolean,
): Promise<Uint8Array[][]> {
  const outputs: Uint8Array[][] = [];
  for (const commands of commandsOf) {
    node.commands.submit(0, commands);
    const block = beside ? await node.producer.mineBeside(0) : node.producer.mine(0);
    assert.ok(block !== null);
    assert.equal(block.requestKeys.length, commands.length);
    outputs.push(block.payload.transactions.map((t) => t.output));
  }
  return outputs;
}

describe("a new block made on a scratch state, its writes applied", () => {
  it("stores what making it on the chain's state stores: outputs, and the state after", async () => {
    const direct = manualNode();
    const beside = manualNode();
    try {
      const commands = blocks();
      const a = await mineAll(direct, commands, false);
      const b = await mineAll(beside, commands, true);
      assert.equal(a.length, 3);
      for (const [i, outputs] of a.entries()) {
        assert.equal(outputs.length, b[i]!.length);
        for (const [n, output] of outputs.entries()) {
          assert.ok(equalBytes(output, b[i]![n]!), `block ${i + 1}, transaction ${n}`);
        }
      }
      for (const table of ["free.ledger_entries", "coin_coin-table"]) {
        const rows = (node: BraidNode) => {
          const state = node.chains[0]!.state.db;
          return state.asOf(state.latestBlock()!.height).rows(table);
        };
        assert.deepEqual(rows(beside), rows(direct), table);
      }
      const total = devCommand({
        code: "(free.ledger.total)",
        nonce: "read",
        gasLimit: 60_000,
      });
      const read = async (node: BraidNode) =>
        JSON.parse(
          await node.commands.local(0, total, {
            preflight: false,
            rewindDepth: 0n,
          }),
        ).result;
      assert.deepEqual(await read(beside), { status: "success", data: 3.75 });
      assert.deepEqual(await read(beside), await read(direct));
      assert.equal(beside.chains[0]!.state.db.txId, direct.chains[0]!.state.db.txId);
    } finally {
      await direct.close();
      await beside.close();
    }
  });
});
