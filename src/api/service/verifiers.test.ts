/**
 * Verifiers end to end on an in-process node over HTTP: a command whose `allow` verifier grants a
 * capability passes `enforce-verifier` in that capability's defcap (`send`, a block, `poll`); a
 * wrong proof and an unknown verifier fail the command with Chainweb's words, charging its whole
 * gas limit.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { ParsedCommand, Verifier } from "../../command/index.ts";
import type { BraidNode } from "../../node/node.ts";
import { devCommand, manualNode } from "../../node/test-support/dev-node.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import type { RunningNodeServer } from "./server.ts";
import { postJson, serveForTest, wireCommand } from "./test-support/test-server.ts";

const MODULE = `(namespace "free")
(module vbridge G
  (defcap G () true)
  (defcap MINT (amount:decimal) (enforce-verifier "allow"))
  (defun mint (amount:decimal) (with-capability (MINT amount) amount)))`;

const mintCap = (amount: string) => ({ name: "free.vbridge.MINT", args: [new JsonNumber(amount)] });
const allow = (proofAmount: string, grantedAmount: string): Verifier => ({
  name: "allow",
  proof: JSON.stringify({ name: "free.vbridge.MINT", args: [Number(proofAmount)] }),
  clist: [mintCap(grantedAmount)],
});

describe("verifiers through send and poll", () => {
  let node: BraidNode;
  let server: RunningNodeServer;
  let pact: string;
  const faults: unknown[] = [];

  const post = (path: string, body: unknown) => postJson(`${pact}/${path}`, body);

  /** Sends `commands`, makes a block on chain 0, and polls their results. */
  async function sendAndPoll(commands: ParsedCommand[]) {
    const sent = await post("send", { cmds: commands.map(wireCommand) });
    assert.deepEqual(
      sent.requestKeys,
      commands.map((c) => c.hash),
    );
    node.producer.mine(0);
    const polled = await post("poll", { requestKeys: sent.requestKeys });
    return commands.map((c) => polled[c.hash]);
  }

  before(async () => {
    node = manualNode();
    server = await serveForTest(node, faults);
    pact = `${server.url}/chainweb/0.0/development/chain/0/pact/api/v1`;
    const [deployed] = await sendAndPoll([
      devCommand({ code: MODULE, nonce: "deploy", gasLimit: 100_000 }),
    ]);
    assert.equal(deployed.result.status, "success", JSON.stringify(deployed.result));
  });
  after(async () => {
    await server.close();
    node.close();
    assert.deepEqual(faults, []);
  });

  it("passes enforce-verifier with a proof that grants the capability", async () => {
    const [withVerifier, without] = await sendAndPoll([
      devCommand({
        code: "(free.vbridge.mint 5.0)",
        nonce: "mint",
        verifiers: [allow("5.0", "5.0")],
      }),
      devCommand({ code: "(free.vbridge.mint 5.0)", nonce: "mint-plain" }),
    ]);
    assert.deepEqual(withVerifier.result, { status: "success", data: 5 });
    assert.equal(without.result.status, "failure");
    assert.equal(
      without.result.error.message,
      "Verifier allow failed with the message: not in transaction",
    );
    // Its size, the gas purchase, the code and the allow check's 100 gas.
    assert.equal(withVerifier.gas, 185);
    assert.equal(without.gas, 2000);
  });

  it("fails a command whose proof names another capability, or whose verifier is unknown", async () => {
    const [wrong, unknown] = await sendAndPoll([
      devCommand({
        code: "(free.vbridge.mint 5.0)",
        nonce: "wrong",
        verifiers: [allow("6.0", "5.0")],
      }),
      devCommand({
        code: "(free.vbridge.mint 5.0)",
        nonce: "unknown",
        verifiers: [{ name: "nope", proof: null, clist: [] }],
      }),
    ]);
    assert.deepEqual(wrong.result, {
      status: "failure",
      error: {
        callStack: [],
        type: "EvalError",
        message: "granted capability is not the one in the proof",
        info: "<toplevel>:0",
      },
    });
    assert.equal(wrong.gas, 2000);
    assert.equal(unknown.result.error.message, "verifier does not exist: nope");
    assert.equal(unknown.gas, 2000);
  });
});
