import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { DefSchemaDef } from "../compile/ir.ts";
import { PactError } from "../runtime/errors.ts";
import { ReplSession } from "./session.ts";

const script = join(dirname(fileURLToPath(import.meta.url)), "testdata", "self-reference.repl");

function newSession(): { session: ReplSession; output: string[] } {
  const output: string[] = [];
  const session = new ReplSession({
    line: (text) => output.push(text),
    readFile: (p) => readFileSync(p, "utf8"),
  });
  return { session, output };
}

const NAMESPACE = "(define-namespace 'ns1 (sig-keyset) (sig-keyset)) (namespace 'ns1)";

/** The interfaces of the modref type of field `field` of schema `schema` in module `module`. */
function fieldInterfaces(
  session: ReplSession,
  module: { namespace: string | null; name: string },
  schema: string,
  field: string,
): unknown {
  const def = session.rt.loaded.module(module)?.defs.get(schema);
  assert.ok(def instanceof DefSchemaDef);
  const type = def.schema.fields.get(field);
  assert.ok(typeof type === "object" && type.kind === "modref");
  return type.interfaces;
}

describe("modules and interfaces naming themselves", () => {
  it("runs self-reference.repl: every expectation holds", () => {
    const { session, output } = newSession();
    session.loadFile(script, true);
    assert.deepEqual(
      session.failures().map((f) => `${f.span.line}: ${f.failure}`),
      [],
    );
    assert.deepEqual(output, []);
    assert.equal(session.results.length, 6);
  });

  it("resolves an unqualified self-reference to the namespaced interface", () => {
    const { session } = newSession();
    session.runSource("t.repl", `${NAMESPACE} (interface pol (defschema s p:module{pol}))`);
    assert.deepEqual(fieldInterfaces(session, { namespace: "ns1", name: "pol" }, "s", "p"), [
      { namespace: "ns1", name: "pol" },
    ]);
  });

  it("prefers an interface of that name in the root namespace, as Pact looks there first", () => {
    const { session } = newSession();
    session.runSource(
      "t.repl",
      `(interface pol (defun f ())) ${NAMESPACE} (interface pol (defschema s p:module{pol}))`,
    );
    assert.deepEqual(fieldInterfaces(session, { namespace: "ns1", name: "pol" }, "s", "p"), [
      { namespace: null, name: "pol" },
    ]);
  });

  it("still rejects a root module of that name used as an interface", () => {
    const { session } = newSession();
    assert.throws(
      () =>
        session.runSource(
          "t.repl",
          `(module pol G (defcap G () true)) ${NAMESPACE} (interface pol (defschema s p:module{pol}))`,
        ),
      (e: unknown) =>
        e instanceof PactError &&
        e.message === "Invalid Interface attempted to be used as module reference: pol",
    );
  });

  it("does not take another namespace's interface of that name for itself", () => {
    const { session } = newSession();
    assert.throws(
      () =>
        session.runSource(
          "t.repl",
          `${NAMESPACE} (interface pol (defschema s p:module{other.pol}))`,
        ),
      (e: unknown) => e instanceof PactError && e.message === "Cannot find module:  other.pol",
    );
  });
});
