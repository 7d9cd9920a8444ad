/**
 * Pact 5's module and interface hashes (`Pact.Core.IR.ModuleHashing`): Blake2b-256, as unpadded
 * base64url, of the CBOR encoding (`SerialiseV1`) of the module as Pact holds it after
 * desugaring, renaming and evaluating its constants, with the hash fields blanked and every
 * source position erased.
 *
 * How the bytes are produced: the module's parse tree is desugared the way Pact desugars it
 * (desugar.ts), its definitions are put in Pact's order (order.ts), and each definition is
 * renamed and written in one pass (terms.ts), resolving free names with the compiler's own
 * resolver over the module's members, imports and top-level names. Constants are written as the
 * values they evaluated to, so the hash can only be taken once they are evaluated. References to
 * the module's own members carry Pact's placeholder hash (`#placeholder` for modules,
 * `placeholder` for interfaces); references to other modules carry those modules' hashes, so a
 * module's hash changes when a module it uses changes.
 *
 * The module code itself is not hashed: two modules that differ only in layout, comments or
 * documentation have the same hash.
 *
 * The same writer gives the module as Pact stores it once installed (`encodeStoredModule`,
 * `encodeStoredInterface`): its real hash where the hashed form has the placeholder, the
 * installing transaction's hash, and every node's first line (0-based) where the hashed form has
 * erased its position. A transaction's `logs` hash covers those bytes.
 */
import { blake2b256, decodeBase64Url, encodeBase64Url } from "../../../crypto/index.ts";
import { parseKeysetName } from "../../runtime/keyset-names.ts";
import type { Def, DefCap, Interface, InterfaceDef, Module, ParsedName } from "../../syntax/ast.ts";
import { CborWriter } from "../../values/cbor.ts";
import {
  fullyQualifiedName,
  hashBytes,
  moduleName,
  pactValue,
  schema,
  schemaFields,
} from "../../values/cbor-values.ts";
import type { ModuleName } from "../../values/types.ts";
import type { CompileUnit, CurrentModule, NameResolver } from "../context.ts";
import { importMembers } from "../imports.ts";
import {
  type DefCapDef,
  DefConstDef,
  type Definition,
  type DefSchemaDef,
  type DefTableDef,
  type InterfaceData,
  type LoadedModule,
  type ModuleData,
} from "../ir.ts";
import { type DArg, Desugarer } from "./desugar.ts";
import { definitionOrder, SiblingRefs } from "./order.ts";
import { updateOwnHashes } from "./own-hashes.ts";
import { bindAll, TermEncoder } from "./terms.ts";

const utf8 = new TextEncoder();

/** The hash a module's references to its own members carry while it is hashed. */
export const MODULE_PLACEHOLDER_HASH: Uint8Array = utf8.encode("#placeholder");
/** The same for an interface. */
export const INTERFACE_PLACEHOLDER_HASH: Uint8Array = utf8.encode("placeholder");

/** The hash of a compiled module whose constants have been evaluated. */
export function pactModuleHash(form: Module, module: ModuleData, unit: CompileUnit): string {
  return encodeBase64Url(blake2b256(encodeModule(form, module, unit)));
}

/** The hash of a compiled interface whose constants have been evaluated. */
export function pactInterfaceHash(
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
): string {
  return encodeBase64Url(blake2b256(encodeInterface(form, iface, unit)));
}

/**
 * Gives a compiled module whose constants have been evaluated its hash, and points the values of
 * its constants that refer to the module itself at that hash.
 */
export function assignModuleHash(form: Module, module: ModuleData, unit: CompileUnit): void {
  module.info.hash = pactModuleHash(form, module, unit);
  updateOwnHashes(module);
}

/** The same for an interface. */
export function assignInterfaceHash(
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
): void {
  iface.info.hash = pactInterfaceHash(form, iface, unit);
  updateOwnHashes(iface);
}

