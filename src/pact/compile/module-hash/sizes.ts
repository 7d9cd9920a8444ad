/**
 * Pact 5's size estimate (`SizeOf`, version `SizeOfV0`) of a module or interface as its IR holds
 * it after renaming, which deployment gas is priced by (src/pact/gas/modules.ts, docs/gas.md).
 *
 * The walk goes over the same desugared terms the module hash is taken of (desugar.ts), and
 * resolves names the same way (terms.ts), so it sees Pact's shape: one `Term` node per variable,
 * lambda, `let` binding, application, builtin form, builtin, literal, sequence link, list and
 * object, each with an `info` field; definitions and their `Arg`s with theirs. The rules are
 * those of src/pact/gas/size-of.ts: a record's tag 1 byte, a variant's 2, an array 5, text its
 * UTF-8 bytes + 4; a de Bruijn index (a Word64) 9, an `Int` 5, a hash its bytes + 4.
 *
 * What differs between the sizes Pact takes (before and after evaluating constants, with or
 * without source information, with a placeholder or the real hash) is kept apart in a
 * {@link Tally}: the `info` fields, the builtins (whose size depends on whether the REPL's builtins
 * are in the type), the references to the module's own hash, and each constant's term and value.
 * The transitive-dependency walk Pact does before storing a module needs each definition's term
 * nodes and the fully qualified names it mentions, in the order Pact visits them; the walk
 * records those too.
 */

import {
  ARRAY,
  integerSize,
  moduleNameSize,
  schemaSize,
  sizeOf,
  TAG,
  textSize,
  typeSize,
  VARIANT,
} from "../../gas/size-of.ts";
import { parseKeysetName } from "../../runtime/keyset-names.ts";
import type { Def, Interface, InterfaceDef, LiteralValue, Module } from "../../syntax/ast.ts";
import type { PactType, PactValue } from "../../values/types.ts";
import type { CompileUnit } from "../context.ts";
import type {
  DefCapDef,
  DefSchemaDef,
  DefTableDef,
  InterfaceData,
  LoadedModule,
  ModuleData,
  ModuleInfo,
} from "../ir.ts";
import { resolveBareName, resolveQualifiedName } from "../resolve.ts";
import { resolveType } from "../type-resolve.ts";
import { type DArg, Desugarer, type DTerm } from "./desugar.ts";
import { rawName, withMemberScope } from "./index.ts";
import { bindAll, type Locals, lookup } from "./terms.ts";

/** A de Bruijn index: a `Word64`. */
const INDEX = 9;
/** An `Int` (a managed capability's parameter position). */
const INT = 5;
/** A Blake2b-256 hash (a module or transaction hash): 32 bytes + 4. */
export const HASH_SIZE = 36;
/** The placeholder hash a module's references to itself carry until it is hashed (`#placeholder`). */
export const MODULE_PLACEHOLDER_SIZE = 16;
/** The same for an interface (`placeholder`). */
export const INTERFACE_PLACEHOLDER_SIZE = 15;

/**
 * A fully qualified name (module, name, hash): what a definition is stored and found by. The
 * hash is read from the module when used, as a module being deployed gets its hash after its
 * sizes are taken.
 */
export interface QualifiedRef {
  readonly module: ModuleInfo;
  readonly name: string;
}

/** Sizes of part of a module, with what depends on the moment Pact measures kept apart. */
export class Tally {
  /** Bytes that are always counted. */
  bytes = 0;
  /** `info` fields: nothing while desugaring and hashing, the source information when stored. */
  infos = 0;
  /** Builtin references (each a `CoreBuiltin`, or in the REPL a `ReplBuiltin`). */
  builtins = 0;
  /** References to the module's own hash: the placeholder's size, then the real hash's. */
  ownHashes = 0;
}

/** One definition's sizes, and what the transitive-dependency walk needs of it. */
export interface DefinitionSizes {
  readonly name: string;
  /** The definition without a constant's value or term. */
  readonly tally: Tally;
  /** A constant's term before evaluation (`TermConst`), null for other definitions. */
  readonly constTerm: Tally | null;
  /** Whether the walk looks into it (defuns, capabilities, defpacts). */
  readonly hasDependents: boolean;
  /**
   * An interface's function, capability or defpact signature: not a definition others load
   * (Pact's `ifDefToDef` keeps only an interface's constants and schemas).
   */
  readonly signature: boolean;
  /** Term nodes the walk visits. */
  readonly terms: number;
  /**
   * The top-level names it mentions, in the walk's order (a managed capability's manager first);
   * a constant's are those of its term, which the walk does not visit.
   */
  readonly refs: readonly QualifiedRef[];
}

