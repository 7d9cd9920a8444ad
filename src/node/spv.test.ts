import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeCommandPayload, parseCommand, signCommand } from "../command/index.ts";
import { decodeBase64Url, decodeHex, encodeBase64Url } from "../crypto/index.ts";
import { JsonNumber, parseJson } from "../pact/values/index.ts";
import { DEV_ACCOUNTS } from "./genesis/accounts.ts";
import { makeLogger } from "./logger.ts";
import { BraidNode } from "./node.ts";
import { resolveNodeOptions } from "./options.ts";
import { continuationVerifier, proofTargetHeight, SpvRefusal } from "./spv.ts";

const sender00 = DEV_ACCOUNTS[0]!;
const sender01 = DEV_ACCOUNTS[1]!;

function command(code: string, clist: { name: string; args: unknown[] }[], nonce: string) {
  const payload = {
    payload: {
      kind: "exec" as const,
      code,
      data: parseJson(`{"ks":{"keys":["${sender01.publicKey}"],"pred":"keys-all"}}`),
    },
    meta: {
      kind: "public" as const,
      creationTime: Math.floor(Date.now() / 1000) - 10,
      ttl: 3600,
      gasLimit: 3000,
      chainId: "0",
      gasPrice: new JsonNumber("0.00000001"),
      sender: "sender00",
    },
    signers: [
      {
        pubKey: sender00.publicKey,
        scheme: null,
        addr: null,
        clist: clist.map((c) => ({
          name: c.name,
          args: c.args.map((a) => (typeof a === "number" ? new JsonNumber(a.toFixed(1)) : a)),
        })),
      },
    ],
    verifiers: null,
    networkId: "development",
    nonce,
  };
  const keys = [
    { publicKey: decodeHex(sender00.publicKey), secretKey: decodeHex(sender00.secretKey) },
  ];
  const parsed = parseCommand(signCommand(encodeCommandPayload(payload as never), keys, "blake2b"));
  assert.ok(parsed.ok);
  return parsed.command;
}

const GAS = { name: "coin.GAS", args: [] };

describe("SPV on the node", () => {
  it("proves a transfer-crosschain for its target chain and the verifier checks it", () => {
    const node = BraidNode.open(
      resolveNodeOptions({ inMemory: true, mining: "interval", miningInterval: 86_400 }, {}),
      makeLogger("error"),
    );
    try {
      const xchain = command(
        `(coin.transfer-crosschain "sender00" "sender01" (read-keyset "ks") "1" 3.0)`,
        [GAS, { name: "coin.TRANSFER_XCHAIN", args: ["sender00", "sender01", 3, "1"] }],
        "x",
      );
      const plain = command(
        `(coin.transfer "sender00" "sender01" 1.0)`,
        [GAS, { name: "coin.TRANSFER", args: ["sender00", "sender01", 1] }],
        "p",
      );
      node.submit(0, [xchain, plain]);
      const block = node.producer.mine(0);
      assert.equal(block.requestKeys.length, 2);

      // Chain 1 has not reached the height yet (interval mode mines nothing by itself).
      assert.throws(() => node.spvProof(0, xchain.hashBytes, 1), {
        name: "SpvRefusal",
        message: /^SPV target not reachable: target chain not reachable\. Chainweb instance/,
      });
      assert.throws(() => node.spvProof(0, new Uint8Array(32), 1), {
        message: `Transaction hash not found: "${encodeBase64Url(new Uint8Array(32))}"`,
      });
      const before = node.chains[1]!.head;
      const needed = proofTargetHeight(node.version, 0, 1, { header: block.header, position: 0 });
      assert.ok(needed > node.chains[1]!.head.height);
      node.producer.ensureHeight(1, needed);
      const proof = node.spvProof(0, xchain.hashBytes, 1);
      assert.equal(node.spvProof(0, xchain.hashBytes, 1), proof, "the same proof again");

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
      const plainProof = node.spvProof(0, plain.hashBytes, 1);
      assert.throws(
        () => verifier.verifyContinuation(plainProof),
        /No pact exec found in command result/,
      );
      assert.ok(new SpvRefusal("x") instanceof Error);
    } finally {
      node.close();
    }
  });
});