/** A definition ready to be written: the siblings it mentions, and how to write it. */
interface Prepared {
  readonly key: string;
  readonly refs: ReadonlySet<string>;
  write(e: TermEncoder): void;
}

/** The bytes Pact hashes for a module. */
export function encodeModule(form: Module, module: ModuleData, unit: CompileUnit): Uint8Array {
  return written((w) => writeModule(w, form, module, unit, null));
}

/**
 * An installed module as Pact 5 stores it (`ModuleData`, the CBOR after the document's
 * version): its own hash where the hashed form has the placeholder, the hash of the transaction
 * that installed it, every node's 0-based line as its info, and no dependencies: only for a
 * module whose definitions name no other module (`modulesNamed`), since Braid does not write the
 * definitions Pact stores with one that does.
 */
export function encodeStoredModule(
  form: Module,
  module: ModuleData,
  unit: CompileUnit,
  txHash: string,
): Uint8Array {
  return written((w) => stored(w, MODULE_DATA, () => writeModule(w, form, module, unit, txHash)));
}

/** The bytes Pact hashes for an interface. */
export function encodeInterface(
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
): Uint8Array {
  return written((w) => writeInterface(w, form, iface, unit, null));
}

/** The same as {@link encodeStoredModule} for an interface (`InterfaceData`). */
export function encodeStoredInterface(
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
  txHash: string,
): Uint8Array {
  return written((w) =>
    stored(w, INTERFACE_DATA, () => writeInterface(w, form, iface, unit, txHash)),
  );
}

/** `ModuleData`'s constructors, as its encoding tags them. */
const MODULE_DATA = 0;
const INTERFACE_DATA = 1;

function written(write: (w: CborWriter) => void): Uint8Array {
  const w = new CborWriter();
  write(w);
  return w.bytes();
}

/** `ModuleData` or `InterfaceData`: the tag, the module, and no dependencies. */
function stored(w: CborWriter, tag: number, writeModule: () => void): void {
  w.listLen(2).word(tag);
  writeModule();
  w.mapLen(0);
}

/** The module as hashed (`txHash` null) or as stored (the installing transaction's hash). */
function writeModule(
  w: CborWriter,
  form: Module,
  module: ModuleData,
  unit: CompileUnit,
  txHash: string | null,
): void {
  const e = encoderFor(w, form, module, unit, MODULE_PLACEHOLDER_HASH, txHash);
  const desugar = new Desugarer(unit.natives);
  const siblings = new Set(form.defs.map((d) => d.name));
  const prepared = form.defs.map((d) => prepareDef(d, module, desugar, siblings));

  w.listLen(9);
  moduleName(w, module.info.name);
  governance(e, module);
  writeInOrder(e, prepared);
  blessed(w, module.blessed);
  imports(w, module);
  w.list(module.implements, (x, m: ModuleName) => moduleName(x, m));
  writeHashes(e, module, txHash, form);
}

/** The interface as hashed (`txHash` null) or as stored (the installing transaction's hash). */
function writeInterface(
  w: CborWriter,
  form: Interface,
  iface: InterfaceData,
  unit: CompileUnit,
  txHash: string | null,
): void {
  const e = encoderFor(w, form, iface, unit, INTERFACE_PLACEHOLDER_HASH, txHash);
  const desugar = new Desugarer(unit.natives);
  const siblings = new Set(form.defs.map((d) => d.name));
  const prepared = form.defs.map((d) => prepareInterfaceDef(d, iface, desugar, siblings));

  w.listLen(6);
  moduleName(w, iface.info.name);
  writeInOrder(e, prepared);
  imports(w, iface);
  writeHashes(e, iface, txHash, form);
}

/**
 * The term encoder of a module: its own members named with `placeholder` and positions erased
 * when hashed, with its hash and lines when stored.
 */
