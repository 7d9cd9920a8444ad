import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeBase64Url, encodeBase64Url } from "../crypto/index.ts";
import { JsonNumber, parsePactValue } from "../pact/values/index.ts";
import { DEV_ACCOUNTS } from "./genesis/accounts.ts";
import { continuationVerifier, proofTargetHeight, SpvRefusal, spvVerifier } from "./spv.ts";
import { cap, devCommand, GAS_CAP, manualNode } from "./test-support/dev-node.ts";

const sender01 = DEV_ACCOUNTS[1]!;

/** Data naming sender01's keyset `ks`, for the receiving side of a cross-chain transfer. */
const KS_DATA = `{"ks":{"keys":["${sender01.publicKey}"],"pred":"keys-all"}}`;

describe("SPV on the node", () => {
  it("proves a transfer-crosschain for its target chain and the verifier checks it", () => {
    const node = manualNode();
    try {
      const xchain = devCommand({
        code: `(coin.transfer-crosschain "sender00" "sender01" (read-keyset "ks") "1" 3.0)`,
        data: KS_DATA,
        caps: [
          GAS_CAP,
          cap("coin.TRANSFER_XCHAIN", "sender00", "sender01", new JsonNumber("3.0"), "1"),
        ],
        nonce: "x",
        gasLimit: 3000,
      });
      const plain = devCommand({
        code: `(coin.transfer "sender00" "sender01" 1.0)`,
        data: KS_DATA,
        caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
        nonce: "p",
        gasLimit: 3000,
      });
      node.commands.submit(0, [xchain, plain]);
      const block = node.producer.mine(0);
      assert.equal(block.requestKeys.length, 2);

      // Chain 1 has not reached the height yet (interval mode mines nothing by itself).
      assert.throws(() => node.commands.spvProof(0, xchain.hashBytes, 1), {
        name: "SpvRefusal",
        message: /^SPV target not reachable: target chain not reachable\. Chainweb instance/,
      });
      assert.throws(() => node.commands.spvProof(0, new Uint8Array(32), 1), {
        message: `Transaction hash not found: "${encodeBase64Url(new Uint8Array(32))}"`,
      });
      const before = node.chains[1]!.head;
      const needed = proofTargetHeight(node.version, 0, 1, {
        header: block.header,
        position: 0,
      });
      assert.ok(needed > node.chains[1]!.head.height);
      node.producer.ensureHeight(1, needed);
      const proof = node.commands.spvProof(0, xchain.hashBytes, 1);
      assert.equal(node.commands.spvProof(0, xchain.hashBytes, 1), proof, "the same proof again");

      const verifier = continuationVerifier(node.chainDb, 1, node.chains[1]!.head);
      const exec = verifier.verifyContinuation(proof);
      assert.equal(exec.pactId, xchain.hash);
      assert.equal(exec.step, 0);
      assert.equal(exec.yield?.provenance?.targetChainId, "1");

      // On a branch that does not yet hold the proof's root.
      assert.throws(
        () => continuationVerifier(node.chainDb, 1, before).verifyContinuation(proof),
        /^Error: spv verification failed: the proof leads to .*, not a block of chain 1$/,
      );
      // For another chain.
      assert.throws(
        () => continuationVerifier(node.chainDb, 2, node.chains[2]!.head).verifyContinuation(proof),
        /wrong targget chain/,
      );
      // Tampered: one byte of the proof object changed.
      const json = JSON.parse(Buffer.from(proof, "base64url").toString());
      const object = decodeBase64Url(json.object);
      object[object.length - 1]! ^= 1;
      json.object = encodeBase64Url(object);
      const tampered = Buffer.from(JSON.stringify(json)).toString("base64url");
      assert.throws(() => verifier.verifyContinuation(tampered), /^Error: spv verification failed/);
      assert.throws(
        () => verifier.verifyContinuation("not base64!"),
        /Invalid base64-encoded transaction output proof/,
      );
      assert.throws(
        () => verifier.verifyContinuation(Buffer.from("{").toString("base64url")),
        /Cannot decode transaction output proof/,
      );
      // A command without a defpact proves nothing to continue.
      const plainProof = node.commands.spvProof(0, plain.hashBytes, 1);
      assert.throws(
        () => verifier.verifyContinuation(plainProof),
        /No pact exec found in command result/,
      );
      assert.ok(new SpvRefusal("x") instanceof Error);
    } finally {
      node.close();
    }
  });

  it("lets verify-spv read another chain's command result from a TXOUT proof", async () => {
    const node = manualNode();
    try {
      const source = devCommand({
        code: `{"amount": 3, "to": "bob"}`,
        nonce: "o",
      });
      const failing = devCommand({ code: `(enforce false "no")`, nonce: "f" });
      const notObject = devCommand({ code: `"text"`, nonce: "t" });
      node.commands.submit(0, [source, failing, notObject]);
      const block = node.producer.mine(0);
      const needed = proofTargetHeight(node.version, 0, 1, {
        header: block.header,
        position: 0,
      });
      node.producer.ensureHeight(1, needed);
      const proofOf = (c: typeof source) =>
        Buffer.from(node.commands.spvProof(0, c.hashBytes, 1), "base64url").toString();

      // Through a command on chain 1 (the node's `local`), with the proof as transaction data.
      const verify = devCommand({
        code: `(verify-spv "TXOUT" (read-msg "proof"))`,
        data: `{"proof": ${proofOf(source)}}`,
        chainId: "1",
        nonce: "v",
      });
      const local = JSON.parse(
        await node.commands.local(1, verify, {
          preflight: false,
          rewindDepth: 0n,
        }),
      );
      assert.deepEqual(local.result, {
        status: "success",
        data: { amount: { int: 3 }, to: "bob" },
      });

      const failed = devCommand({
        code: `(verify-spv "TXOUT" (read-msg "proof"))`,
        data: `{"proof": ${proofOf(failing)}}`,
        chainId: "1",
        nonce: "w",
      });
      const refused = JSON.parse(
        await node.commands.local(1, failed, {
          preflight: false,
          rewindDepth: 0n,
        }),
      );
      assert.equal(
        refused.result.error.message,
        "SPV verification failure: verifySPV: Failed command result in tx output proof",
      );

      const verifier = spvVerifier(node.chainDb, 1, node.chains[1]!.head);
      const proofObject = (c: typeof source) => parsePactValue(proofOf(c)) as Map<string, never>;
      assert.throws(
        () => verifier.verifySpv("TXOUT", proofObject(failing)),
        /^Error: verifySPV: Failed command result in tx output proof$/,
      );
      assert.throws(
        () => verifier.verifySpv("TXOUT", proofObject(notObject)),
        /^Error: verifySPV: command result not an object$/,
      );
      assert.throws(
        () =>
          spvVerifier(node.chainDb, 2, node.chains[2]!.head).verifySpv(
            "TXOUT",
            proofObject(source),
          ),
        /^Error: verifySPV: cannot redeem spv proof on wrong target chain$/,
      );
      assert.throws(
        () => verifier.verifySpv("TXOUT", new Map([["chain", 1n]])),
        /^Error: pactObjectOutputProof: Failed to decode proof object$/,
      );
      assert.throws(
        () => verifier.verifySpv("ETH", new Map()),
        /ETH proof type is not yet supported/,
      );
      assert.throws(() => verifier.verifySpv("X", new Map()), /^Error: Unsupported SPV type: X$/);
    } finally {
      node.close();
    }
  });
});
