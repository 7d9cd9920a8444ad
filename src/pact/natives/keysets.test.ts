import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseKeysetName, renderKeysetName } from "../runtime/keyset-names.ts";
import { keyset, testRuntime } from "../test-support/test-runtime.ts";
import { pactValueToPretty } from "../values/show.ts";
import type { CapToken } from "../values/types.ts";
import { keysetFailure, magicCapToken } from "./keysets.ts";

function token(name: string, ...args: CapToken["args"]): CapToken {
  return { kind: "cap-token", name, moduleHash: "", args };
}

describe("parseKeysetName", () => {
  it("reads ns.name as a namespaced name", () => {
    assert.deepEqual(parseKeysetName("alice.keys"), { namespace: "alice", name: "keys" });
  });
  it("reads any other non-empty text as a name without namespace", () => {
    assert.deepEqual(parseKeysetName("TEST <1>."), { namespace: null, name: "TEST <1>." });
    assert.deepEqual(parseKeysetName("k"), { namespace: null, name: "k" });
    assert.deepEqual(parseKeysetName("true.x"), { namespace: null, name: "true.x" });
  });
  it("skips white space around the dot and ignores what follows the name, as Pact does", () => {
    assert.deepEqual(parseKeysetName("ns . k rest"), { namespace: "ns", name: "k" });
  });
  it("refuses the empty name", () => {
    assert.equal(parseKeysetName(""), null);
  });
  it("renders the stored key", () => {
    assert.equal(renderKeysetName({ namespace: "ns", name: "k" }), "ns.k");
    assert.equal(renderKeysetName({ namespace: null, name: "k" }), "k");
  });
});

describe("keysetFailure", () => {
  it("shows the predicate and each key cut to 8 characters", () => {
    const e = keysetFailure(keyset(["admin-key-1", "b"], "keys-2"));
    assert.equal(e.message, "Keyset failure (keys-2): [admin-ke..., b...]");
    assert.equal(e.kind, "user");
  });
  it("breaks a long key list over lines as Pact's printer does", () => {
    const keys = ["a", "b", "c", "d", "e", "f", "g"].map((c) => c.repeat(64));
    const e = keysetFailure(keyset(keys));
    assert.equal(
      e.message,
      `Keyset failure (keys-all): [ ${keys.map((k) => `${k.slice(0, 8)}...`).join("\n, ")} ]`,
    );
  });
});

describe("enforce-keyset", () => {
  it("applies keys-all, keys-any and keys-2 to the signers", () => {
    const t = testRuntime();
    t.data({
      all: keyset(["a", "b", "c"]),
      any: keyset(["a", "b", "c"], "keys-any"),
      two: keyset(["a", "b", "c"], "keys-2"),
    });
    t.sign("a", "BAD");
    assert.equal(t.run(`(enforce-keyset (read-keyset "any"))`), true);
    assert.equal(
      t.fail(`(enforce-keyset (read-keyset "two"))`).message,
      "Keyset failure (keys-2): [a..., b..., c...]",
    );
    t.sign("a", "b");
    assert.equal(t.run(`(enforce-keyset (read-keyset "two"))`), true);
    assert.equal(
      t.fail(`(enforce-keyset (read-keyset "all"))`).message,
      "Keyset failure (keys-all): [a..., b..., c...]",
    );
    t.sign("a", "b", "c");
    assert.equal(t.run(`(enforce-keyset (read-keyset "all"))`), true);
  });

  it("runs a user predicate: a module's defun or a native, on the counts", () => {
    const t = testRuntime();
    t.run(`(module preds G (defcap G () true) (defun three (count matched) (>= matched 3)))`);
    t.data({ q: keyset(["a", "b", "c", "d"], "preds.three"), eq: keyset(["a", "b"], "=") });
    t.sign("a", "b", "c");
    assert.equal(t.run(`(enforce-keyset (read-keyset "q"))`), true);
    t.sign("a", "b");
    assert.equal(
      t.fail(`(enforce-keyset (read-keyset "q"))`).message,
      "Keyset failure (preds.three): [a..., b..., c..., d...]",
    );
    assert.equal(t.run(`(enforce-keyset (read-keyset "eq"))`), true);
    t.sign("a");
    assert.equal(
      t.fail(`(enforce-keyset (read-keyset "eq"))`).message,
      "Keyset failure (=): [a..., b...]",
    );
  });

  it("refuses a bare predicate that is not a native", () => {
    const t = testRuntime();
    t.data({ k: keyset([], "impure") });
    const e = t.fail(`(enforce-keyset (read-keyset "k"))`);
    assert.equal(e.message, "Invalid custom predicate for keyset expected native");
    assert.equal(e.kind, "execution");
  });

  it("counts a scoped signature only while one of its capabilities is granted", () => {
    const t = testRuntime();
    t.data({ a: keyset(["a"]) });
    t.run(`(module sc G
      (defcap G () true)
      (defconst KS (read-keyset "a"))
      (defcap A (x:string) (enforce-keyset KS))
      (defun run-a (x:string) (with-capability (A x) true))
      (defun plain () (enforce-keyset KS)))`);
    t.sign(["a", [token("sc.A", "bar")]]);
    assert.equal(t.fail(`(sc.run-a "foo")`).message, "Keyset failure (keys-all): [a...]");
    assert.equal(t.run(`(sc.run-a "bar")`), true);
    assert.equal(t.fail(`(sc.plain)`).message, "Keyset failure (keys-all): [a...]");
    t.sign("a");
    assert.equal(t.run(`(sc.plain)`), true);
  });

  it("names a stored keyset, or fails for a missing or malformed name", () => {
    const t = testRuntime();
    t.data({ k: keyset(["a"]) });
    t.sign("a");
    t.run(`(define-keyset 'ks (read-keyset "k"))`);
    assert.equal(t.run(`(enforce-keyset 'ks)`), true);
    assert.equal(t.fail(`(enforce-keyset 'nope)`).message, "Cannot find keyset in database: 'nope");
    assert.equal(t.fail(`(enforce-keyset "")`).message, "Invalid keyset name format: ");
  });
});