function encoderFor(
  w: CborWriter,
  form: Module | Interface,
  module: LoadedModule,
  unit: CompileUnit,
  placeholder: Uint8Array,
  txHash: string | null,
): TermEncoder {
  const scoped = withMemberScope(unit, module, form);
  const own = txHash === null ? placeholder : hashBytes(module.info.hash);
  return new TermEncoder(w, scoped, module.info, own, txHash !== null);
}

/** The hashes and info closing a module or interface: blank when hashed, real when stored. */
function writeHashes(
  e: TermEncoder,
  module: LoadedModule,
  txHash: string | null,
  form: Module | Interface,
): void {
  if (txHash === null) {
    e.w.byteString(new Uint8Array(0)).byteString(new Uint8Array(0)).null();
  } else {
    e.w.byteString(hashBytes(module.info.hash)).byteString(decodeBase64Url(txHash));
    e.info(form.span);
  }
}

function writeInOrder(e: TermEncoder, prepared: readonly Prepared[]): void {
  const order = definitionOrder(prepared);
  e.w.list(order, (_, i) => prepared[i]!.write(e));
}

// ---------------------------------------------------------------------------------------------
// Definitions

function refsOf(
  siblings: ReadonlySet<string>,
  module: ModuleName,
  collect: (r: SiblingRefs) => void,
): ReadonlySet<string> {
  const r = new SiblingRefs(siblings, module);
  collect(r);
  return r.refs;
}

function spec(name: string, type: DArg["type"], span: DArg["span"]): DArg {
  return { name, type, span };
}

function prepareDef(
  def: Def,
  module: ModuleData,
  desugar: Desugarer,
  siblings: ReadonlySet<string>,
): Prepared {
  const self = module.info.name;
  const compiled = module.defs.get(def.name);
  switch (def.kind) {
    case "defun": {
      const term = desugar.lambda(def.params, desugar.sequence(def.body, def.span), def.span);
      const refs = refsOf(siblings, self, (r) => {
        r.term(term);
        for (const p of def.params) r.arg(p);
        if (def.returnType !== null) r.type(def.returnType);
      });
      return {
        key: def.name,
        refs,
        write: (e) => {
          e.w.listLen(2).word(0).listLen(4);
          e.arg(spec(def.name, def.returnType, def.nameSpan));
          e.args(def.params);
          e.term(term, null, 0);
          e.info(def.span);
        },
      };
    }
    case "defconst":
      return prepareConst(def, compiled, desugar, siblings, self);
    case "defcap": {
      const term = desugar.sequence(def.body, def.span);
      const refs = refsOf(siblings, self, (r) => {
        for (const p of def.params) r.arg(p);
        if (def.returnType !== null) r.type(def.returnType);
        r.term(term);
        if (def.meta?.kind === "managed" && def.meta.manager !== null) r.name(def.meta.manager.fn);
      });
      return {
        key: def.name,
        refs,
        write: (e) => {
          e.w.listLen(2).word(2).listLen(5);
          e.arg(spec(def.name, def.returnType, def.nameSpan));
          e.args(def.params);
          e.term(term, bindAll(null, def.params, 0), def.params.length);
          capMeta(e, def, compiled as DefCapDef);
          e.info(def.span);
        },
      };
    }
    case "defpact": {
      const steps = def.steps.map((s) => ({
        expr: desugar.term(s.expr),
        rollback: s.kind === "step-with-rollback" ? desugar.term(s.rollback) : null,
      }));
      const refs = refsOf(siblings, self, (r) => {
        for (const p of def.params) r.arg(p);
        if (def.returnType !== null) r.type(def.returnType);
        for (const s of steps) {
          r.term(s.expr);
          if (s.rollback !== null) r.term(s.rollback);
        }
      });
      return {
        key: def.name,
        refs,
        write: (e) => {
          e.w.listLen(2).word(5).listLen(4);
          e.arg(spec(def.name, def.returnType, def.nameSpan));
          e.args(def.params);
          const locals = bindAll(null, def.params, 0);
          const depth = def.params.length;
          e.w.list(steps, (w, s) => {
            if (s.rollback === null) {
              w.listLen(2).word(0);
              e.term(s.expr, locals, depth);
            } else {
              w.listLen(3).word(1);
              e.term(s.expr, locals, depth);
              e.term(s.rollback, locals, depth);
            }
          });
          e.info(def.span);
        },
      };
    }
    case "defschema":
      return prepareSchema(def, compiled, siblings, self);
    case "deftable": {
      const refs = refsOf(siblings, self, (r) => r.name(def.schema));
      return {
        key: def.name,
        refs,
        write: (e) => {
          e.w.listLen(2).word(4).listLen(3).text(def.name);
          schema(e.w, (compiled as DefTableDef).schema);
          e.info(def.span);
        },
      };
    }
  }
}