export interface ModuleSizes {
  /** The module or interface without its definitions. */
  readonly header: Tally;
  readonly defs: readonly DefinitionSizes[];
}

/** Everything {@link DefinitionSizes} collects while walking one definition. */
class DefinitionWalk {
  readonly tally = new Tally();
  terms = 0;
  readonly refs: QualifiedRef[] = [];
}

class Sizer {
  constructor(
    private readonly unit: CompileUnit,
    private readonly self: ModuleInfo,
  ) {}

  /** `Arg`: name, optional type, info. */
  arg(a: DArg, t: Tally): void {
    t.bytes += TAG + textSize(a.name) + VARIANT;
    if (a.type !== null) t.bytes += typeSize(resolveType(a.type, a.span, this.unit));
    t.infos++;
  }

  args(args: readonly DArg[], t: Tally): void {
    t.bytes += ARRAY;
    for (const a of args) this.arg(a, t);
  }

  term(x: DTerm, locals: Locals | null, w: DefinitionWalk): void {
    const t = w.tally;
    w.terms++;
    t.bytes += VARIANT;
    t.infos++;
    switch (x.t) {
      case "var":
        this.name(x, locals, w);
        return;
      case "lam":
        this.args(x.args, t);
        this.term(x.body, bindAll(locals, x.args, 0), w);
        return;
      case "let":
        this.arg(x.arg, t);
        this.term(x.value, locals, w);
        this.term(x.body, bindAll(locals, [x.arg], 0), w);
        return;
      case "app":
        this.term(x.fn, locals, w);
        t.bytes += ARRAY;
        for (const a of x.args) this.term(a, locals, w);
        return;
      case "seq":
        this.term(x.first, locals, w);
        this.term(x.rest, locals, w);
        return;
      case "nullary":
        this.term(x.body, locals, w);
        return;
      case "form":
        t.bytes += VARIANT;
        for (const a of x.args) this.term(a, locals, w);
        return;
      case "builtin":
        t.builtins++;
        return;
      case "const":
        t.bytes += literalSize(x.value);
        return;
      case "list":
        t.bytes += ARRAY;
        for (const a of x.items) this.term(a, locals, w);
        return;
      case "object":
        t.bytes += ARRAY;
        for (const [field, value] of x.fields) {
          t.bytes += TAG + textSize(field);
          this.term(value, locals, w);
        }
        return;
    }
  }

  /** `Name`: the name as written and its `NameKind`. */
  private name(x: Extract<DTerm, { t: "var" }>, locals: Locals | null, w: DefinitionWalk): void {
    const t = w.tally;
    const n = x.name;
    t.bytes += TAG + VARIANT;
    switch (n.kind) {
      case "bare":
        t.bytes += textSize(n.name);
        if (lookup(locals, n.name) !== null) t.bytes += INDEX;
        else this.free(resolveBareName(n.name, x.span, this.unit), w);
        return;
      case "qualified":
        t.bytes += textSize(n.name);
        this.free(resolveQualifiedName(n.module, n.name, x.span, this.unit), w);
        return;
      case "dynamic":
        // NDynRef: the member's name and the reference's index.
        t.bytes += textSize(n.ref) + TAG + textSize(n.name) + INDEX;
        return;
    }
  }

  private free(r: ReturnType<typeof resolveBareName>, w: DefinitionWalk): void {
    const t = w.tally;
    if (r.kind === "def") {
      // NTopLevel module hash
      const module = r.def.module;
      t.bytes += moduleNameSize(module.name);
      this.hash(module, t);
      w.refs.push({ module, name: r.def.name });
      return;
    }
    // NModRef module interfaces
    t.bytes += moduleNameSize(r.value.module) + ARRAY;
    for (const m of r.value.interfaces) t.bytes += moduleNameSize(m);
  }

  /** A module hash inside a name: the module's own, or another's. */
  hash(module: ModuleInfo, t: Tally): void {
    if (module === this.self) t.ownHashes++;
    else t.bytes += HASH_SIZE;
  }

  /** `FullyQualifiedName`: module, name, hash. */
  fullyQualified(module: ModuleInfo, name: string, t: Tally): void {
    t.bytes += TAG + moduleNameSize(module.name) + textSize(name);
    this.hash(module, t);
  }
}

function literalSize(v: LiteralValue): number {
  if (typeof v === "string") return VARIANT + textSize(v);
  if (typeof v === "bigint") return VARIANT + integerSize(v);
  if (typeof v === "boolean") return VARIANT + TAG;
  if ("mantissa" in v) return VARIANT + TAG + TAG + integerSize(v.mantissa); // places: a Word8
  return VARIANT; // unit
}