describe("define-keyset", () => {
  it("defines, then rotates only with the old keyset's signatures", () => {
    const t = testRuntime();
    t.data({ one: keyset(["a"]), two: keyset(["b"]) });
    t.sign("b");
    assert.equal(t.run(`(define-keyset 'rot (read-keyset "one"))`), "Keyset write success");
    assert.equal(
      t.fail(`(define-keyset 'rot (read-keyset "two"))`).message,
      "Keyset failure (keys-all): [a...]",
    );
    t.sign("a");
    assert.equal(t.run(`(define-keyset 'rot (read-keyset "two"))`), "Keyset write success");
    assert.equal(
      pactValueToPretty(t.run(`(describe-keyset 'rot)`)),
      "KeySet {keys: [b],pred: keys-all}",
    );
  });

  it("reads the keyset from the transaction data under its own name", () => {
    const t = testRuntime();
    t.data({ "from-data": keyset(["x"]) });
    assert.equal(t.run(`(define-keyset "from-data")`), "Keyset write success");
    assert.equal(t.fail(`(define-keyset "missing")`).message, "define-keyset failure");
  });

  it("accepts a signature scoped to the magic capability DEFINE_KEYSET of the name", () => {
    const t = testRuntime();
    t.data({ k: keyset(["s"]) });
    t.sign("s");
    t.run(`(define-keyset "m1" (read-keyset "k")) (define-keyset "m2" (read-keyset "k"))`);
    t.sign(["s", [magicCapToken("DEFINE_KEYSET", "m1")]]);
    assert.equal(t.run(`(define-keyset "m1" (read-keyset "k"))`), "Keyset write success");
    assert.equal(
      t.fail(`(define-keyset "m2" (read-keyset "k"))`).message,
      "Keyset failure (keys-all): [s...]",
    );
  });

  it("with RequireKeysetNs, needs the current namespace and its user guard", () => {
    const t = testRuntime();
    t.data({ user: keyset(["u"]), "ns.a": keyset(["nsa"]) });
    t.sign("u");
    t.run(`(define-namespace 'ns (read-keyset "user") (read-keyset "user"))`);
    t.rt.env.flags.add("RequireKeysetNs");
    assert.equal(
      t.fail(`(define-keyset "ns.a")`).message,
      "Cannot define keyset outside of a namespace",
    );
    t.run(`(namespace 'ns)`);
    assert.equal(
      t.fail(`(define-keyset "other.a" (read-keyset "user"))`).message,
      "Error defining keyset, namespace mismatch, expected ns",
    );
    t.sign("nsa");
    assert.equal(t.fail(`(define-keyset "ns.a")`).message, "Keyset failure (keys-all): [u...]");
    t.sign(["u", [magicCapToken("NAMESPACE", "ns")]]);
    assert.equal(t.run(`(define-keyset "ns.a")`), "Keyset write success");
  });

  it("is a top-level native", () => {
    const t = testRuntime();
    t.run(`(module tl G (defcap G () true) (defun f (k) (define-keyset "x" k)))`);
    t.data({ k: keyset(["a"]) });
    assert.equal(
      t.fail(`(tl.f (read-keyset "k"))`).message,
      "Top-level call used in module define-keyset",
    );
  });
});

describe("keyset-ref-guard", () => {
  it("refers to an existing keyset by name", () => {
    const t = testRuntime();
    t.data({ k: keyset(["a"]) });
    t.run(`(define-keyset "ns.k" (read-keyset "k"))`);
    assert.deepEqual(t.run(`(keyset-ref-guard "ns.k")`), {
      kind: "keyset-ref",
      namespace: "ns",
      name: "k",
    });
    assert.equal(
      t.fail(`(keyset-ref-guard "gone")`).message,
      "Cannot find keyset in database: 'gone",
    );
  });
});

describe("read-keyset with EnforceKeyFormats", () => {
  it("accepts ED25519 keys and refuses other formats", () => {
    const t = testRuntime();
    const good = "12440d374865bdf0a3349634a70d1317fc279e7e13db98f2199ac5e7378975ea";
    t.data({ good: [good], bad: ["foo"] });
    t.rt.env.flags.add("EnforceKeyFormats");
    assert.deepEqual(t.run(`(read-keyset "good")`), keyset([good]));
    assert.equal(
      t.fail(`(read-keyset "bad")`).message,
      "Invalid keyset format: KeySet {keys: [foo],pred: keys-all}",
    );
  });
});
