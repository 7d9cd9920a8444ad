import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keyset, testRuntime } from "../test-support/test-runtime.ts";
import { pactValueToPretty } from "../values/show.ts";

/** A module `g` governed by keyset `gov` (signed by `admin`), with guard helpers. */
function guardModule() {
  const t = testRuntime();
  t.data({ k: keyset(["admin"]) });
  t.sign("admin");
  t.run(`(define-keyset 'gov (read-keyset "k"))
    (module g 'gov
      (defschema s v:integer)
      (deftable tbl:{s})
      (defcap C (n:integer) true)
      (defun ok (x) (enforce (= x 1) "x must be 1"))
      (defun writes () (insert tbl "k" {"v": 1}))
      (defun mg () (create-module-guard "mg"))
      (defun with-c (n g) (with-capability (C n) (enforce-guard g)))
      (defun in-module (g) (enforce-guard g))
      (defpact p (name) (step (create-pact-guard name)) (step name)))
    (create-table tbl)`);
  return t;
}

describe("enforce-guard", () => {
  it("enforces keysets, keyset references and keyset names", () => {
    const t = guardModule();
    assert.equal(t.run(`(enforce-guard (read-keyset "k"))`), true);
    assert.equal(t.run(`(enforce-guard (keyset-ref-guard "gov"))`), true);
    assert.equal(t.run(`(enforce-guard "gov")`), true);
    t.sign();
    assert.equal(
      t.fail(`(enforce-guard (keyset-ref-guard "gov"))`).message,
      "Keyset failure (keys-all): [admin...]",
    );
  });

  it("runs a user guard's function with its arguments", () => {
    const t = guardModule();
    assert.equal(t.run(`(enforce-guard (create-user-guard (g.ok 1)))`), true);
    const e = t.fail(`(enforce-guard (create-user-guard (g.ok 2)))`);
    assert.equal(e.message, "x must be 1");
    assert.equal(e.kind, "user");
  });

  it("runs a user guard without database writes", () => {
    const t = guardModule();
    assert.equal(
      t.fail(`(enforce-guard (create-user-guard (g.writes)))`).message,
      "Error during database operation: Operation disallowed in read-only or sys-only mode",
    );
  });

  it("passes a capability guard only while its capability is granted", () => {
    const t = guardModule();
    const e = t.fail(`(enforce-guard (create-capability-guard (g.C 1)))`);
    assert.equal(
      e.message,
      "Capability not acquired: CapabilityGuard {name: g.C,args: [1],pactId: }",
    );
    assert.equal(e.kind, "user");
    assert.equal(t.run(`(g.with-c 1 (create-capability-guard (g.C 1)))`), true);
    assert.equal(
      t.fail(`(g.with-c 2 (create-capability-guard (g.C 1)))`).message,
      "Capability not acquired: CapabilityGuard {name: g.C,args: [1],pactId: }",
    );
  });

  it("passes a module guard inside the module, else needs the module's admin", () => {
    const t = guardModule();
    t.rt.caps.moduleAdmin.clear();
    assert.equal(t.run(`(g.in-module (g.mg))`), true);
    t.sign();
    assert.equal(t.fail(`(enforce-guard (g.mg))`).message, "Keyset failure (keys-all): [admin...]");
    t.sign("admin");
    assert.equal(t.run(`(enforce-guard (g.mg))`), true);
    assert.equal(t.rt.caps.moduleAdmin.has("g"), true);
  });

  it("makes a pact guard for the running defpact", () => {
    const t = guardModule();
    const guard = t.run(`(g.p "x")`);
    assert.equal(pactValueToPretty(guard), `PactGuard {pactId: ${t.rt.env.txHash},name: x}`);
    assert.equal(t.rt.pactExec?.pactId, t.rt.env.txHash);
  });
});

describe("guard constructors", () => {
  it("makes a module guard for the calling module, only inside one", () => {
    const t = guardModule();
    assert.deepEqual(t.run(`(g.mg)`), {
      kind: "module-guard",
      module: { namespace: null, name: "g" },
      name: "mg",
    });
    assert.equal(
      t.fail(`(create-module-guard "x")`).message,
      "native execution failure, create-module-guard failed with message: create-module-guard: must call within module",
    );
  });

  it("makes capability guards, with the pact id only inside a defpact", () => {
    const t = guardModule();
    assert.deepEqual(t.run(`(create-capability-guard (g.C 3))`), {
      kind: "capability-guard",
      name: "g.C",
      args: [3n],
      pactId: null,
    });
    const outside = "Attempted to fetch defpact data, but currently not within defpact execution";
    assert.equal(t.fail(`(create-capability-pact-guard (g.C 3))`).message, outside);
    assert.equal(t.fail(`(create-pact-guard "x")`).message, outside);
  });
});

describe("acquire-module-admin", () => {
  it("acquires a keyset-governed module's admin with its keyset", () => {
    const t = guardModule();
    t.rt.caps.moduleAdmin.clear();
    t.sign();
    assert.equal(
      t.fail(`(acquire-module-admin g)`).message,
      "Keyset failure (keys-all): [admin...]",
    );
    t.sign("admin");
    assert.equal(t.run(`(acquire-module-admin g)`), "Module admin for module g acquired");
    assert.equal(t.rt.caps.moduleAdmin.has("g"), true);
  });

  it("acquires a capability-governed module's admin through its governance capability", () => {
    const t = testRuntime();
    t.run(`(module cg GOV (defcap GOV () (enforce false "no admin")))`);
    t.rt.caps.moduleAdmin.clear();
    assert.equal(t.fail(`(acquire-module-admin cg)`).message, "no admin");
  });
});
