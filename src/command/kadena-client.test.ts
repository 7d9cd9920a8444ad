/**
 * Commands built and signed by @kadena/client, the client deployed wallets and dapps use: they are
 * hashed with Blake2b-256, carry `pubKey` next to each `sig`, and write gasPrice as `1e-8`.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createSignWithKeypair, Pact } from "@kadena/client";
import { JsonNumber } from "../pact/values/json-text.ts";
import { parseCommand } from "./verify.ts";

// The well-known devnet sender00 key pair.
const PUBLIC = "368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca";
const SECRET = "251a920c403ae8c8f65f59142316af3c82b631fba46ddea92ee8c95035bd2898";

function transfer() {
  return Pact.builder
    .execution('(coin.transfer "sender00" "sender01" 1.0)')
    .addSigner(PUBLIC, (withCap) => [
      withCap("coin.GAS"),
      withCap("coin.TRANSFER", "sender00", "sender01", { decimal: "1.0" }),
    ])
    .addData("ks", { keys: [PUBLIC], pred: "keys-all" })
    .setMeta({
      chainId: "0",
      senderAccount: "sender00",
      gasLimit: 1000,
      ttl: 600,
      creationTime: 1795303514,
    })
    .setNetworkId("development")
    .setNonce("demo-nonce-1")
    .createTransaction();
}

describe("commands from @kadena/client", () => {
  it("verify once signed, with the Blake2b-256 hash", async () => {
    const signed = await createSignWithKeypair({ publicKey: PUBLIC, secretKey: SECRET })(
      transfer(),
    );
    const body = JSON.parse(JSON.stringify(signed));
    assert.equal(body.hash, "KgyOBFjtSXKKmOv4hnWJKTOtQuG4yah9ML-kPAiVfro");
    assert.deepEqual(Object.keys(body.sigs[0]).sort(), ["pubKey", "sig"]);
    const result = parseCommand(body);
    if (!result.ok) assert.fail(result.problems.map((p) => p.message).join("; "));
    assert.equal(result.command.hashAlgorithm, "blake2b");
    const { meta } = result.command.payload;
    assert.deepEqual(meta.kind === "public" && meta.gasPrice, new JsonNumber("1e-8"));
  });

  it("are refused unsigned, and accepted unsigned when signatures are not checked", () => {
    const body = JSON.parse(JSON.stringify(transfer()));
    assert.deepEqual(body.sigs, [null]);
    const strict = parseCommand(body);
    assert.deepEqual(strict.ok ? [] : strict.problems.map((p) => p.kind), ["missing-signature"]);
    const relaxed = parseCommand(body, { verifySignatures: false });
    assert.deepEqual(relaxed.ok && relaxed.command.sigs, [null]);
  });
});
