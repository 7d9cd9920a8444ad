import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ON_CHAIN_NATIVES } from "../../../execution/natives.ts";
import { defaultEnv } from "../../eval/env.ts";
import { Runtime } from "../../eval/runtime.ts";
import { evaluateConstant } from "../../eval/toplevel.ts";
import { parseProgram } from "../../syntax/parser.ts";
import type { CompileUnit } from "../context.ts";
import { DefConstDef, type LoadedModule } from "../ir.ts";
import { compileInterface, compileModule } from "../module.ts";
import {
  assignInterfaceHash,
  assignModuleHash,
  encodeInterface,
  encodeStoredInterface,
  encodeStoredModule,
} from "./index.ts";

/**
 * Compiles every module and interface of `source` in order (each sees the ones before it),
 * evaluates its constants and hashes it, without running governance; returns them by name.
 */
function define(source: string, rt = new Runtime(defaultEnv(ON_CHAIN_NATIVES))) {
  const unit = unitOf(source, rt);
  const defined = new Map<string, LoadedModule>();
  for (const form of parseProgram(source, "t.pact")) {
    if (form.kind !== "module" && form.kind !== "interface") continue;
    const module =
      form.kind === "module" ? compileModule(form, unit) : compileInterface(form, unit);
    for (const def of module.defs.values()) {
      if (def instanceof DefConstDef) evaluateConstant(rt, def);
    }
    if (form.kind === "module" && module.kind === "module") assignModuleHash(form, module, unit);
    if (form.kind === "interface" && module.kind === "interface") {
      assignInterfaceHash(form, module, unit);
    }
    rt.loaded.install(module);
    defined.set(module.info.rendered, module);
  }
  return defined;
}

function unitOf(source: string, rt = new Runtime(defaultEnv(ON_CHAIN_NATIVES))): CompileUnit {
  return { file: "t.pact", source, natives: ON_CHAIN_NATIVES, names: rt.loaded, coverage: null };
}

/** The one interface of `source`, parsed, and its compile unit. */
function interfaceForm(source: string) {
  const unit = unitOf(source);
  const [form] = parseProgram(source, "t.pact");
  if (form?.kind !== "interface") throw new Error("not an interface");
  return { form, unit };
}

const hashOf = (source: string, name: string) => define(source).get(name)!.info.hash;

// Expected hashes are Pact 5's, from its own tests that define the same modules.
describe("Pact module hash", () => {
  it("matches Pact for a capability-governed module with a defun", () => {
    const source = "(module m G (defcap G () true) (defun f () true))";
    assert.equal(hashOf(source, "m"), "52-WL_as7YnpYIZWKOvvxFUCpC7F5Hxe2xm7S7TOHEc");
  });

  it("ignores layout, comments and documentation", () => {
    const source = `
      (module m G
        @doc "the module"
        (defcap G () @doc "governance" true) ; comment
        (defun f ()
          "a docstring"
          true))`;
    assert.equal(hashOf(source, "m"), "52-WL_as7YnpYIZWKOvvxFUCpC7F5Hxe2xm7S7TOHEc");
  });

  it("matches Pact for typed parameters and a sequence", () => {
    const source =
      "(module m g (defcap g () true) (defun f:integer (a:integer b:integer c:string) (do a b)))";
    assert.equal(hashOf(source, "m"), "nv2apbz7RTDv53cf46_3VX1msHQzBgTEqfxumYRGdf8");
  });

  it("matches Pact for a keyset-governed module with a constant, a schema and a table", () => {
    const source = `(module impure 'k
      (defconst VERSION 1)
      (defschema foo-schema value:integer)
      (deftable foo:{foo-schema})
      (defun ins (k v) (insert foo k v)))`;
    assert.equal(hashOf(source, "impure"), "GJs2NrH3KhRHB6dk-P_QVc0Hsl6gF3PE1HPlIKRyYO0");
  });

  it("matches Pact for event capabilities, and changes with a constant's value", () => {
    const version = (v: number, params: string, emit: string) => `(module A g
      (defcap g () true)
      (defconst A_VERSION:integer ${v})
      (defcap A_EVENT (${params}) @event 1)
      (defun emit-a (a:integer) (emit-event (A_EVENT ${emit}))))`;
    assert.equal(
      hashOf(version(1, "a:integer", "a"), "A"),
      "eUXxnKczPNGardQAz-nFnoIpp0e90I63XHq1mvQ0s7A",
    );
    assert.equal(
      hashOf(version(2, "a:integer b:integer", "a a"), "A"),
      "YkqNXWA9pNH9cFhfOM4fwPvi427v5jjo29tb6mFNAXA",
    );
  });

  const crossChain = (name: string, nested: string, resumeNested: string) => `
    (module ${name} GOV
      (defcap GOV () true)
      (defschema schema-a a-result:string)
      (defpact cross-chain (name)
        (step
          (let* ((nameA (+ name "->A"))
                 (r:object{schema-a} { "a-result": nameA }))
            ${nested}
            (yield r "")
            nameA))
        (step
          (resume { "a-result" := ar }
            ${resumeNested}
            (+ ar "->B")))))`;

  it("matches Pact for a defpact with let*, a typed binder, yield and resume", () => {
    assert.equal(
      hashOf(crossChain("cross-chain-tester", "", ""), "cross-chain-tester"),
      "kuBrddl82uCHbhV1ECaH7fMf00Pq9lc2mPShU4Us_Jg",
    );
  });

  it("matches Pact for a module calling another one (its hash is part of the names)", () => {
    const source =
      crossChain("nested-tester", "", "") +
      crossChain(
        "cross-chain-tester",
        "(nested-tester.cross-chain name)",
        "(continue (nested-tester.cross-chain name))",
      );
    assert.equal(
      hashOf(source, "cross-chain-tester"),
      "J7Ua1U7GmzmmoMpEz3mASyG5aYEPGT6zZAkDZn7bl9I",
    );
  });

  it("changes when a module used by the code changes", () => {
    const user = "(module u G (defcap G () true) (defun g () (d.f)))";
    const first = define(`(module d G (defcap G () true) (defun f () 1)) ${user}`);
    const second = define(`(module d G (defcap G () true) (defun f () 2)) ${user}`);
    assert.notEqual(first.get("d")!.info.hash, second.get("d")!.info.hash);
    assert.notEqual(first.get("u")!.info.hash, second.get("u")!.info.hash);
  });

  it("names namespaced modules, interface constants, module references and dynamic calls", () => {
    // Not from Pact's tests: the encoding was checked by hand against Pact's renamer; the hash
    // keeps it from changing unnoticed.
    const rt = new Runtime(defaultEnv(ON_CHAIN_NATIVES));
    rt.loaded.namespace = "free";
    const defined = define(
      `(interface ifc (defconst C:integer 1) (defun g:integer (x:integer)))
       (module m G (defcap G () true) (implements ifc)
         (defun g:integer (x:integer) (+ x ifc.C))
         (defun f () m)
         (defun h (r:module{ifc}) (r::g 1)))`,
      rt,
    );
    assert.equal(defined.get("free.ifc")!.info.hash, "7Jaarz8xPoZ23rxrefCLt8RBec6dmRMZvpVGUJ6LsU8");
    assert.equal(defined.get("free.m")!.info.hash, "cyZAlqSpD2t5Ui9VfEF7e-saZwhI7EVzV_2PaY1K0ss");
  });

  it("gives the module's own tables in constant values the new hash", () => {
    const m = define(`(module m G (defcap G () true)
      (defschema s a:integer) (deftable t:{s}) (defconst T t))`).get("m")!;
    const value = (m.defs.get("T") as DefConstDef).value as { moduleHash: string };
    assert.equal(value.moduleHash, m.info.hash);
  });
});

