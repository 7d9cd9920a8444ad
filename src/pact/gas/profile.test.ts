import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createDefaultRuntime, runSource } from "../evaluate.ts";
import { TABLE_GAS_MODEL } from "./meter.ts";
import { type GasProfileFrame, GasProfiler } from "./profile.ts";

const MODULE = `
(module m G
  (defcap G () true)
  (defcap ONCE (n:integer) @event (enforce (> n 0) "positive"))
  (defun double:integer (x:integer) (* x 2))
  (defun twice:integer (x:integer) (with-capability (ONCE x) (+ (double x) (double x))))
  (defun all:[integer] (xs:[integer]) (map (double) xs)))
`;

/** Runs the module, then `code`, counting gas with the table model; the profile and the gas. */
function profiled(code: string, on: boolean): { profile: GasProfileFrame | null; used: number } {
  const profiler = new GasProfiler("top-level", "code");
  const rt = createDefaultRuntime(undefined, undefined, on ? { profiler } : {});
  runSource(rt, MODULE, { file: "m.pact", repl: true });
  const meter = rt.env.gas as import("./meter.ts").PactGasMeter;
  meter.model = TABLE_GAS_MODEL;
  meter.setLimit(1_000_000_000);
  runSource(rt, code, { file: "tx.pact" });
  return { profile: on ? profiler.profile() : null, used: meter.used() };
}

/** `kind name calls self total` of each frame, indented by depth. */
function outline(frame: GasProfileFrame, depth = 0): string[] {
  const line = `${"  ".repeat(depth)}${frame.kind} ${frame.name} ${frame.calls} ${frame.selfMilligas} ${frame.totalMilligas}`;
  return [line, ...frame.children.flatMap((c) => outline(c, depth + 1))];
}

describe("gas profiler", () => {
  it("puts each charge in its frame: functions, a capability's acquisition, natives", () => {
    const { profile, used } = profiled("(m.twice 3)", true);
    assert.equal(profile!.totalMilligas, used);
    assert.deepEqual(outline(profile!), [
      "top-level code 1 75 946",
      "  function m.twice 1 225 871",
      "    capability m.ONCE 1 0 264",
      "      native > 1 264 264",
      "    function m.double 2 0 252",
      "      native * 2 252 252",
      "    native + 1 130 130",
    ]);
  });

  it("puts the functions a native applies below it", () => {
    const { profile } = profiled("(m.all [1 2 3])", true);
    assert.deepEqual(outline(profile!).slice(0, 4), [
      "top-level code 1 525 1753",
      "  function m.all 1 0 1228",
      "    native map 1 850 1228",
      "      function m.double 3 0 378",
    ]);
  });

  it("charges the same gas whether it profiles or not", () => {
    for (const code of ["(m.twice 3)", "(m.all [1 2 3])", '(format "{}" [(m.double 4)])']) {
      assert.equal(profiled(code, true).used, profiled(code, false).used, code);
    }
  });

  it("keeps frames paired when a frame fails", () => {
    const profiler = new GasProfiler("top-level", "code");
    profiler.enter("function", "f");
    profiler.record(5);
    profiler.exit();
    profiler.add("charge", "after", 7);
    assert.deepEqual(outline(profiler.profile()), [
      "top-level code 1 0 12",
      "  function f 1 5 5",
      "  charge after 1 7 7",
    ]);
  });
});