function schemaFieldsSize(fields: ReadonlyMap<string, PactType>): number {
  let n = ARRAY;
  for (const [name, type] of fields) n += TAG + textSize(name) + typeSize(type);
  return n;
}

function spec(name: string, type: DArg["type"], span: DArg["span"]): DArg {
  return { name, type, span };
}

function finish(
  name: string,
  w: DefinitionWalk,
  constTerm: Tally | null,
  hasDependents: boolean,
  signature = false,
): DefinitionSizes {
  return {
    name,
    tally: w.tally,
    constTerm,
    hasDependents,
    signature,
    terms: w.terms,
    refs: w.refs,
  };
}

/** A defconst: the definition, and its term apart (its value is sized once evaluated). */
function constSizes(
  s: Sizer,
  desugar: Desugarer,
  def: Extract<Def, { kind: "defconst" }>,
): DefinitionSizes {
  const w = new DefinitionWalk();
  const t = w.tally;
  t.bytes += VARIANT + TAG + VARIANT; // Def, DefConst, ConstVal
  s.arg(spec(def.name, def.type, def.nameSpan), t);
  t.infos++;
  // The walk collects the term's names into the definition's, for an interface's dependencies.
  const term = new DefinitionWalk();
  s.term(desugar.term(def.value), null, term);
  w.refs.push(...term.refs);
  return finish(def.name, w, term.tally, false);
}

function schemaSizes(name: string, fields: ReadonlyMap<string, PactType>): DefinitionSizes {
  const w = new DefinitionWalk();
  w.tally.bytes += VARIANT + TAG + textSize(name) + schemaFieldsSize(fields);
  w.tally.infos++;
  return finish(name, w, null, false);
}

function moduleDefSizes(
  s: Sizer,
  desugar: Desugarer,
  def: Def,
  module: ModuleData,
): DefinitionSizes {
  const compiled = module.defs.get(def.name);
  const w = new DefinitionWalk();
  const t = w.tally;
  switch (def.kind) {
    case "defun":
      t.bytes += VARIANT + TAG;
      s.arg(spec(def.name, def.returnType, def.nameSpan), t);
      s.args(def.params, t);
      s.term(desugar.lambda(def.params, desugar.sequence(def.body, def.span), def.span), null, w);
      t.infos++;
      return finish(def.name, w, null, true);
    case "defconst":
      return constSizes(s, desugar, def);
    case "defcap": {
      t.bytes += VARIANT + TAG;
      s.arg(spec(def.name, def.returnType, def.nameSpan), t);
      s.args(def.params, t);
      // DefCapMeta: the manager is checked before the body is walked.
      const meta = (compiled as DefCapDef).meta;
      t.bytes += VARIANT;
      if (meta?.kind === "managed") {
        t.bytes += VARIANT;
        if (meta.manager !== null) {
          const fn = meta.manager.fn;
          t.bytes += TAG + INT + textSize(meta.manager.param) + VARIANT;
          s.fullyQualified(fn.module, fn.name, t);
          w.refs.push({ module: fn.module, name: fn.name });
        }
      }
      s.term(desugar.sequence(def.body, def.span), bindAll(null, def.params, 0), w);
      t.infos++;
      return finish(def.name, w, null, true);
    }
    case "defpact": {
      t.bytes += VARIANT + TAG;
      s.arg(spec(def.name, def.returnType, def.nameSpan), t);
      s.args(def.params, t);
      const locals = bindAll(null, def.params, 0);
      t.bytes += ARRAY;
      for (const step of def.steps) {
        t.bytes += VARIANT;
        s.term(desugar.term(step.expr), locals, w);
        if (step.kind === "step-with-rollback") s.term(desugar.term(step.rollback), locals, w);
      }
      t.infos++;
      return finish(def.name, w, null, true);
    }
    case "defschema":
      return schemaSizes(def.name, (compiled as DefSchemaDef).schema.fields);
    case "deftable":
      // DefTable name (ResolvedTable schema) info
      t.bytes += VARIANT + TAG + textSize(def.name) + VARIANT;
      t.bytes += schemaSize((compiled as DefTableDef).schema);
      t.infos++;
      return finish(def.name, w, null, false);
  }
}

function interfaceDefSizes(
  s: Sizer,
  desugar: Desugarer,
  def: InterfaceDef,
  iface: InterfaceData,
): DefinitionSizes {
  if (def.kind === "defconst") return constSizes(s, desugar, def);
  if (def.kind === "defschema") {
    return schemaSizes(def.name, (iface.defs.get(def.name) as DefSchemaDef).schema.fields);
  }
  const w = new DefinitionWalk();
  const t = w.tally;
  t.bytes += VARIANT + TAG;
  s.arg(spec(def.name, def.returnType, def.nameSpan), t);
  s.args(def.params, t);
  if (def.kind === "defcap") {
    // DefCapMeta BareName: the manager by its bare name.
    t.bytes += VARIANT;
    if (def.meta?.kind === "managed") {
      t.bytes += VARIANT;
      const manager = def.meta.manager;
      if (manager !== null) {
        t.bytes += TAG + INT + textSize(manager.param) + textSize(rawName(manager.fn));
      }
    }
  }
  t.infos++;
  return finish(def.name, w, null, false, true);
}