describe("interface encoding", () => {
  it("writes the name, the signatures in definition order, the imports and blank hashes", () => {
    const { form, unit } = interfaceForm("(interface i (defun f:bool (x:integer)))");
    const bytes = encodeInterface(form, compileInterface(form, unit), unit);
    assert.equal(
      Buffer.from(bytes).toString("hex"),
      [
        "86", // Interface: 6 fields
        "82616980", // name ["i", no namespace]
        "9f", // definitions
        "8200", // IfDfun
        "83", // IfDefun: spec, arguments, info
        "83616681820002f6", // spec: "f", Just bool, ()
        "9f83617881820000f6ff", // arguments: ["x", Just integer, ()]
        "f6", // info
        "ff",
        "80", // imports
        "4040", // blank hash and transaction hash
        "f6", // info
      ].join(""),
    );
  });

  it("writes an installed interface as Pact stores it: hashes, lines as infos, no dependencies", () => {
    const { form, unit } = interfaceForm("(interface i\n  (defun f:bool\n    (x:integer)))");
    const iface = compileInterface(form, unit);
    assignInterfaceHash(form, iface, unit);
    const txHash = "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g";
    const bytes = encodeStoredInterface(form, iface, unit, txHash);
    const hex = (b64: string) => Buffer.from(b64, "base64url").toString("hex");
    assert.equal(
      Buffer.from(bytes).toString("hex"),
      [
        "8201", // InterfaceData
        "86", // Interface: 6 fields
        "82616980", // name ["i", no namespace]
        "9f", // definitions
        "8200", // IfDfun
        "83", // IfDefun: spec, arguments, info
        "8361668182000201", // spec: "f", Just bool, line 1
        "9f8361788182000002ff", // arguments: ["x", Just integer, line 2]
        "01", // info: the form's line
        "ff",
        "80", // imports
        `5820${hex(iface.info.hash)}`, // its hash
        `5820${hex(txHash)}`, // the hash of the transaction that installed it
        "00", // info: line 0
        "a0", // no dependencies
      ].join(""),
    );
  });

  it("writes an installed module as Pact stores it: every node's line, its own hash in names", () => {
    const source = "(module m G\n  (defcap G () true)\n  (defun f () true))";
    const module = define(source).get("m")!;
    const [form] = parseProgram(source, "t.pact");
    if (form?.kind !== "module" || module.kind !== "module") throw new Error("not a module");
    const txHash = "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g";
    const bytes = encodeStoredModule(form, module, unitOf(source), txHash);
    const hex = (b64: string) => Buffer.from(b64, "base64url").toString("hex");
    const own = `5820${hex(module.info.hash)}`;
    assert.equal(
      Buffer.from(bytes).toString("hex"),
      [
        "8200", // ModuleData
        "89", // Module: 9 fields
        "82616d80", // name ["m", no namespace]
        `82018382616d806147${own}`, // governance: the capability m.G with the module's hash
        "9f", // definitions, in Pact's order
        "820084", // Dfun: spec, arguments, term, info
        "8361668002", // spec: "f", no type, line 2
        "80", // no arguments
        "830583088204f50202", // Nullary (the constant true, line 2), line 2
        "02", // info: line 2
        "820285", // DCap: spec, arguments, term, meta, info
        "8361478001", // spec: "G", no type, line 1
        "80", // no arguments
        "83088204f501", // the constant true, line 1
        "8102", // unmanaged
        "01", // info: line 1
        "ff",
        "808080", // blessed, imports, implements
        own,
        `5820${hex(txHash)}`,
        "00", // info: line 0
        "a0", // no dependencies
      ].join(""),
    );
  });
});
