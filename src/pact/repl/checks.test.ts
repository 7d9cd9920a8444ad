import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import { ReplSession } from "./session.ts";

function session() {
  const lines: string[] = [];
  const s = new ReplSession({ line: (t) => lines.push(t), readFile: () => "" });
  return { s, lines };
}

describe("REPL checks", () => {
  it("reports every binder that shadows a native, then fails on the first", () => {
    const { s, lines } = session();
    assert.throws(
      () => s.runSource("x.repl", "(let ((length 1) (take 2)) length)"),
      (e) =>
        e instanceof PactError && e.message === "Variable length shadows native with the same name",
    );
    assert.deepEqual(lines, [
      "Variable length shadows native of the same name in top level expression",
      "Variable take shadows native of the same name in top level expression",
    ]);
  });

  it("names the definition a shadowing parameter belongs to", () => {
    const { s, lines } = session();
    assert.throws(() => s.runSource("x.repl", "(module m G (defcap G () true) (defun f (at) at))"));
    assert.deepEqual(lines, [
      "Variable at shadows native of the same name in definition defun m.f at argument position 0",
    ]);
  });

  it("refuses REPL natives in module code until they are enabled", () => {
    const { s } = session();
    const module = "(module m G (defcap G () true) (defun f () (env-data {})))";
    assert.throws(
      () => s.runSource("x.repl", module),
      (e) => e instanceof PactError && /repl native disallowed in module code/.test(e.message),
    );
    s.runSource("x.repl", `(env-enable-repl-natives true) ${module} (m.f)`);
  });
});