function prepareInterfaceDef(
  def: InterfaceDef,
  iface: InterfaceData,
  desugar: Desugarer,
  siblings: ReadonlySet<string>,
): Prepared {
  const self = iface.info.name;
  const compiled = iface.defs.get(def.name);
  switch (def.kind) {
    case "defconst":
      return prepareConst(def, compiled, desugar, siblings, self);
    case "defschema":
      return prepareSchema(def, compiled, siblings, self);
    default: {
      const manager =
        def.kind === "defcap" && def.meta?.kind === "managed" ? def.meta.manager : null;
      const refs = refsOf(siblings, self, (r) => {
        for (const p of def.params) r.arg(p);
        if (def.returnType !== null) r.type(def.returnType);
        // The manager of a capability signature is named by its bare name.
        if (manager !== null) r.name({ kind: "bare", name: rawName(manager.fn) });
      });
      const tag = def.kind === "defun" ? 0 : def.kind === "defcap" ? 2 : 4;
      return {
        key: def.name,
        refs,
        write: (e) => {
          e.w
            .listLen(2)
            .word(tag)
            .listLen(def.kind === "defcap" ? 4 : 3);
          e.arg(spec(def.name, def.returnType, def.nameSpan));
          e.args(def.params);
          if (def.kind === "defcap") {
            capMetaHeader(e, def, (w) => w.text(rawName(manager!.fn)));
          }
          e.info(def.span);
        },
      };
    }
  }
}

/** The name part of a parsed name (Pact's `rawParsedName`): `f` of `m.f`, `ref` of `ref::f`. */
export function rawName(n: ParsedName): string {
  return n.kind === "dynamic" ? n.ref : n.name;
}

function prepareConst(
  def: Extract<Def, { kind: "defconst" }>,
  compiled: Definition | undefined,
  desugar: Desugarer,
  siblings: ReadonlySet<string>,
  self: ModuleName,
): Prepared {
  const term = desugar.term(def.value);
  const refs = refsOf(siblings, self, (r) => {
    r.term(term);
    if (def.type !== null) r.type(def.type);
  });
  return {
    key: def.name,
    refs,
    write: (e) => {
      e.w.listLen(2).word(1).listLen(3);
      e.arg(spec(def.name, def.type, def.nameSpan));
      const value = compiled instanceof DefConstDef ? compiled.value : undefined;
      if (value !== undefined) {
        e.w.listLen(2).word(1);
        pactValue(e.w, value, e.hashed);
      } else {
        // Not evaluated (only when compiling without running): the term, as Pact has it before.
        e.w.listLen(2).word(0);
        e.term(term, null, 0);
      }
      e.info(def.span);
    },
  };
}

function prepareSchema(
  def: Extract<Def, { kind: "defschema" }>,
  compiled: Definition | undefined,
  siblings: ReadonlySet<string>,
  self: ModuleName,
): Prepared {
  const refs = refsOf(siblings, self, (r) => {
    for (const f of def.fields) r.type(f.type);
  });
  return {
    key: def.name,
    refs,
    write: (e) => {
      e.w.listLen(2).word(3).listLen(3).text(def.name);
      schemaFields(e.w, (compiled as DefSchemaDef).schema.fields);
      e.info(def.span);
    },
  };
}

