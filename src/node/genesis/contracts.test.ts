/**
 * The genesis contracts' files are our own: no third-party copyright text. (Their behaviour,
 * run through the Pact CLI in a child process, and their reading by Kadena's code generator are
 * tested in `test/e2e/genesis-contracts.test.ts`.)
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CONTRACT_FILES, CONTRACTS_DIR, contractSource } from "./contracts.ts";

describe("genesis contracts", () => {
  it("carry no third-party copyright text", () => {
    for (const file of CONTRACT_FILES) {
      assert.doesNotMatch(contractSource(file), /copyright|kadena/i, file);
    }
    const script = readFileSync(join(CONTRACTS_DIR, "coin.test.repl"), "utf8");
    assert.doesNotMatch(script, /copyright/i);
  });
});
