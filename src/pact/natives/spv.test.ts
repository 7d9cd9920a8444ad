import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testRuntime } from "../test-support/test-runtime.ts";

describe("verify-spv", () => {
  it("fails as Pact's noSPVSupport where the environment verifies no proofs (the REPL)", () => {
    const t = testRuntime();
    assert.equal(
      t.fail(`(verify-spv "TXOUT" {"chain": 1})`).message,
      "SPV verification failure: SPV verification not supported",
    );
  });
  it("takes a proof type and a proof object", () => {
    const t = testRuntime();
    assert.equal(
      t.fail(`(verify-spv "TXOUT" "proof")`).message,
      "Type error: failed to call native function verify-spv with argument(s) of type(s): string, string",
    );
  });
});
