import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { VerifierGas } from "../../execution/index.ts";
import { type CapToken, Decimal } from "../../pact/values/index.ts";
import { ALLOW_GAS, allowPlugin } from "./allow.ts";
import { verifierFailure } from "./test-support/verifier-failure.ts";

const bridge = (amount: bigint): CapToken => ({
  kind: "cap-token",
  name: "free.bridge.MINT",
  moduleHash: "",
  args: [amount],
});

describe("the allow verifier", () => {
  it("grants the one capability its proof names, for 100 gas", () => {
    const gas = new VerifierGas(1000);
    allowPlugin('{"name": "free.bridge.MINT", "args": [{"int": 5}]}', [bridge(5n)], gas);
    assert.equal(gas.left, 1000 - ALLOW_GAS);
    assert.equal(ALLOW_GAS, 100);
  });

  it("refuses other capabilities, more than one, and proofs that are not a capability", () => {
    const gas = () => new VerifierGas(1000);
    const proof = '{"name": "free.bridge.MINT", "args": [{"int": 5}]}';
    assert.equal(
      verifierFailure(() => allowPlugin(proof, [bridge(6n)], gas())),
      "granted capability is not the one in the proof",
    );
    assert.equal(
      verifierFailure(() => allowPlugin(proof, [bridge(5n), bridge(6n)], gas())),
      "granted capability is not the one in the proof",
    );
    assert.equal(
      verifierFailure(() => allowPlugin(new Decimal(1n, 0), [bridge(5n)], gas())),
      "expected string literal in verifier arguments",
    );
    assert.equal(
      verifierFailure(() => allowPlugin('{"name": "no dots", "args": []}', [bridge(5n)], gas())),
      'argument was not a JSON-encoded capability: {"name": "no dots", "args": []}',
    );
    assert.equal(
      verifierFailure(() => allowPlugin(proof, [bridge(5n)], new VerifierGas(99))),
      "gas exhausted in verifier. attempted to charge 100 with only 99 remaining.",
    );
  });
});
