import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DefunDef } from "../compile/ir.ts";
import { CallSite, NativeFunction } from "../eval/callables.ts";
import type { RuntimeValue } from "../runtime/types.ts";
import { keyset, testRuntime } from "../test-support/test-runtime.ts";
import type { PactValue } from "../values/types.ts";
import { CORE_NATIVES_BY_NAME } from "./index.ts";
import { magicCapToken } from "./keysets.ts";
import { ENV_NAMESPACE_POLICY, isValidNamespaceName } from "./namespaces.ts";

function withNamespace() {
  const t = testRuntime();
  t.data({ user: keyset(["u"]), admin: keyset(["a"]) });
  t.sign("u", "a");
  t.run(`(define-namespace 'ns (read-keyset "user") (read-keyset "admin"))`);
  return t;
}

describe("namespace names", () => {
  it("are Latin-1: a letter, then letters, digits and Pact's symbols", () => {
    for (const ok of ["alice", "a1", "n_s-x", "é", "a%#+-_&$@<>=^?*!|/~"]) {
      assert.equal(isValidNamespaceName(ok), true, ok);
    }
    for (const bad of ["", "1a", "-a", "a.b", "a b", "ж", "a\u0100"]) {
      assert.equal(isValidNamespaceName(bad), false, bad);
    }
  });
});

describe("define-namespace", () => {
  it("defines and describes a namespace", () => {
    const t = withNamespace();
    assert.deepEqual(
      t.run(`(describe-namespace 'ns)`),
      new Map<string, PactValue>([
        ["user-guard", keyset(["u"])],
        ["admin-guard", keyset(["a"])],
        ["namespace-name", "ns"],
      ]),
    );
    assert.equal(t.fail(`(describe-namespace 'gone)`).message, "Namespace not found: gone");
  });

  it("refuses a malformed name", () => {
    const t = testRuntime();
    t.data({ k: keyset(["a"]) });
    assert.equal(
      t.fail(`(define-namespace "1x" (read-keyset "k") (read-keyset "k"))`).message,
      "native execution failure, define-namespace failed with message: invalid namespace format",
    );
  });

  it("redefines only with the old admin guard, or DEFINE_NAMESPACE scoped to it", () => {
    const t = withNamespace();
    t.sign("u");
    assert.equal(
      t.fail(`(define-namespace 'ns (read-keyset "user") (read-keyset "user"))`).message,
      "Keyset failure (keys-all): [a...]",
    );
    t.sign(["a", [magicCapToken("DEFINE_NAMESPACE", "ns")]]);
    assert.equal(
      t.run(`(define-namespace 'ns (read-keyset "user") (read-keyset "user"))`),
      "Namespace defined: ns",
    );
  });

  it("under a managed policy, asks the manager function about new namespaces", () => {
    const t = testRuntime();
    t.run(`(module mgr G (defcap G () true)
      (defun manage (ns guard) (if (= ns "ok") true (if (= ns "bad") 1 false))))`);
    t.rt.env.namespacePolicy = { kind: "managed", allowRoot: true, manager: "mgr.manage" };
    t.data({ k: keyset(["a"]) });
    assert.equal(
      t.run(`(define-namespace "ok" (read-keyset "k") (read-keyset "k"))`),
      "Namespace defined: ok",
    );
    assert.equal(
      t.fail(`(define-namespace "no" (read-keyset "k") (read-keyset "k"))`).message,
      "native execution failure, define-namespace failed with message: Namespace definition not permitted",
    );
    assert.equal(
      t.fail(`(define-namespace "bad" (read-keyset "k") (read-keyset "k"))`).message,
      "native execution failure, define-namespace failed with message: Namespace manager function returned an invalid value",
    );
  });
});

describe("namespace", () => {
  it("sets the namespace new code goes into, and resets it to root", () => {
    const t = withNamespace();
    assert.equal(t.run(`(namespace 'ns)`), "Namespace set to ns");
    t.run(`(module m G (defcap G () true) (defun f () 1))`);
    assert.equal(t.run(`(ns.m.f)`), 1n);
    assert.equal(t.run(`(namespace "")`), "Namespace reset to root");
    assert.equal(t.rt.loaded.namespace, null);
    assert.equal(t.fail(`(namespace 'gone)`).message, "Namespace not found: gone");
  });

  it("installs new code only when the namespace's user guard passes (NAMESPACE granted)", () => {
    const t = withNamespace();
    t.run(`(namespace 'ns)`);
    t.sign("a");
    assert.equal(
      t.fail(`(interface i (defun f:integer ()))`).message,
      "Keyset failure (keys-all): [u...]",
    );
    t.sign(["u", [magicCapToken("NAMESPACE", "ns")]]);
    t.run(`(interface i (defun f:integer ()))`);
    assert.notEqual(t.rt.loaded.module({ namespace: "ns", name: "i" }), undefined);
  });

  it("upgrades code without the namespace's user guard", () => {
    const t = withNamespace();
    t.run(`(namespace 'ns) (module m G (defcap G () true) (defun f () 1))`);
    t.sign();
    t.run(`(module m G (defcap G () true) (defun f () 2))`);
    assert.equal(t.run(`(ns.m.f)`), 2n);
  });
});

describe("root namespace policy", () => {
  it("forbids new root modules under a managed policy without root access", () => {
    const t = testRuntime();
    t.run(`(module mgr G (defcap G () true) (defun manage (ns guard) true))`);
    t.rt.env.namespacePolicy = { kind: "managed", allowRoot: false, manager: "mgr.manage" };
    assert.equal(
      t.fail(`(module r G (defcap G () true))`).message,
      "Namespace installation error: cannot install in root namespace",
    );
    // Upgrading an existing root module is governance, not installation.
    t.run(`(module mgr G (defcap G () true) (defun manage (ns guard) false))`);
  });
});

const SPAN = { line: 0, col: 0, endLine: 0, endCol: 0, start: 0, end: 0 };

describe("env-namespace-policy", () => {
  function callPolicy(t: ReturnType<typeof testRuntime>, args: RuntimeValue[]) {
    const site = new CallSite(SPAN, "t");
    site.rt = t.rt;
    return ENV_NAMESPACE_POLICY.impl(site, args);
  }

  it("installs a managed policy from a defun of two parameters", () => {
    const t = testRuntime();
    t.run(`(module mgr G (defcap G () true)
      (defun manage (ns guard) true) (defun one (ns) true))`);
    const defs = t.rt.loaded.module({ namespace: null, name: "mgr" })!.defs;
    assert.equal(
      callPolicy(t, [false, defs.get("manage") as DefunDef]),
      "Installed namespace policy",
    );
    assert.deepEqual(t.rt.env.namespacePolicy, {
      kind: "managed",
      allowRoot: false,
      manager: "mgr.manage",
    });
    const plus = new NativeFunction(CORE_NATIVES_BY_NAME.get("+")!, new CallSite(SPAN, "t"));
    assert.throws(() => callPolicy(t, [true, plus]), {
      message:
        "Type error: failed to call native function env-namespace-policy with argument(s) of type(s): bool, closure",
    });
    assert.throws(() => callPolicy(t, [true, defs.get("one") as DefunDef]), {
      message:
        "native execution failure, env-namespace-policy failed with message: Namespace manager function has invalid argument length",
    });
  });
});
