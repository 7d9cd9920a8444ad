import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { openMemoryPactDb, type PactDb } from "../db/index.ts";
import { defaultEnv } from "../eval/env.ts";
import { Runtime } from "../eval/runtime.ts";
import { runSource, sourceFailure } from "../test-support/test-runtime.ts";
import type { CapToken } from "../values/types.ts";
import { ON_CHAIN_NATIVES } from "./on-chain.ts";

const MODULE = `(module m G
  (defcap G () true)
  (defcap C (i:integer) true)
  (defcap OUTER () (compose-capability (C 1)) (compose-capability (INNER)))
  (defcap INNER () (compose-capability (C 1)) (compose-capability (EV 2)))
  (defcap EV (i:integer) @event true)
  (defcap TOP (s:string) @event (compose-capability (EV 1)))
  (defcap PAY (from:string amount:integer) @managed amount pay-mgr true)
  (defun pay-mgr (have:integer want:integer)
    (enforce (<= want have) (format "only {} left" [have]))
    (- have want))
  (defcap ONCE (s:string) @managed true)
  (defcap INSTALLS () (install-capability (ONCE "x")))
  (defun c1 () (require-capability (C 1)))
  (defun composed () (with-capability (OUTER) (c1)))
  (defun compose-here () (compose-capability (C 1)))
  (defun pay (from:string amount:integer) (with-capability (PAY from amount) amount))
  (defun once (s:string) (with-capability (ONCE s) s))
  (defun top () (with-capability (TOP "t") 1))
  (defun emit-ev () (emit-event (EV 9)))
  (defun emit-c () (emit-event (C 9)))
  (defun installs () (with-capability (INSTALLS) 1)))`;

/** A database with the module `m` defined. */
function chain(): PactDb {
  const db = openMemoryPactDb();
  runSource(new Runtime(defaultEnv(ON_CHAIN_NATIVES, db)), MODULE);
  return db;
}

/** A transaction on `db` that has not acquired `m`'s admin. */
function tx(db: PactDb): Runtime {
  return new Runtime(defaultEnv(ON_CHAIN_NATIVES, db));
}

function moduleHash(rt: Runtime): string {
  return rt.loaded.module({ namespace: null, name: "m" })!.info.hash;
}

describe("require-capability and compose-capability", () => {
  it("grants composed capabilities with the capability that composed them", () => {
    const rt = tx(chain());
    assert.equal(runSource(rt, "(m.composed)"), true);
    assert.deepEqual(rt.caps.slots, []);
    const e = sourceFailure(rt, "(m.c1)");
    assert.equal(e.message, "require-capability: not granted: (m.C 1)");
    assert.equal(e.kind, "user");
  });

  it("composes only inside a defcap body", () => {
    const e = sourceFailure(tx(chain()), "(m.compose-here)");
    assert.equal(
      e.message,
      "native execution failure, compose-capability failed with message: native must be called within a defcap body",
    );
  });

  it("emits composed events first, each once, then the acquired capability's", () => {
    const rt = tx(chain());
    runSource(rt, "(m.top) (m.composed)");
    const h = moduleHash(rt);
    const m = { namespace: null, name: "m" };
    assert.deepEqual(rt.events, [
      { name: "EV", params: [1n], module: m, moduleHash: h },
      { name: "TOP", params: ["t"], module: m, moduleHash: h },
      { name: "EV", params: [2n], module: m, moduleHash: h },
    ]);
  });

  it("emits no events under DisablePactEvents", () => {
    const rt = tx(chain());
    rt.env.flags = new Set(["DisablePactEvents"]);
    runSource(rt, "(m.top)");
    assert.deepEqual(rt.events, []);
  });

  it("acquires a module's capability outside it only with its admin", () => {
    const rt = tx(chain());
    assert.equal(
      sourceFailure(rt, "(with-capability (m.C 1) 1)").message,
      "Module admin necessary for operation but has not been acquired:m",
    );
    rt.caps.moduleAdmin.add("m");
    assert.equal(runSource(rt, "(with-capability (m.C 1) (require-capability (m.C 1)))"), true);
  });
});

