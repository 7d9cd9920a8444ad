import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { defaultEnv } from "../eval/env.ts";
import { ENV_NATIVES } from "../eval/env-natives.ts";
import { Runtime } from "../eval/runtime.ts";
import { runTopLevel } from "../eval/toplevel.ts";
import { CORE_NATIVES } from "../natives/index.ts";
import { PactError } from "../runtime/errors.ts";
import { parseReplProgram } from "../syntax/parser.ts";
import type { CompileUnit } from "./context.ts";
import { DefunDef, type LoadedModule } from "./ir.ts";

const natives = new Map([...CORE_NATIVES, ...ENV_NATIVES].map((n) => [n.name, n]));

/** Runs every form of `source` in a fresh runtime; returns the results' texts. */
function run(source: string, rt = new Runtime(defaultEnv(natives))): string[] {
  const unit: CompileUnit = { file: "t.repl", source, natives, names: rt.loaded, coverage: null };
  return parseReplProgram(source, "t.repl").map((form) => runTopLevel(rt, form, unit).text);
}

/** The error `source` fails with. */
function failure(source: string): PactError {
  try {
    run(source);
  } catch (e) {
    if (e instanceof PactError) return e;
    throw e;
  }
  assert.fail("expected an error");
}

const GOV = "(defcap G () true)";

describe("module compilation", () => {
  it("rejects a function that calls itself", () => {
    const e = failure(`(module m G ${GOV} (defun f (x) (f x)))`);
    assert.equal(e.kind, "desugar");
    assert.equal(e.message, "Recursive cycle detected in Module m in the following functions: [f]");
    assert.equal(e.span?.col, 31);
  });

  it("rejects mutual recursion, naming the cycle in source order", () => {
    const e = failure(`(module m G ${GOV} (defun a () (b)) (defun ok () 1) (defun b () (m.a)))`);
    assert.equal(
      e.message,
      "Recursive cycle detected in Module m in the following functions: [a, b]",
    );
  });

  it("does not count a local or a native that shadows a member as a reference", () => {
    const texts = run(
      `(module m G ${GOV} (defun f (f) f) (defun length (x) 1) (defun g (x) (length x)))
       (m.f 3) (m.g [1 2 3])`,
    );
    assert.deepEqual(texts.slice(1), ["3", "3"]);
  });

  it("compiles members after the members they use, whatever the source order", () => {
    const rt = new Runtime(defaultEnv(natives));
    run(`(module m G ${GOV} (defun a () (b)) (defconst K (a)) (defun b () 1))`, rt);
    const m = rt.loaded.module({ namespace: null, name: "m" }) as LoadedModule;
    assert.deepEqual([...m.defs.keys()], ["G", "b", "a", "K"]);
  });

  it("rejects a duplicate definition", () => {
    const e = failure(`(module m G ${GOV} (defun f () 1) (defun f () 2))`);
    assert.equal(e.message, "Duplicate definition: m.f");
  });

  it("rejects a governance capability that takes arguments or is not a capability", () => {
    assert.equal(
      failure("(module m G (defcap G (x) true))").message,
      "Invalid governance. Must be a 0-argument defcap or a keyset. Found m.G",
    );
    assert.equal(
      failure("(module m G (defun G () true))").message,
      "Invalid governance. Must be a 0-argument defcap or a keyset. Found m.G",
    );
  });

  it("rejects with-capability inside a defcap", () => {
    const e = failure(`(module m G ${GOV} (defcap C () (with-capability (G) true)))`);
    assert.equal(e.message, "with-capability form not allowed within defcap");
  });

  it("rejects a schema used as a value", () => {
    const e = failure(`(module m G ${GOV} (defschema s a:integer) (defun f () s))`);
    assert.equal(e.message, "Invalid definition in term variable position: s");
  });

  it("reports an unknown name as Pact does (a module lookup of that name)", () => {
    const e = failure("(+ 1 nope)");
    assert.equal(e.message, "Cannot find module:  nope");
    assert.deepEqual([e.span?.line, e.span?.col, e.span?.endCol], [0, 5, 9]);
    assert.equal(e.file, "t.repl");
  });

  it("reports a missing member of a known module", () => {
    const e = failure(`(module m G ${GOV}) (m.nope)`);
    assert.equal(e.message, "Module m has no such member: nope");
  });

  it("checks that a module implements its interfaces", () => {
    const e = failure(
      `(interface i (defun f:integer (x:integer))) (module m G ${GOV} (implements i) (defun f:string (x:integer) (+ "a" "b")))`,
    );
    assert.equal(
      e.message,
      "Module m does not correctly implement the function f from Interface i",
    );
    const missing = failure(
      `(interface i (defun f:integer (x:integer))) (module m G ${GOV} (implements i))`,
    );
    assert.equal(
      missing.message,
      "Interface member not implemented, module m does not implement interface i member: f",
    );
  });

  it("rejects imports of names a module does not have", () => {
    const e = failure(`(module m G ${GOV} (defun f () 1)) (use m [f g])`);
    assert.equal(
      e.message,
      "Invalid imports, module or interface m does not implement the following members: [g]",
    );
  });

  it("resolves each name once: a module keeps the version of a dependency it was defined with", () => {
    const rt = new Runtime(defaultEnv(natives));
    const texts = run(
      `(module a G ${GOV} (defun v () 1))
       (module b G ${GOV} (defun w () (a.v)))
       (module a G ${GOV} (defun v () 2))
       (b.w) (a.v)`,
      rt,
    );
    assert.deepEqual(texts.slice(3), ["1", "2"]);
    const b = rt.loaded.module({ namespace: null, name: "b" }) as LoadedModule;
    assert.ok(b.defs.get("w") instanceof DefunDef);
  });
});