/** `Import`: module, optional hash, optional names. */
function importsSize(module: LoadedModule): number {
  let n = ARRAY;
  for (const imp of module.imports) {
    n += TAG + moduleNameSize(imp.module) + VARIANT + VARIANT;
    if (imp.hash !== null) n += HASH_SIZE;
    if (imp.names !== null) {
      n += ARRAY;
      for (const name of imp.names) n += textSize(name);
    }
  }
  return n;
}

/** The sizes of a compiled module, walked over its parse tree. */
export function moduleSizes(form: Module, module: ModuleData, unit: CompileUnit): ModuleSizes {
  const s = new Sizer(withMemberScope(unit, module, form), module.info);
  const desugar = new Desugarer(unit.natives);
  const h = new Tally();
  h.bytes += TAG + moduleNameSize(module.info.name);
  const gov = module.governance;
  h.bytes += VARIANT;
  if (gov.kind === "keyset") {
    const name = parseKeysetName(gov.keyset);
    h.bytes += TAG + textSize(name?.name ?? gov.keyset) + VARIANT;
    if (name?.namespace != null) h.bytes += textSize(name.namespace);
  } else {
    h.bytes += VARIANT; // FQName
    s.fullyQualified(gov.cap.module, gov.cap.name, h);
  }
  h.bytes += ARRAY; // definitions
  h.bytes += ARRAY + module.blessed.size * HASH_SIZE;
  h.bytes += importsSize(module);
  h.bytes += ARRAY;
  for (const m of module.implements) h.bytes += moduleNameSize(m);
  h.ownHashes++; // the module hash
  h.bytes += HASH_SIZE; // the transaction hash; the module code is kept apart, so empty
  h.infos++;
  const defs = form.defs.map((d) => moduleDefSizes(s, desugar, d, module));
  return { header: h, defs };
}

/** The same for an interface. */
export function interfaceSizes(
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
): ModuleSizes {
  const s = new Sizer(withMemberScope(unit, iface, form), iface.info);
  const desugar = new Desugarer(unit.natives);
  const h = new Tally();
  h.bytes += TAG + moduleNameSize(iface.info.name) + ARRAY + importsSize(iface);
  h.ownHashes++;
  h.bytes += HASH_SIZE;
  h.infos++;
  const defs = form.defs.map((d) => interfaceDefSizes(s, desugar, d, iface));
  return { header: h, defs };
}

// ---------------------------------------------------------------------------------------------
// Measuring

/** What a size is taken with: bytes per info field and builtin, and the size of the own hash. */
export interface Measure {
  readonly infoBytes: number;
  readonly builtinBytes: number;
  readonly ownHashBytes: number;
}

export function tallySize(t: Tally, m: Measure): number {
  return (
    t.bytes + t.infos * m.infoBytes + t.builtins * m.builtinBytes + t.ownHashes * m.ownHashBytes
  );
}

/** A definition's size with its constant's term (`value` undefined) or value. */
export function definitionSize(
  d: DefinitionSizes,
  value: PactValue | undefined,
  m: Measure,
): number {
  let n = tallySize(d.tally, m);
  if (d.constTerm !== null) n += value === undefined ? tallySize(d.constTerm, m) : sizeOf(value);
  return n;
}

/**
 * A module's size: `values` gives each constant's value, or nothing before they are evaluated.
 */
export function moduleSize(
  sizes: ModuleSizes,
  values: (name: string) => PactValue | undefined,
  m: Measure,
): number {
  let n = tallySize(sizes.header, m);
  for (const d of sizes.defs) n += definitionSize(d, values(d.name), m);
  return n;
}

/** `FullyQualifiedName` of another module's member, as a key of the stored dependencies. */
export function qualifiedRefSize(ref: QualifiedRef): number {
  return TAG + moduleNameSize(ref.module.name) + textSize(ref.name) + HASH_SIZE;
}

/** The stored `ModuleData`/`InterfaceData` wrapper and its dependency map's header. */
export const MODULE_DATA_OVERHEAD = VARIANT + ARRAY;
/** One entry of the dependency map: a pair. */
export const DEPENDENCY_ENTRY_OVERHEAD = TAG;