describe("managed capabilities", () => {
  it("installs with a managed amount that each acquisition spends", () => {
    const rt = tx(chain());
    assert.equal(runSource(rt, `(install-capability (m.PAY "a" 10))`), "Installed capability");
    assert.equal(runSource(rt, `(m.pay "a" 6)`), 6n);
    assert.equal(sourceFailure(rt, `(m.pay "a" 5)`).message, "only 4 left");
    assert.equal(runSource(rt, `(m.pay "a" 4)`), 4n);
    assert.equal(rt.caps.managed[0]?.value, 0n);
    assert.deepEqual(
      rt.events.map((e) => e.params),
      [
        ["a", 6n],
        ["a", 4n],
      ],
    );
    assert.equal(
      sourceFailure(rt, `(m.pay "b" 1)`).message,
      `Managed capability not installed: (m.PAY "b" 1)`,
    );
  });

  it("installs from a signer's capability list", () => {
    const rt = tx(chain());
    const signed = runSource(rt, `(m.PAY "a" 3)`) as CapToken;
    rt.env.signers = new Map([["key", [signed]]]);
    assert.equal(runSource(rt, `(m.pay "a" 2)`), 2n);
    assert.equal(sourceFailure(rt, `(m.pay "a" 2)`).message, "only 1 left");
  });

  it("refuses a second install and an install a signature already grants", () => {
    const rt = tx(chain());
    runSource(rt, `(install-capability (m.PAY "a" 10))`);
    assert.equal(
      sourceFailure(rt, `(install-capability (m.PAY "a" 3))`).message,
      `Capability already installed: (m.PAY "a" 3)`,
    );
    const signed = runSource(rt, `(m.PAY "s" 3)`) as CapToken;
    rt.env.signers = new Map([["key", [signed]]]);
    assert.equal(
      sourceFailure(rt, `(install-capability (m.PAY "s" 5))`).message,
      `Capability already installed: (m.PAY "s" 5)`,
    );
  });

  it("allows an automatically managed capability once", () => {
    const rt = tx(chain());
    runSource(rt, `(install-capability (m.ONCE "x"))`);
    assert.equal(runSource(rt, `(m.once "x")`), "x");
    const e = sourceFailure(rt, `(m.once "x")`);
    assert.equal(e.message, "One-shot managed capability used more than once");
    assert.equal(e.kind, "user");
  });

  it("refuses to install unmanaged capabilities, and installs inside a defcap", () => {
    const rt = tx(chain());
    assert.equal(
      sourceFailure(rt, "(install-capability (m.C 1))").message,
      "Install capability error: capability is not managed and cannot be installed: m.C",
    );
    assert.equal(
      sourceFailure(rt, "(m.installs)").message,
      "Form illegal within defcap install-capability",
    );
  });

  it("disables unscoped signatures once code installed a capability", () => {
    const rt = tx(chain());
    assert.equal(rt.caps.signatureApplies([]), true);
    runSource(rt, `(install-capability (m.ONCE "y"))`);
    assert.equal(rt.caps.signatureApplies([]), false);
  });
});

describe("emit-event", () => {
  it("emits an event capability's event from its module, without acquiring it", () => {
    const rt = tx(chain());
    assert.equal(runSource(rt, "(m.emit-ev)"), true);
    assert.deepEqual(
      rt.events.map((e) => [e.name, e.params]),
      [["EV", [9n]]],
    );
    assert.deepEqual(rt.caps.slots, []);
  });

  it("refuses capabilities that are not events, and emission outside the module", () => {
    const rt = tx(chain());
    assert.equal(
      sourceFailure(rt, "(m.emit-c)").message,
      `Invalid event capability m.C.{${moduleHash(rt)}}`,
    );
    rt.caps.moduleAdmin.add("m");
    assert.equal(
      sourceFailure(rt, "(emit-event (m.EV 1))").message,
      "Emitted event does not match module: m",
    );
  });
});

describe("enforce-verifier", () => {
  const VERIFIED = `(module v G
  (defcap G () true)
  (defcap BRIDGE (amount:integer) (enforce-verifier "allow"))
  (defcap OUTER () (compose-capability (BRIDGE 5)))
  (defun bridge (amount:integer) (with-capability (BRIDGE amount) amount))
  (defun outer () (with-capability (OUTER) "outer"))
  (defun outside () (with-capability (OUTER) (enforce-verifier "allow"))))`;

  function verified(grants: readonly CapToken[] | null): Runtime {
    const db = openMemoryPactDb();
    runSource(new Runtime(defaultEnv(ON_CHAIN_NATIVES, db)), VERIFIED);
    const rt = tx(db);
    if (grants !== null) rt.env.verifiers.set("allow", grants);
    return rt;
  }

  const bridge = (amount: bigint): CapToken => ({
    kind: "cap-token",
    name: "v.BRIDGE",
    moduleHash: "",
    args: [amount],
  });
  const outer: CapToken = { kind: "cap-token", name: "v.OUTER", moduleHash: "", args: [] };

  it("passes in the defcap of a capability the verifier grants", () => {
    assert.equal(runSource(verified([bridge(7n)]), "(v.bridge 7)"), 7n);
  });

  it("passes in a defcap composed by a capability the verifier grants", () => {
    assert.equal(runSource(verified([outer]), "(v.outer)"), "outer");
  });

  it("fails as a user error when the capability being evaluated is not granted", () => {
    const e = sourceFailure(verified([bridge(7n)]), "(v.bridge 8)");
    assert.equal(e.message, "Verifier failure allow: not in scope");
    assert.equal(e.onChainMessage, "Verifier allow failed with the message: not in scope");
    assert.equal(e.kind, "user");
  });

  it("fails when the transaction has no such verifier", () => {
    const e = sourceFailure(verified(null), "(v.bridge 7)");
    assert.equal(e.message, "Verifier failure allow: not in transaction");
    assert.equal(e.onChainMessage, "Verifier allow failed with the message: not in transaction");
    assert.equal(e.kind, "user");
  });

  it("runs only in a defcap body and takes a string", () => {
    const rt = verified([outer]);
    assert.equal(
      sourceFailure(rt, "(v.outside)").message,
      "native execution failure, enforce-verifier failed with message: native must be called within a defcap body",
    );
    assert.equal(
      sourceFailure(rt, "(enforce-verifier 1)").message,
      "Type error: failed to call native function enforce-verifier with argument(s) of type(s): integer",
    );
  });
});
