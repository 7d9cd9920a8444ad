import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CompileUnit } from "../compile/context.ts";
import { openMemoryPactDb, type PactDb } from "../db/index.ts";
import { CAPABILITY_NATIVES } from "../natives/capabilities.ts";
import { DEFPACT_NATIVES } from "../natives/defpacts.ts";
import { CORE_NATIVES } from "../natives/index.ts";
import { PactError } from "../runtime/errors.ts";
import { parseReplProgram } from "../syntax/parser.ts";
import type { PactValue } from "../values/types.ts";
import { type ContinuationPayload, continueDefPact, NO_SPV_SUPPORT } from "./defpact-engine.ts";
import { type DefPactExec, decodeDefPactExec, encodeDefPactExec } from "./defpact-exec.ts";
import { defaultEnv } from "./env.ts";
import { ENV_NATIVES } from "./env-natives.ts";
import { Runtime } from "./runtime.ts";
import { runTopLevel } from "./toplevel.ts";

const natives = new Map(
  [...CORE_NATIVES, ...ENV_NATIVES, ...CAPABILITY_NATIVES, ...DEFPACT_NATIVES].map((n) => [
    n.name,
    n,
  ]),
);

const MODULE = `(module m G (defcap G () true)
  (defpact two (a:integer)
    (step-with-rollback (let ((x (+ a 1))) (yield {"x": x}) x) (- a 1))
    (step (resume {"x" := x} (* x 10)))))
(module x G (defcap G () true)
  (defpact hop (who:string target:string)
    (step (yield {"who": who} target))
    (step (resume {"who" := w} (+ w "!")))))`;

/** A runtime on `db` for a transaction with hash `txHash` on chain `chain`. */
function runtime(db: PactDb, txHash: string, chain = "0"): Runtime {
  const rt = new Runtime(defaultEnv(natives, db));
  rt.env.txHash = txHash;
  rt.env.chainData = { ...rt.env.chainData, chainId: chain };
  return rt;
}

function run(rt: Runtime, source: string): PactValue {
  const unit: CompileUnit = { file: "t.repl", source, natives, names: rt.loaded, coverage: null };
  let last: PactValue = true;
  for (const form of parseReplProgram(source, "t.repl")) {
    const r = runTopLevel(rt, form, unit);
    if (r.kind === "value") last = r.value;
  }
  return last;
}

function chainWithModules(): PactDb {
  const db = openMemoryPactDb();
  run(runtime(db, "setup"), MODULE);
  return db;
}

function failure(body: () => unknown): PactError {
  try {
    body();
  } catch (e) {
    if (e instanceof PactError) return e;
    throw e;
  }
  assert.fail("expected an error");
}

const cont = (pactId: string, step: number, rollback = false): ContinuationPayload => ({
  pactId,
  step,
  rollback,
  proof: null,
});

describe("defpacts across transactions", () => {
  it("runs step 0, stores the state under the transaction hash, and continues it later", () => {
    const db = chainWithModules();
    const rt = runtime(db, "p1");
    assert.equal(run(rt, "(m.two 4)"), 5n);
    const stored =
      '{"executed":null,"pactId":"p1","stepHasRollback":true,"step":0,"yield":{"data":{"x":{"int":5}},"provenance":null},"continuation":{"args":[{"int":4}],"def":"m.two"},"stepCount":2}';
    assert.equal(db.readDefPact("p1"), stored);
    assert.equal(encodeDefPactExec(rt.pactExec!), stored);

    const next = runtime(db, "tx2");
    assert.equal(continueDefPact(next, cont("p1", 1)), 50n);
    assert.equal(db.readDefPact("p1"), "null");
    assert.equal(
      encodeDefPactExec(next.pactExec!),
      '{"executed":null,"pactId":"p1","stepHasRollback":false,"step":1,"yield":null,"continuation":{"args":[{"int":4}],"def":"m.two"},"stepCount":2}',
    );
    const done = failure(() => continueDefPact(runtime(db, "tx3"), cont("p1", 1)));
    assert.equal(done.message, "Requested defpact already completed:  defpact id:p1");
    assert.equal(
      done.onChainMessage,
      "Requested defpact execution already completed for defpact id: p1",
    );
  });

  it("rolls back the current step and finishes the defpact", () => {
    const db = chainWithModules();
    run(runtime(db, "p2"), "(m.two 4)");
    assert.equal(continueDefPact(runtime(db, "tx2"), cont("p2", 0, true)), 3n);
    assert.equal(db.readDefPact("p2"), "null");
  });

  it("rejects a step out of order, a missing defpact and a second defpact in one transaction", () => {
    const db = chainWithModules();
    const rt = runtime(db, "p3");
    run(rt, "(m.two 1)");
    assert.equal(
      failure(() => run(rt, "(m.two 2)")).message,
      "defpact execution context already in the environment:  defpact id: p3",
    );
    assert.equal(
      failure(() => continueDefPact(runtime(db, "t"), cont("p3", 0))).message,
      "Step mismatch in DefPactStep and defpact execution environment: defpact id: p3 step: 0 DefPactExec step: 1",
    );
    assert.equal(
      failure(() => continueDefPact(runtime(db, "t"), cont("p3", 1, true))).message,
      "Rollback mismatch in DefPactStep and defpact execution environment: defpact id: p3 step rollback: True DefPactExec rollback: True",
    );
    assert.equal(
      failure(() => continueDefPact(runtime(db, "t"), cont("p3", 2))).message,
      "DefPactStep does not match defpact properties: requested: 2 step count:2",
    );
    assert.equal(
      failure(() => continueDefPact(runtime(db, "t"), cont("nope", 1))).message,
      "No previous defpact execution found for defpact id:  nope",
    );
    // On chain, an id longer than 20 characters is cut.
    assert.equal(
      failure(() => continueDefPact(runtime(db, "t"), cont("no-such-defpact-id-at-all", 1)))
        .onChainMessage,
      "No previous defpact execution found for defpact id:  no-such-defpact-id-a...",
    );
  });

  it("sets the transaction data from the payload", () => {
    const db = chainWithModules();
    run(runtime(db, "p4"), "(m.two 1)");
    const rt = runtime(db, "t");
    continueDefPact(rt, { ...cont("p4", 1), data: new Map([["k", "v"]]) });
    assert.deepEqual(rt.env.data, new Map([["k", "v"]]));
  });

  it("refuses to write defpact state where writes are not allowed", () => {
    const db = chainWithModules();
    const e = failure(() => run(runtime(db, "p5"), "(try 0 (m.two 1))"));
    assert.equal(
      e.message,
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
    );
    assert.equal(db.readDefPact("p5"), null);
  });
});

