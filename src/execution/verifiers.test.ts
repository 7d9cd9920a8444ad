import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CommandPayload, Verifier } from "../command/index.ts";
import { PactGasMeter, TABLE_GAS_MODEL } from "../pact/index.ts";
import { JsonNumber } from "../pact/values/index.ts";
import { runVerifierPlugins, VerifierError, type VerifierPlugin } from "./verifiers.ts";

function payload(verifiers: Verifier[], gasLimit = 1000): CommandPayload {
  return {
    payload: { kind: "exec", code: "1", data: null },
    meta: {
      kind: "public",
      creationTime: 0,
      ttl: 600,
      gasLimit,
      chainId: "0",
      gasPrice: new JsonNumber("0.00000001"),
      sender: "alice",
    },
    signers: [],
    verifiers,
    networkId: null,
    nonce: "n",
  };
}

const cap = (n: number) => ({ name: "m.CAP", args: [new JsonNumber(String(n))] });

describe("running a command's verifiers", () => {
  it("runs each verifier by name in name order with its deduplicated capabilities", () => {
    const seen: string[] = [];
    const record =
      (name: string): VerifierPlugin =>
      (proof, caps, gas) => {
        seen.push(`${name}:${String(proof)}:${caps.length}`);
        gas.charge(3);
      };
    const plugins = new Map([
      ["b", record("b")],
      ["a", record("a")],
    ]);
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 1_000_000);
    runVerifierPlugins(
      plugins,
      payload([
        { name: "b", proof: "one", clist: [cap(1), cap(1)] },
        { name: "a", proof: "two", clist: [cap(1), cap(2)] },
        { name: "b", proof: "three", clist: [] },
      ]),
      meter,
    );
    assert.deepEqual(seen, ["a:two:2", "b:one:1", "b:three:0"]);
    assert.equal(meter.used(), 9000);
  });

  it("charges only what the plugins spent beyond the rounding of the gas left", () => {
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 1_000_000);
    meter.charge(400); // 999.6 gas left, offered to the plugins as 1000
    const spend: VerifierPlugin = (_p, _c, gas) => gas.charge(2);
    runVerifierPlugins(
      new Map([["v", spend]]),
      payload([{ name: "v", proof: null, clist: [] }]),
      meter,
    );
    assert.equal(meter.used(), 400 + 1600);
  });

  it("fails on an unknown verifier, and reports a plugin's crash as Chainweb does", () => {
    const meter = new PactGasMeter(TABLE_GAS_MODEL, 1_000_000);
    const crash: VerifierPlugin = () => {
      throw new RangeError("boom");
    };
    const message = (verifiers: Verifier[]) => {
      try {
        runVerifierPlugins(new Map([["crash", crash]]), payload(verifiers), meter);
      } catch (e) {
        assert.ok(e instanceof VerifierError);
        return e.message;
      }
      return "passed";
    };
    assert.equal(
      message([{ name: "nope", proof: null, clist: [] }]),
      "verifier does not exist: nope",
    );
    assert.equal(
      message([{ name: "crash", proof: null, clist: [] }]),
      "Uncaught exception in verifier",
    );
    assert.equal(message([]), "passed");
  });
});
