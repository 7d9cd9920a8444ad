import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CompileUnit } from "../compile/context.ts";
import { openSqlitePactDb } from "../db/index.ts";
import { CORE_NATIVES, CORE_NATIVES_BY_NAME } from "../natives/index.ts";
import { PactError } from "../runtime/errors.ts";
import { parseReplProgram } from "../syntax/parser.ts";
import { defaultEnv } from "./env.ts";
import { ENV_NATIVES } from "./env-natives.ts";
import { LimitedGasMeter } from "./gas-meter.ts";
import { MAX_CALL_DEPTH, Runtime } from "./runtime.ts";
import { runTopLevel } from "./toplevel.ts";

const natives = new Map([...CORE_NATIVES, ...ENV_NATIVES].map((n) => [n.name, n]));

function run(rt: Runtime, source: string): string[] {
  const unit: CompileUnit = { file: "t.pact", source, natives, names: rt.loaded, coverage: null };
  return parseReplProgram(source, "t.pact").map((form) => runTopLevel(rt, form, unit).text);
}

function failure(rt: Runtime, source: string): PactError {
  try {
    run(rt, source);
  } catch (e) {
    if (e instanceof PactError) return e;
    throw e;
  }
  assert.fail("expected an error");
}

describe("Runtime", () => {
  it("charges each native call's flat gas cost", () => {
    const rt = new Runtime(defaultEnv(natives));
    const meter = new LimitedGasMeter(null);
    rt.env.gas = meter;
    run(rt, "(+ 1 (* 2 3))");
    const plus = CORE_NATIVES_BY_NAME.get("+")!.gas;
    const times = CORE_NATIVES_BY_NAME.get("*")!.gas;
    assert.ok(plus > 0 && times > 0);
    assert.ok(meter.used() >= plus + times);
  });

  it("stops at the gas limit with Pact's message", () => {
    const rt = new Runtime(defaultEnv(natives));
    rt.env.gas = new LimitedGasMeter(1);
    const e = failure(rt, "(fold (+) 0 (enumerate 1 100))");
    assert.equal(e.kind, "gas");
    assert.match(e.message, /^Gas limit "1" exceeded: \d+$/);
  });

  it("turns runaway self-application into an error at the named depth", () => {
    const rt = new Runtime(defaultEnv(natives));
    const e = failure(rt, "(let ((f (lambda (g) (g g)))) (f f))");
    assert.equal(e.message, `Maximum call depth (${MAX_CALL_DEPTH}) exceeded`);
    assert.equal(e.kind, "execution");
  });

  it("gives native errors the call's location and call stack", () => {
    const rt = new Runtime(defaultEnv(natives));
    run(rt, "(module m G (defcap G () true) (defun f (x) (/ x 0)))");
    const e = failure(rt, "(m.f 1)");
    assert.deepEqual([e.span?.line, e.span?.col], [0, 44]);
    assert.equal(e.file, "t.pact");
    assert.equal(e.callStack.length, 1);
    assert.match(e.callStack[0]!.name, /^m\.f\.\{[\w-]{43}\}$/);
    assert.deepEqual(e.callStack[0]!.args, [1n]);
  });

  it("restores the call stack after an error caught by try", () => {
    const rt = new Runtime(defaultEnv(natives));
    run(
      rt,
      '(module m G (defcap G () true) (defun f () (enforce false "no")) (defun g () (try 1 (f))))',
    );
    assert.deepEqual(run(rt, "(m.g) (m.g)"), ["1", "1"]);
    assert.deepEqual(rt.stack(), []);
  });

  it("returns a function applied to no arguments, and partially applies user functions", () => {
    const rt = new Runtime(defaultEnv(natives));
    run(rt, "(module m G (defcap G () true) (defun add:integer (a:integer b:integer) (+ a b)))");
    assert.deepEqual(run(rt, "(map (m.add 10) [1 2])"), ["[11 12]"]);
    assert.deepEqual(run(rt, "(fold (m.add) 0 [1 2 3])"), ["6"]);
    const e = failure(rt, '(map (m.add "a") [1])');
    assert.equal(
      e.message,
      "Runtime typecheck failure, argument is string , but expected type integer",
    );
  });
});

describe("modules in the database", () => {
  it("are compiled again from their stored form when another process reads them", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-modules-"));
    try {
      const path = join(dir, "state.sqlite");
      const first = openSqlitePactDb(path);
      const rt1 = new Runtime(defaultEnv(natives, first));
      run(
        rt1,
        `(module base G (defcap G () true) (defun one () 1))
                (use base)
                (module m G (defcap G () true) (defconst K (+ (one) 41)) (defun f (x) (+ x K)))`,
      );
      first.close();

      const second = openSqlitePactDb(path);
      const rt2 = new Runtime(defaultEnv(natives, second));
      assert.deepEqual(run(rt2, "(m.f 1) m.K"), ["43", "42"]);
      const m = rt2.loaded.module({ namespace: null, name: "m" });
      const stored = second.readModule("m");
      assert.equal(m?.info.hash, stored?.hash);
      assert.equal(m?.source.span.line, 2);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
