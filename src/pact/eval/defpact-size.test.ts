import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DefPactExec } from "./defpact-exec.ts";
import { defPactExecSize } from "./defpact-size.ts";

const PLAIN: DefPactExec = {
  stepCount: 2,
  yield: null,
  step: 0,
  pactId: "pid",
  continuation: { def: "m.p", args: ["x", 1n] },
  stepHasRollback: true,
  nested: new Map(),
};

describe("defPactExecSize", () => {
  it("adds up the record's fields as Pact's SizeOfV0 does", () => {
    // tag 1, step count 5, no yield 2, step 5, id 3+4, continuation 41, nested 5, rollback 1
    assert.equal(defPactExecSize(PLAIN), 67);
  });

  it("counts a cross-chain yield with its provenance and source chain", () => {
    const exec: DefPactExec = {
      ...PLAIN,
      yield: {
        data: new Map([["a", 1n]]),
        provenance: { targetChainId: "1", moduleHash: "A".repeat(43) },
        source: "0",
      },
    };
    // the yield: 2 + tag 1 + data 23 + provenance 2+42 + source 2+5
    assert.equal(defPactExecSize(exec), 67 - 2 + 77);
  });

  it("counts nested defpacts by id", () => {
    const { stepHasRollback: _, ...nested } = PLAIN;
    const exec: DefPactExec = { ...PLAIN, nested: new Map([["n", nested]]) };
    // each entry: tag 1, the id 1+4, the nested state (the parent's size less its rollback flag)
    assert.equal(defPactExecSize(exec), 67 + 1 + 5 + 66);
  });
});
