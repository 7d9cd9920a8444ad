import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CompileUnit } from "../compile/context.ts";
import { DefPactDef } from "../compile/ir.ts";
import { CORE_NATIVES } from "../natives/index.ts";
import { parseReplProgram } from "../syntax/parser.ts";
import { CallSite } from "./callables.ts";
import { runPactStep, stepCount, stepHasRollback } from "./defpact-steps.ts";
import { defaultEnv } from "./env.ts";
import { Runtime } from "./runtime.ts";
import { runTopLevel } from "./toplevel.ts";

const natives = new Map(CORE_NATIVES.map((n) => [n.name, n]));

describe("runPactStep", () => {
  const rt = new Runtime(defaultEnv(natives));
  const source = `(module m G (defcap G () true)
    (defpact p (a:integer)
      (step-with-rollback (+ a 1) (- a 1))
      (step (* a 10))))`;
  const unit: CompileUnit = { file: "p.repl", source, natives, names: rt.loaded, coverage: null };
  for (const form of parseReplProgram(source, "p.repl")) runTopLevel(rt, form, unit);
  const def = rt.loaded.module({ namespace: null, name: "m" })?.defs.get("p");
  const site = new CallSite({ line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 }, "p.repl");

  it("runs each step and rollback with the defpact's arguments", () => {
    assert.ok(def instanceof DefPactDef);
    assert.equal(stepCount(def), 2);
    assert.equal(stepHasRollback(def, 0), true);
    assert.equal(stepHasRollback(def, 1), false);
    assert.equal(runPactStep(rt, def, [5n], 0, false, site), 6n);
    assert.equal(runPactStep(rt, def, [5n], 0, true, site), 4n);
    assert.equal(runPactStep(rt, def, [5n], 1, false, site), 50n);
  });

  it("fails on a missing step or rollback", () => {
    assert.ok(def instanceof DefPactDef);
    assert.throws(
      () => runPactStep(rt, def, [5n], 1, true, site),
      /Step has no rollback: m\.p step 1/,
    );
    assert.throws(() => runPactStep(rt, def, [5n], 2, false, site), /requested: 2 step count:2/);
  });
});