describe("cross-chain defpacts", () => {
  /** Yields from chain 0 to chain 1; returns the state a proof of that transaction proves. */
  function yieldOnChain0(): { source: Runtime; proven: DefPactExec } {
    const source = runtime(chainWithModules(), "xp", "0");
    assert.deepEqual(run(source, `(x.hop "ann" "1")`), new Map([["who", "ann"]]));
    return { source, proven: decodeDefPactExec(encodeDefPactExec(source.pactExec!)) };
  }

  it("records the provenance and emits pact.X_YIELD", () => {
    const { source } = yieldOnChain0();
    const hash = source.loaded.module({ namespace: null, name: "x" })?.info.hash;
    assert.deepEqual(source.pactExec?.yield?.provenance, { targetChainId: "1", moduleHash: hash });
    assert.equal(source.pactExec?.yield?.source, "0");
    assert.deepEqual(source.events, [
      {
        name: "X_YIELD",
        params: ["1", "x.hop", ["ann", "1"]],
        module: { namespace: null, name: "pact" },
        moduleHash: hash,
      },
    ]);
  });

  it("resumes on the target chain from the proven state and emits pact.X_RESUME", () => {
    const { proven } = yieldOnChain0();
    const target = runtime(chainWithModules(), "xr", "1");
    const proofs: string[] = [];
    const verifier = {
      verifyContinuation(proof: string) {
        proofs.push(proof);
        return proven;
      },
    };
    assert.equal(continueDefPact(target, { ...cont("xp", 1), proof: "PROOF" }, verifier), "ann!");
    assert.deepEqual(proofs, ["PROOF"]);
    assert.equal(target.events.length, 1);
    assert.equal(target.events[0]?.name, "X_RESUME");
    assert.deepEqual(target.events[0]?.params, ["0", "x.hop", ["ann", "1"]]);
    assert.equal(target.env.db.readDefPact("xp"), "null");
  });

  it("refuses a resumption on another chain than the target", () => {
    const { proven } = yieldOnChain0();
    const elsewhere = runtime(chainWithModules(), "xr", "2");
    const e = failure(() =>
      continueDefPact(
        elsewhere,
        { ...cont("xp", 1), proof: "P" },
        { verifyContinuation: () => proven },
      ),
    );
    const h = proven.yield?.provenance?.moduleHash;
    assert.equal(
      e.message,
      `Yield provenance does not match, received (Provenance 1 ${h}), expected [(Provenance 2 ${h})]`,
    );
  });

  it("reports a proof it cannot verify as a continuation error", () => {
    const target = runtime(chainWithModules(), "xr", "1");
    assert.equal(
      failure(() => continueDefPact(target, { ...cont("xp", 1), proof: "P" })).message,
      `Continuation Error: ${NO_SPV_SUPPORT}`,
    );
    const bad = {
      verifyContinuation(): DefPactExec {
        throw new Error("bad proof");
      },
    };
    assert.equal(
      failure(() => continueDefPact(target, { ...cont("xp", 1), proof: "P" }, bad)).message,
      "Continuation Error: bad proof",
    );
  });
});
