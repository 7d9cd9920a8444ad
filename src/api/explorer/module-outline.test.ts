import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { moduleOutline } from "./module-outline.ts";

const HELLO = `(module hello GOV
  "A greeting."
  (implements fungible-v2)
  (defcap GOV () (enforce-guard (read-keyset "admin")))
  (defcap SEND:bool (from:string amount:decimal) @managed amount SEND-mgr true)
  (defun SEND-mgr:decimal (managed:decimal requested:decimal) managed)
  (defcap SENT (to:string) @event true)
  (defcap AUTO () @managed true)
  (defschema greeting who:string times:integer tags:[string] other)
  (deftable greetings:{greeting} "the greetings")
  (deftable foreign:{coin.coin-schema})
  (defconst LIMIT:integer 3)
  (defun greet:string (who:string) @doc "says hello" (format "Hello {}" [who]))
  (defun untyped (x) x)
  (defpact two-steps:string (to:object{greeting} m:module{fungible-v2, free.iface}) (step "a") (step "b")))`;

describe("module outline", () => {
  it("reads governance, interfaces, signatures, capabilities, schemas, tables and constants", () => {
    assert.deepEqual(moduleOutline(HELLO), {
      kind: "module",
      governance: { kind: "capability", name: "GOV" },
      implements: ["fungible-v2"],
      functions: [
        {
          name: "SEND-mgr",
          kind: "defun",
          params: [
            { name: "managed", type: "decimal" },
            { name: "requested", type: "decimal" },
          ],
          returns: "decimal",
          doc: null,
        },
        {
          name: "greet",
          kind: "defun",
          params: [{ name: "who", type: "string" }],
          returns: "string",
          doc: "says hello",
        },
        {
          name: "untyped",
          kind: "defun",
          params: [{ name: "x", type: null }],
          returns: null,
          doc: null,
        },
        {
          name: "two-steps",
          kind: "defpact",
          params: [
            { name: "to", type: "object{greeting}" },
            { name: "m", type: "module{fungible-v2, free.iface}" },
          ],
          returns: "string",
          doc: null,
        },
      ],
      capabilities: [
        { name: "GOV", params: [], managed: null, event: false, doc: null },
        {
          name: "SEND",
          params: [
            { name: "from", type: "string" },
            { name: "amount", type: "decimal" },
          ],
          managed: "amount SEND-mgr",
          event: false,
          doc: null,
        },
        {
          name: "SENT",
          params: [{ name: "to", type: "string" }],
          managed: null,
          event: true,
          doc: null,
        },
        { name: "AUTO", params: [], managed: "auto", event: false, doc: null },
      ],
      schemas: [
        {
          name: "greeting",
          fields: [
            { name: "who", type: "string" },
            { name: "times", type: "integer" },
            { name: "tags", type: "[string]" },
            { name: "other", type: null },
          ],
        },
      ],
      tables: [
        {
          name: "greetings",
          schema: "greeting",
          fields: [
            { name: "who", type: "string" },
            { name: "times", type: "integer" },
            { name: "tags", type: "[string]" },
            { name: "other", type: null },
          ],
        },
        { name: "foreign", schema: "coin.coin-schema", fields: null },
      ],
      constants: [{ name: "LIMIT", type: "integer" }],
    });
  });

  it("reads a keyset governance and an interface", () => {
    const keyset = moduleOutline(`(module m 'admin-ks (defun f () 1))`);
    assert.deepEqual("governance" in keyset && keyset.governance, {
      kind: "keyset",
      name: "admin-ks",
    });
    const iface = moduleOutline(`(interface i (defun f:integer (a:integer)) (defconst C 1))`);
    assert.equal("kind" in iface && iface.kind, "interface");
    assert.equal("governance" in iface && iface.governance, null);
  });

  it("says why there is no outline", () => {
    assert.deepEqual(moduleOutline("(+ 1 2)"), { problem: "the code holds no module" });
    const broken = moduleOutline("(module m g");
    assert.match("problem" in broken ? broken.problem : "", /^the code does not parse: /);
  });
});
