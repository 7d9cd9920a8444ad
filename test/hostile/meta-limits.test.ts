/**
 * Issue 24, item 8: `meta.gasLimit: -1` in `local` answered `"gas": -1`. The numeric fields of a
 * command's public metadata (gasLimit, gasPrice, ttl, creationTime) out of their range, through
 * `local`, preflight and `send` of `braid node`: each answer's exact status and text. Where
 * Chainweb has words for a refusal they are its words; it has none for a gas limit below 1 in
 * plain `local` (Pact 5 reads a negative limit as 0 and fails the command).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { signCommand } from "../../src/command/index.ts";
import { decodeHex } from "../../src/crypto/index.ts";
import { DEV_ACCOUNTS } from "../../src/node/genesis/accounts.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { hinted, withoutNodeTime } from "../support/time-refusal.ts";

const SENDER00 = DEV_ACCOUNTS[0]!;

let nonces = 0;

/** `(+ 1 2)` from sender00 (who signs for `coin.GAS`), with `meta` over sane metadata. */
function command(meta: Record<string, unknown>) {
  const cmd = JSON.stringify({
    payload: { exec: { code: "(+ 1 2)", data: null } },
    meta: {
      creationTime: Math.floor(Date.now() / 1000) - 10,
      ttl: 3600,
      gasLimit: 1000,
      chainId: "0",
      gasPrice: 1e-8,
      sender: "sender00",
      ...meta,
    },
    signers: [{ pubKey: SENDER00.publicKey, clist: [{ name: "coin.GAS", args: [] }] }],
    networkId: "development",
    nonce: `meta limits ${nonces++}`,
  });
  const key = {
    publicKey: decodeHex(SENDER00.publicKey),
    secretKey: decodeHex(SENDER00.secretKey),
  };
  return signCommand(cmd, [key], "blake2b");
}

describe("numeric metadata out of range", { timeout: 60_000 }, () => {
  let node: NodeProcess;
  before(async () => {
    node = await startNode();
  });
  after(async () => {
    await node?.stop();
  });

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${node.api(0)}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text };
  };
  const refused = (text: string) => ({ status: 400, text });
  /** `send`'s refusal of its one command. */
  const sendRefusal = (hash: string, reason: string) =>
    refused(
      `One or more transactions were invalid: Transaction "${hash}" at index 0 failed with: ${reason}`,
    );

  test("a gas limit below 1 is refused by local, preflight and send", async () => {
    for (const gasLimit of [-1, 0]) {
      const body = command({ gasLimit });
      assert.deepEqual(
        await post("local", body),
        refused(
          `Validation failed: Transaction gas limit must be a positive integer, got ${gasLimit}`,
        ),
      );
      const tooBig = `"${body.hash}" Failed to purchas gas: tx too big for gas limit`;
      assert.deepEqual(await post("local?preflight=true", body), refused(tooBig));
      assert.deepEqual(
        await post("send", { cmds: [body] }),
        sendRefusal(body.hash, `Attempt to buy gas failed with: ${tooBig}`),
      );
    }
  });

  test("a fractional gas limit is refused by local, preflight and send", async () => {
    const body = command({ gasLimit: 1.5 });
    const reason = "cmd.meta.gasLimit must be an integer, got 1.5";
    assert.deepEqual(await post("local", body), refused(`Validation failed: ${reason}`));
    assert.deepEqual(
      await post("local?preflight=true", body),
      refused(`Validation failed: ${reason}`),
    );
    assert.deepEqual(await post("send", { cmds: [body] }), sendRefusal(body.hash, reason));
  });

  test("a gas price below 0 is refused by preflight in coin's words, and by send", async () => {
    const body = command({ gasPrice: -1 });
    assert.deepEqual(
      await post("local?preflight=true", body),
      refused(`"${body.hash}" Failed to buy gas: gas supply must be a positive quantity`),
    );
    assert.deepEqual(
      await post("send", { cmds: [body] }),
      sendRefusal(body.hash, "Transaction gas price (-1) is below minimum gas price (0.00000001)"),
    );
  });

  test("a time to live or creation time below 1 is refused by preflight and send", async () => {
    for (const [meta, sendReason] of [
      [{ ttl: -1 }, "Transaction time-to-live must be from 1 to 172800 seconds, got -1"],
      [{ ttl: 0 }, "Transaction time-to-live must be from 1 to 172800 seconds, got 0"],
      [{ creationTime: -1 }, "Transaction time-to-live is expired"],
    ] as const) {
      const body = command(meta);
      const { creationTime, ttl } = JSON.parse(body.cmd).meta;
      // Both refusals go on to name the command's and the node's times (time-refusals.test.ts).
      const answered = async (path: string, sent: unknown) => {
        const { status, text } = await post(path, sent);
        return { status, text: withoutNodeTime(text) };
      };
      const preflight = 'Metadata validation failed: ["Tx time outside of valid range"]';
      assert.deepEqual(
        await answered("local?preflight=true", body),
        refused(hinted(preflight, creationTime, ttl, "NOW")),
      );
      const sendText = sendRefusal(body.hash, sendReason).text;
      assert.deepEqual(
        await answered("send", { cmds: [body] }),
        refused(ttl > 0 ? hinted(sendText, creationTime, ttl, "NOW") : sendText),
      );
    }
  });
});
