import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ON_CHAIN_NATIVES } from "../../../execution/natives.ts";
import { defaultEnv } from "../../eval/env.ts";
import { Runtime } from "../../eval/runtime.ts";
import { parseProgram } from "../../syntax/parser.ts";
import type { CompileUnit } from "../context.ts";
import { compileInterface, compileModule } from "../module.ts";
import { interfaceSizes, moduleSizes, Tally, tallySize } from "./sizes.ts";

/** The sizes of the first module or interface of `source`, compiled without running. */
function sizesOf(source: string) {
  const rt = new Runtime(defaultEnv(ON_CHAIN_NATIVES));
  const unit: CompileUnit = {
    file: "t.pact",
    source,
    natives: ON_CHAIN_NATIVES,
    names: rt.loaded,
    coverage: null,
  };
  const [form] = parseProgram(source, "t.pact");
  if (form?.kind === "module") {
    const module = compileModule(form, unit);
    if (module.kind === "module") return moduleSizes(form, module, unit);
  }
  if (form?.kind === "interface") {
    const iface = compileInterface(form, unit);
    if (iface.kind === "interface") return interfaceSizes(form, iface, unit);
  }
  throw new Error("no module");
}

function tally(bytes: number, infos: number, builtins = 0, ownHashes = 0): Tally {
  return Object.assign(new Tally(), { bytes, infos, builtins, ownHashes });
}

const MODULE = `
(module m "ks"
  (defschema s a:integer)
  (deftable t:{s})
  (defconst C:decimal 1.5)
  (defun f (x:integer) (let ((y 1)) (+ x y)))
  (defcap CAP (a:integer) @managed a mgr true)
  (defun mgr (a:integer b:integer) a)
  (defpact p () (step-with-rollback 1 2) (step {"k": [true]})))`;

// Sizes follow Pact's SizeOf: record tag 1, variant 2, array 5, text + 4, integer 8, de Bruijn
// index 9, Int 5; an integer type (TyPrim) 3; an Arg is 1 + name + 2 (+ its type).
describe("module sizes (Pact's SizeOf of the renamed module)", () => {
  const sizes = sizesOf(MODULE);
  const def = (name: string) => sizes.defs.find((d) => d.name === name)!;

  it("the module's own fields, its hash kept apart", () => {
    // tag 1, name "m" 8, KeyGov (2 + 1 + "ks" 6 + no namespace 2), definitions, blessed,
    // imports and implements 5 each, the transaction hash 36; the module hash and info apart
    assert.deepEqual(sizes.header, tally(1 + 8 + 11 + 4 * 5 + 36, 1, 0, 1));
  });

  it("schemas and tables", () => {
    // Def 2, DefSchema 1, "s" 5, fields 5 + (1 + "a" 5 + integer 3)
    assert.deepEqual(def("s").tally, tally(2 + 1 + 5 + 5 + 9, 1));
    // Def 2, DefTable 1, "t" 5, ResolvedTable 2, Schema (1 + m.s (1 + 5 + 8) + fields 14)
    assert.deepEqual(def("t").tally, tally(2 + 1 + 5 + 2 + (1 + 14 + 14), 1));
  });

  it("a constant, its term apart from the definition", () => {
    // Def 2, DefConst 1, ConstVal 2, Arg C:decimal (1 + 5 + 2 + 3)
    assert.deepEqual(def("C").tally, tally(2 + 1 + 2 + 11, 2));
    // Constant (2) of a decimal literal: 2 + DecimalRaw (1 + places 1 + mantissa 8)
    assert.deepEqual(def("C").constTerm, tally(2 + 2 + 1 + 1 + 8, 1));
  });

  it("a defun: a lambda over a let and a builtin application", () => {
    const f = def("f");
    // Def 2, Defun 1, Arg f 8, parameters 5 + x 11; Lam 2 + [x] 16; Let 2 + y 8 + literal 12;
    // App 2 + builtin 2 (its own size apart) + arguments 5 + two bound names (2 + 1 + 2 + 5 + 9)
    const body = 2 + 16 + (2 + 8 + 12 + (2 + 2 + 5 + 2 * 19));
    assert.deepEqual(f.tally, tally(2 + 1 + 8 + 16 + body, 12, 1));
    assert.equal(f.terms, 7);
    assert.deepEqual(f.refs, []);
  });

  it("a managed capability names its manager first", () => {
    const cap = def("CAP");
    // Def 2, DefCap 1, Arg CAP 10, parameters 16; DefManaged 2 + DefManagedMeta 2 + (1 + Int 5
    // + "a" 5) + FQName 2 + (1 + m 8 + "mgr" 7 + own hash); body `true` 5
    assert.deepEqual(cap.tally, tally(2 + 1 + 10 + 16 + (2 + 2 + 11 + 2 + 16) + 5, 4, 0, 1));
    assert.deepEqual(
      cap.refs.map((r) => `${r.module.rendered}.${r.name}`),
      ["m.mgr"],
    );
    assert.equal(def("mgr").tally.bytes, 2 + 1 + 10 + 27 + (2 + 5 + 22 + 19));
  });

  it("a defpact: steps with and without rollback, object and list literals", () => {
    const p = def("p");
    // Def 2, DefPact 1, Arg p 8, parameters 5, steps 5; StepWithRollback 2 + two literals 12;
    // Step 2 + ObjectLit (2 + 5 + (1 + "k" 5 + ListLit (2 + 5 + `true` 5)))
    assert.deepEqual(p.tally, tally(2 + 1 + 8 + 5 + 5 + (2 + 24) + (2 + 2 + 5 + 6 + 12), 7));
    assert.equal(p.terms, 5);
  });

  it("measured with source information, builtins and the own hash", () => {
    const t = def("f").tally;
    assert.equal(
      tallySize(t, { infoBytes: 5, builtinBytes: 2, ownHashBytes: 36 }),
      t.bytes + 12 * 5 + 2,
    );
  });
});

describe("interface sizes", () => {
  it("signatures are not loadable definitions; a capability names its manager bare", () => {
    const sizes = sizesOf(
      "(interface i (defcap T:bool (a:integer) @managed a T-mgr) (defun T-mgr:integer (a:integer b:integer)))",
    );
    // tag 1, "i" 8, definitions 5, imports 5, transaction hash 36
    assert.deepEqual(sizes.header, tally(1 + 8 + 5 + 5 + 36, 1, 0, 1));
    const [cap, mgr] = sizes.defs;
    // IfDef 2, IfDefCap 1, Arg T:bool 11, parameters 16, DefManaged 2 + DefManagedMeta 2 +
    // (1 + 5 + "a" 5) + "T-mgr" 9
    assert.deepEqual(cap!.tally, tally(2 + 1 + 11 + 16 + 2 + 2 + 11 + 9, 3));
    assert.equal(cap!.signature, true);
    assert.equal(mgr!.signature, true);
  });
});
