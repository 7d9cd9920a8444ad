/**
 * `local` on the node: failures carry `logs` (the hash of no writes, as the spec's required
 * string), a preflight whose gas cannot be bought is refused, and `rewindDepth` goes back to
 * genesis and no further.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { encodeHex, keyPairFromSeed } from "../../crypto/index.ts";
import type { BraidNode } from "../node.ts";
import { devCommand, manualNode } from "../test-support/dev-node.ts";
import { LocalRefusal } from "./local.ts";

/** `logs` of a command that wrote nothing: the unpadded base64url hash of an empty tx-log list. */
const NO_WRITES = "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g";

describe("local on the node", () => {
  let node: BraidNode;
  before(() => {
    node = manualNode();
    for (let i = 0; i < 3; i++) node.producer.mineAll();
  });
  after(() => node.close());

  it("gives a failed command's logs as the hash of no writes, plain and under preflight", async () => {
    const failing = devCommand({
      code: '(enforce false "no")',
      nonce: "local-failure",
    });
    const plain = JSON.parse(
      await node.commands.local(0, failing, {
        preflight: false,
        rewindDepth: 0n,
      }),
    );
    assert.equal(plain.result.status, "failure");
    assert.equal(plain.logs, NO_WRITES);
    const simulated = JSON.parse(
      await node.commands.local(0, failing, {
        preflight: true,
        rewindDepth: 0n,
      }),
    );
    assert.equal(simulated.preflightResult.result.status, "failure");
    assert.equal(typeof simulated.preflightResult.logs, "string");
  });

  it("refuses a preflight whose gas cannot be bought, with the reason (the spec's 400)", async () => {
    const pair = keyPairFromSeed(new Uint8Array(32).fill(7));
    const publicKey = encodeHex(pair.publicKey);
    const penniless = devCommand({
      code: "(+ 1 2)",
      nonce: "no-gas",
      signer: {
        name: `k:${publicKey}`,
        publicKey,
        secretKey: encodeHex(pair.secretKey),
      },
    });
    await assert.rejects(
      () => node.commands.local(0, penniless, { preflight: true, rewindDepth: 0n }),
      (e) =>
        e instanceof LocalRefusal &&
        e.message ===
          `"${penniless.hash}" Failed to buy gas: No value found in table coin_coin-table for key: k:${publicKey}`,
    );
  });

  it("rewinds to genesis and refuses a rewindDepth past it, naming the chain's height", async () => {
    const height = node.chains[0]!.head.height;
    const blockHeight = async (rewindDepth: bigint) => {
      const read = devCommand({
        code: "(+ 1 2)",
        nonce: `rewind-${rewindDepth}`,
      });
      return JSON.parse(await node.commands.local(0, read, { preflight: false, rewindDepth }))
        .metaData.blockHeight;
    };
    assert.equal(await blockHeight(0n), height + 1);
    assert.equal(await blockHeight(BigInt(height)), 1);
    const refusal = async (rewindDepth: bigint) => {
      try {
        await node.commands.local(0, devCommand({ code: "1", nonce: "past" }), {
          preflight: false,
          rewindDepth,
        });
      } catch (e) {
        assert.ok(e instanceof LocalRefusal);
        return e.message;
      }
      assert.fail("expected a LocalRefusal");
    };
    assert.equal(
      await refusal(BigInt(height + 1)),
      `rewindDepth ${height + 1} is past genesis: chain 0 is at height ${height}`,
    );
    assert.equal(
      await refusal(123456789012345678901234567890n),
      `rewindDepth 123456789012345678901234567890 is past genesis: chain 0 is at height ${height}`,
    );
  });
});
