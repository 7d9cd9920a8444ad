import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultEnv } from "../eval/env.ts";
import { Runtime } from "../eval/runtime.ts";
import { runSource, sourceFailure } from "../test-support/test-runtime.ts";
import type { PactValue } from "../values/types.ts";
import { REPL_DEFPACT_NATIVES } from "./defpacts.ts";
import { ON_CHAIN_NATIVE_LIST } from "./on-chain.ts";

/** The on-chain natives and the REPL's `continue-pact` and `pact-state`. */
const natives = new Map([...ON_CHAIN_NATIVE_LIST, ...REPL_DEFPACT_NATIVES].map((n) => [n.name, n]));
const run = (rt: Runtime, source: string) => runSource(rt, source, natives);
const failure = (rt: Runtime, source: string) => sourceFailure(rt, source, natives);

const MODULE = `(module m G
  (defcap G () true)
  (defpact ids ()
    (step (pact-id))
    (step (continue (pact-id))))
  (defpact relay (s:string)
    (step (yield {"s": (+ s "-0")}))
    (step (resume {"s" := v} (+ v "-1"))))
  (defpact no-yield () (step 0) (step (resume {"s" := v} v)))
  (defpact rollback-xchain ()
    (step-with-rollback (yield {"a": 1} "1") "undo")
    (step 1))
  (defun outside () (yield {"a": 1}))
  (defun outside-resume () (resume {"a" := a} a)))`;

function session(): Runtime {
  const rt = new Runtime(defaultEnv(natives));
  rt.env.txHash = "tx-1";
  run(rt, MODULE);
  return rt;
}

describe("pact-id, continue, yield and resume", () => {
  it("gives the defpact's id inside its steps only", () => {
    const rt = session();
    assert.equal(run(rt, "(m.ids)"), "tx-1");
    assert.equal(run(rt, "(continue-pact 1)"), "tx-1");
    rt.pactExec = null;
    assert.equal(
      failure(rt, "(pact-id)").message,
      "Attempted to fetch defpact data, but currently not within defpact execution",
    );
  });

  it("passes yielded data to the next step", () => {
    const rt = session();
    assert.deepEqual(run(rt, `(m.relay "a")`), new Map([["s", "a-0"]]));
    assert.equal(run(rt, "(continue-pact 1)"), "a-0-1");
  });

  it("fails to yield or resume outside a defpact, and to resume without a yield", () => {
    const rt = session();
    assert.equal(
      failure(rt, "(m.outside)").message,
      "Try to yield a value outside a running defpact execution",
    );
    assert.equal(
      failure(rt, "(m.outside-resume)").message,
      "No active defpact execution in the environment",
    );
    run(rt, "(m.no-yield)");
    assert.equal(
      failure(rt, "(continue-pact 1)").message,
      "No yield value found from previous pact step. Current step: 1 defpact Id: tx-1",
    );
  });

  it("refuses a cross-chain yield in a step with a rollback", () => {
    assert.equal(
      failure(session(), "(m.rollback-xchain)").message,
      "Program encountered an unhandled raised error: Cross-chain yield not allowed in step with rollback",
    );
  });
});

describe("continue-pact and pact-state", () => {
  it("shows the running defpact's id, step and yield, and clears it", () => {
    const rt = session();
    run(rt, `(m.relay "b")`);
    assert.deepEqual(
      run(rt, "(pact-state)"),
      new Map<string, PactValue>([
        ["pactId", "tx-1"],
        ["yield", new Map([["s", "b-0"]])],
        ["step", 0n],
      ]),
    );
    run(rt, "(pact-state true)");
    const e = failure(rt, "(pact-state)");
    assert.equal(e.message, "pact-state: no pact exec in context");
    assert.equal(e.kind, "user");
    assert.equal(
      failure(rt, "(continue-pact 1)").message,
      "No defpact id or execution environment supplied",
    );
    assert.equal(run(rt, `(continue-pact 1 false "tx-1")`), "b-0-1");
    assert.deepEqual(
      run(rt, "(pact-state)"),
      new Map<string, PactValue>([
        ["pactId", "tx-1"],
        ["yield", false],
        ["step", 1n],
      ]),
    );
  });

  it("resumes with a yield given in place of the stored one", () => {
    const rt = session();
    run(rt, `(m.relay "c")`);
    assert.equal(run(rt, `(continue-pact 1 false "tx-1" {"s": "given"})`), "given-1");
  });

  it("rejects arguments of the wrong types", () => {
    assert.equal(
      failure(session(), `(continue-pact "1")`).message,
      "Type error: failed to call native function continue-pact with argument(s) of type(s): string",
    );
  });
});
