import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ReplSession } from "../repl/session.ts";

/** Runs `source` in a fresh REPL session; returns each form's result text. */
function results(source: string): string[] {
  const session = new ReplSession({ line: () => {}, readFile: () => "" });
  return session.runSource("gas.repl", source).map((r) => r.text);
}

describe("REPL gas natives", () => {
  it("start with the free model, which counts nothing", () => {
    assert.deepEqual(results("(env-gasmodel) (+ 1 2) (env-gas) (env-milligas)"), [
      `"Current gas model is 'freeGasModel': free gas model"`,
      "3",
      "0",
      "0",
    ]);
  });

  it("count once the table model has a limit", () => {
    assert.deepEqual(
      results('(env-gasmodel "table") (env-gaslimit 10) (+ 1 2) (env-milligas) (env-gas)'),
      [`"Set gas model to table-based cost model"`, `"Set gas limit to 10"`, "3", "130", "1"],
    );
  });

  it("name the table model and keep counting across model changes", () => {
    assert.deepEqual(results('(env-gaslimit 10) (env-gasmodel "table") (env-gasmodel)'), [
      `"Set gas limit to 10"`,
      `"Set gas model to table-based cost model"`,
      `"Current gas model is 'table': table-based cost model"`,
    ]);
  });

  it("set the gas used in gas or milligas", () => {
    assert.deepEqual(
      results(
        "(env-gas 5) (env-gas) (env-milligas 1500) (env-gas) (env-set-milligas 7) (env-milligas)",
      ),
      [`"Set gas to 5"`, "5", `"Set milligas to1500"`, "2", `"Set milligas to7"`, "7"],
    );
  });

  it("log the charges between two env-gaslog calls, with their total", () => {
    assert.deepEqual(
      results('(env-gasmodel "table") (env-gaslimit 10) (env-gaslog) (+ 1 2) (env-gaslog)').slice(
        2,
      ),
      [`["Enabled gas log"]`, "3", `["TOTAL: 130mG" "+: 100mG" "GIntegerOpCost PrimOpAdd: 30mG"]`],
    );
  });

  it("accept only the table model", () => {
    assert.throws(() => results('(env-gasmodel "fixed")'), /env-gasmodel/);
  });
});