/** `DefCapMeta` of a module's capability: the manager as a fully qualified name. */
function capMeta(e: TermEncoder, def: DefCap, compiled: DefCapDef): void {
  capMetaHeader(e, def, (w) => {
    const meta = compiled.meta;
    if (meta?.kind !== "managed" || meta.manager === null) {
      throw new Error(`module hash: ${def.name} lost its manager`);
    }
    const fn = meta.manager.fn;
    fullyQualifiedName(w, fn.module.name, fn.name, e.hashOf(fn.module));
  });
}

/** `DefCapMeta`: event, managed (automatically or by a named manager), or neither. */
function capMetaHeader(
  e: TermEncoder,
  def: { readonly meta: DefCap["meta"]; readonly params: DefCap["params"] },
  manager: (w: CborWriter) => void,
): void {
  const w = e.w;
  const meta = def.meta;
  if (meta === null) {
    w.listLen(1).word(2);
  } else if (meta.kind === "event") {
    w.listLen(1).word(0);
  } else if (meta.manager === null) {
    w.listLen(2).word(1).listLen(1).word(1);
  } else {
    const param = meta.manager.param;
    const index = def.params.findIndex((p) => p.name === param);
    w.listLen(2).word(1).listLen(3).word(0).listLen(2).integer(index).text(param);
    manager(w);
  }
}

// ---------------------------------------------------------------------------------------------
// Module parts

function governance(e: TermEncoder, module: ModuleData): void {
  const w = e.w;
  const gov = module.governance;
  w.listLen(2);
  if (gov.kind === "keyset") {
    const name = parseKeysetName(gov.keyset);
    if (name === null) throw new Error(`module hash: bad keyset name ${gov.keyset}`);
    w.word(0).listLen(2).text(name.name);
    w.maybe(name.namespace, (x, ns) => x.text(ns));
  } else {
    w.word(1);
    fullyQualifiedName(w, module.info.name, gov.cap.name, e.hashOf(gov.cap.module));
  }
}

/** `Set ModuleHash`: ascending byte order, without duplicates. */
function blessed(w: CborWriter, hashes: ReadonlySet<string>): void {
  const all = [...hashes].map(hashBytes).sort(compareBytes);
  const unique = all.filter((h, i) => i === 0 || compareBytes(all[i - 1]!, h) !== 0);
  w.listLen(unique.length);
  for (const h of unique) w.byteString(h);
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** `[Import]`: the module as written, the pinned hash, the imported names. */
function imports(w: CborWriter, module: LoadedModule): void {
  w.list(module.imports, (x, imp) => {
    x.listLen(3);
    moduleName(x, imp.module);
    x.maybe(imp.hash, (y, h) => y.byteString(hashBytes(h)));
    x.maybe(imp.names, (y, names) => y.list(names, (z, n) => z.text(n)));
  });
}

// ---------------------------------------------------------------------------------------------
// Names in scope

/**
 * `unit` with the module's names in scope, as the compiler had them: the members of its imports,
 * then its own members, then whatever `unit` resolves; qualified self-references and module
 * references to the module itself resolve to the module being hashed.
 */
export function withMemberScope(
  unit: CompileUnit,
  module: LoadedModule,
  form: Module | Interface,
): CompileUnit {
  const binds = new Map<string, Definition>();
  for (const imp of module.imports) {
    for (const [n, def] of importMembers(imp, form.span, unit).members) binds.set(n, def);
  }
  for (const [n, def] of module.defs) binds.set(n, def);
  const parent = unit.names;
  const current: CurrentModule = {
    name: module.info.name,
    kind: module.kind,
    implements: module.kind === "module" ? module.implements : [],
    member: (n) => module.defs.get(n),
  };
  const names: NameResolver = {
    namespace: parent.namespace,
    current,
    bare: (n) => binds.get(n) ?? parent.bare(n),
    module: (n) => parent.module(n),
  };
  return { ...unit, names };
}
