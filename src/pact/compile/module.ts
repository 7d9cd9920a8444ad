/**
 * `module` and `interface` forms → `ModuleData` / `InterfaceData`. Members are compiled in
 * dependency order (recursion is rejected here, as in Pact), each member resolving its names once
 * against the members compiled before it, the module's imports and the top-level names. Constants
 * are evaluated afterwards by the evaluator (`defineModule` in src/pact/eval), which then gives
 * the module its hash: Pact's hash covers the constants' values (see ./module-hash). Until then
 * the module's hash is empty.
 */
import { PactError } from "../runtime/errors.ts";
import type {
  Annotation,
  Arg,
  Def,
  DefCap,
  DefConst,
  DefPact,
  DefSchema,
  DefTable,
  Defun,
  Interface,
  InterfaceDef,
  Module,
  PactType,
  Use,
} from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";
import type { ModuleName, PactType as ResolvedType } from "../values/types.ts";
import {
  type CompileUnit,
  type CurrentModule,
  desugarError,
  type NameResolver,
} from "./context.ts";
import { type DefNode, dependencyOrder, ReferenceCollector } from "./dependencies.ts";
import { compileExpr, compileSequence, type ExprScope, lambdaInfo } from "./expr.ts";
import { importMembers, isModuleHash, toImport } from "./imports.ts";
import {
  type CapMeta,
  DefCapDef,
  DefConstDef,
  type Definition,
  DefPactDef,
  DefSchemaDef,
  type DefSource,
  DefTableDef,
  DefunDef,
  type Governance,
  type Import,
  type InterfaceData,
  type InterfaceDefinition,
  type ModuleData,
  type ModuleDefinition,
  type ModuleInfo,
  moduleInfo,
  type Node,
  type PactStepCode,
  type Param,
  type SignatureCapMeta,
  SignatureDef,
} from "./ir.ts";
import { qualifiedName, renderModuleName } from "./names.ts";
import { resolveBareName, resolveQualifiedName } from "./resolve.ts";
import { FrameLayout } from "./scope.ts";
import { resolveSchema, resolveType } from "./type-resolve.ts";
import { sameType } from "./types.ts";

/** Names in scope inside a module: its members compiled so far, then imports, then the top level. */
class ModuleScope implements NameResolver {
  readonly binds = new Map<string, Definition>();
  readonly members = new Map<string, Definition>();
  /** Top-level names the code used. */
  readonly toplevelUsed = new Map<string, Definition>();
  readonly current: CurrentModule;
  constructor(
    private readonly parent: NameResolver,
    name: ModuleName,
    kind: "module" | "interface",
    public implementsList: readonly ModuleName[],
  ) {
    const members = this.members;
    const self = this;
    this.current = {
      name,
      kind,
      get implements() {
        return self.implementsList;
      },
      member: (n) => members.get(n),
    };
  }
  get namespace() {
    return this.parent.namespace;
  }
  bare(name: string): Definition | undefined {
    const own = this.binds.get(name);
    if (own !== undefined) return own;
    const top = this.parent.bare(name);
    if (top !== undefined) this.toplevelUsed.set(name, top);
    return top;
  }
  module(name: ModuleName) {
    return this.parent.module(name);
  }
  add(def: Definition): void {
    this.binds.set(def.name, def);
    this.members.set(def.name, def);
  }
}

/** The module's name with the current namespace applied. */
function mangle(name: string, unit: CompileUnit): ModuleName {
  return { namespace: unit.names.namespace, name };
}

function sourceOf(unit: CompileUnit, span: Span, nameSpan: Span, doc: string | null): DefSource {
  return { file: unit.file, span, nameSpan, doc };
}

export function compileModule(m: Module, unit: CompileUnit): ModuleData {
  const name = mangle(m.name, unit);
  const code = unit.source.slice(m.span.start, m.span.end);
  const info = moduleInfo(name, "");
  const scope = new ModuleScope(unit.names, name, "module", []);
  const inner: CompileUnit = { ...unit, names: scope };

  const imports: Import[] = [];
  const blessed = new Set<string>();
  const implemented: ModuleName[] = [];
  for (const ext of m.extensions) {
    switch (ext.kind) {
      case "bless":
        if (!isModuleHash(ext.hash)) {
          throw desugarError(
            `Invalid blessed hash, incorrect format: ${ext.hash}`,
            ext.span,
            unit.file,
          );
        }
        blessed.add(ext.hash);
        break;
      case "use":
        imports.push(toImport(ext, unit));
        break;
      case "implements":
        implemented.push(ext.interface);
        break;
    }
  }

  checkDuplicates(m.defs, name, m.span, unit);
  const ordered = orderDefinitions(m.defs, name, unit, defRefs(m.defs, name, unit));
  const governance = resolveGovernance(m, name, unit);
  for (const imp of imports) addImports(scope, imp, m.span, inner);
  const interfaces = implemented.map((i) => resolveInterface(i, m.span, inner));
  scope.implementsList = interfaces.map((i) => i.info.name);

  const defs = new Map<string, ModuleDefinition>();
  for (const node of ordered) {
    const def = compileDef(node.def, info, scope, inner);
    scope.add(def);
    defs.set(def.name, def);
  }
  for (const iface of interfaces) checkImplements(iface, defs, name, m.span, unit);
  const gov: Governance =
    governance.kind === "keyset"
      ? governance
      : { kind: "capability", cap: defs.get(governance.name) as DefCapDef };
  return {
    kind: "module",
    info,
    governance: gov,
    defs,
    blessed,
    imports,
    implements: interfaces.map((i) => i.info.name),
    code,
    source: sourceOf(unit, m.span, m.nameSpan, docOf(m.annotations)),
    toplevelNames: scope.toplevelUsed,
  };
}

export function compileInterface(i: Interface, unit: CompileUnit): InterfaceData {
  const name = mangle(i.name, unit);
  const code = unit.source.slice(i.span.start, i.span.end);
  const info = moduleInfo(name, "");
  const scope = new ModuleScope(unit.names, name, "interface", []);
  const inner: CompileUnit = { ...unit, names: scope };
  const imports = i.imports.map((u: Use) => toImport(u, unit));
  checkDuplicates(i.defs, name, i.span, unit);
  const defunNames = new Set(i.defs.filter((d) => d.kind === "defun").map((d) => d.name));
  const ordered = orderDefinitions(i.defs, name, unit, interfaceRefs(i.defs, name, unit));
  for (const imp of imports) addImports(scope, imp, i.span, inner);
  const defs = new Map<string, InterfaceDefinition>();
  for (const node of ordered) {
    const def = compileInterfaceDef(node.def, info, defunNames, scope, inner);
    scope.add(def);
    defs.set(def.name, def);
  }
  return {
    kind: "interface",
    info,
    defs,
    imports,
    code,
    source: sourceOf(unit, i.span, i.nameSpan, docOf(i.annotations)),
    toplevelNames: scope.toplevelUsed,
  };
}

// ---------------------------------------------------------------------------------------------
// Checks on the whole module

function checkDuplicates(
  defs: readonly { readonly name: string; readonly span: Span }[],
  module: ModuleName,
  span: Span,
  unit: CompileUnit,
): void {
  const seen = new Set<string>();
  for (const d of defs) {
    if (seen.has(d.name)) {
      throw desugarError(`Duplicate definition: ${qualifiedName(module, d.name)}`, span, unit.file);
    }
    seen.add(d.name);
  }
}

function orderDefinitions<T extends { readonly name: string; readonly span: Span }>(
  defs: readonly T[],
  module: ModuleName,
  unit: CompileUnit,
  refs: (def: T) => ReadonlySet<string>,
): readonly DefNode<T>[] {
  const nodes = defs.map((def) => ({ name: def.name, def, refs: refs(def) }));
  const result = dependencyOrder(nodes);
  if ("cycle" in result) {
    const names = result.cycle.map((n) => n.name).join(", ");
    throw desugarError(
      `Recursive cycle detected in Module ${renderModuleName(module)} in the following functions: [${names}]`,
      result.cycle[0]!.def.span,
      unit.file,
    );
  }
  return result.order;
}

function defRefs(defs: readonly Def[], module: ModuleName, unit: CompileUnit) {
  const siblings = new Set(defs.map((d) => d.name));
  return (def: Def): ReadonlySet<string> => {
    const c = new ReferenceCollector(siblings, module, unit.natives);
    const none = new Set<string>();
    switch (def.kind) {
      case "defun":
      case "defcap": {
        const bound = new Set(def.params.map((p) => p.name));
        for (const p of def.params) c.arg(p);
        if (def.returnType !== null) c.type(def.returnType);
        for (const x of def.body) c.expr(x, bound);
        if (def.kind === "defcap" && def.meta?.kind === "managed" && def.meta.manager !== null) {
          c.name(def.meta.manager.fn, none);
        }
        break;
      }
      case "defpact": {
        const bound = new Set(def.params.map((p) => p.name));
        for (const p of def.params) c.arg(p);
        if (def.returnType !== null) c.type(def.returnType);
        for (const step of def.steps) {
          c.expr(step.expr, bound);
          if (step.kind === "step-with-rollback") c.expr(step.rollback, bound);
        }
        break;
      }
      case "defconst":
        if (def.type !== null) c.type(def.type);
        c.expr(def.value, none);
        break;
      case "defschema":
        for (const f of def.fields) c.type(f.type);
        break;
      case "deftable":
        c.name(def.schema, none);
        break;
    }
    return c.refs;
  };
}

function interfaceRefs(defs: readonly InterfaceDef[], module: ModuleName, unit: CompileUnit) {
  const siblings = new Set(defs.map((d) => d.name));
  return (def: InterfaceDef): ReadonlySet<string> => {
    const c = new ReferenceCollector(siblings, module, unit.natives);
    switch (def.kind) {
      case "defconst":
        if (def.type !== null) c.type(def.type);
        c.expr(def.value, new Set());
        break;
      case "defschema":
        for (const f of def.fields) c.type(f.type);
        break;
      default:
        for (const p of def.params) c.arg(p);
        if (def.returnType !== null) c.type(def.returnType);
    }
    return c.refs;
  };
}

type GovernanceSpec =
  | { readonly kind: "keyset"; readonly keyset: string }
  | { readonly kind: "capability"; readonly name: string };

function resolveGovernance(m: Module, module: ModuleName, unit: CompileUnit): GovernanceSpec {
  if (m.governance.kind === "keyset") return m.governance;
  const capName = m.governance.name;
  const def = m.defs.find((d) => d.name === capName);
  if (def === undefined || def.kind !== "defcap" || def.params.length > 0) {
    throw desugarError(
      `Invalid governance. Must be a 0-argument defcap or a keyset. Found ${qualifiedName(module, capName)}`,
      m.span,
      unit.file,
    );
  }
  return { kind: "capability", name: capName };
}

function addImports(scope: ModuleScope, imp: Import, span: Span, unit: CompileUnit): void {
  for (const [n, def] of importMembers(imp, span, unit).members) scope.binds.set(n, def);
}

function resolveInterface(name: ModuleName, span: Span, unit: CompileUnit): InterfaceData {
  const found =
    unit.names.module(name) ??
    (name.namespace === null && unit.names.namespace !== null
      ? unit.names.module({ namespace: unit.names.namespace, name: name.name })
      : undefined);
  if (found === undefined) {
    throw desugarError(`Cannot find module:  ${renderModuleName(name)}`, span, unit.file);
  }
  if (found.kind !== "interface") {
    throw desugarError(
      `Invalid Interface attempted to be used as module reference: ${renderModuleName(name)}`,
      span,
      unit.file,
    );
  }
  return found;
}

function checkImplements(
  iface: InterfaceData,
  defs: ReadonlyMap<string, ModuleDefinition>,
  module: ModuleName,
  span: Span,
  unit: CompileUnit,
): void {
  const ifName = renderModuleName(iface.info.name);
  const modName = renderModuleName(module);
  const mismatch = (member: string) =>
    desugarError(
      `Module ${modName} does not correctly implement the function ${member} from Interface ${ifName}`,
      span,
      unit.file,
    );
  for (const sig of iface.defs.values()) {
    if (!(sig instanceof SignatureDef)) continue;
    const impl = defs.get(sig.name);
    if (impl === undefined) {
      throw desugarError(
        `Interface member not implemented, module ${modName} does not implement interface ${ifName} member: ${sig.name}`,
        span,
        unit.file,
      );
    }
    if (impl.defKind !== sig.defKind) throw mismatch(impl.name);
    const fn = impl as DefunDef | DefCapDef | DefPactDef;
    if (sig.defKind === "defcap" && !sameCapMeta((fn as DefCapDef).meta, sig.meta, module)) {
      throw mismatch(`: defcap mismatch for ${impl.name}`);
    }
    if (!sameParams(fn.params, sig.params) || !sameType(fn.returnType, sig.returnType)) {
      throw mismatch(impl.name);
    }
  }
}

function sameParams(a: readonly Param[], b: readonly Param[]): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => p.name === b[i]!.name && sameType(p.type, b[i]!.type))
  );
}

function sameCapMeta(
  impl: CapMeta | null,
  sig: SignatureCapMeta | null,
  module: ModuleName,
): boolean {
  if (impl === null || sig === null) return impl === sig;
  if (impl.kind !== sig.kind) return false;
  if (impl.kind === "event" || sig.kind === "event") return true;
  if (sig.manager === null) return true;
  if (impl.manager === null) return false;
  return (
    impl.manager.paramIndex === sig.manager.paramIndex &&
    impl.manager.fn.name === sig.manager.fn &&
    renderModuleName(impl.manager.fn.module.name) === renderModuleName(module)
  );
}

// ---------------------------------------------------------------------------------------------
// Members

function topScope(unit: CompileUnit, inDefcap: boolean): ExprScope {
  return {
    unit,
    layout: new FrameLayout(0, null),
    locals: null,
    inDefcap,
    cover: unit.coverage === null ? null : { line: -1 },
  };
}

function params(args: readonly Arg[], unit: CompileUnit): Param[] {
  return args.map((a) => ({
    name: a.name,
    type: a.type === null ? null : resolveType(a.type, a.span, unit),
    span: a.span,
  }));
}

function returnType(
  def: { readonly returnType: PactType | null; readonly nameSpan: Span },
  unit: CompileUnit,
): ResolvedType | null {
  return def.returnType === null ? null : resolveType(def.returnType, def.nameSpan, unit);
}

function compileDef(
  def: Def,
  info: ModuleInfo,
  scope: ModuleScope,
  unit: CompileUnit,
): ModuleDefinition {
  switch (def.kind) {
    case "defun":
      return compileDefun(def, info, unit);
    case "defcap":
      return compileDefCap(def, info, scope, unit);
    case "defpact":
      return compileDefPact(def, info, unit);
    case "defconst":
      return compileDefConst(def, info, unit);
    case "defschema":
      return compileDefSchema(def, info, unit);
    case "deftable":
      return compileDefTable(def, info, unit);
  }
}

/** Compiles a body in a fresh frame with the parameters in its first slots. */
function compileBody(
  p: readonly Arg[],
  body: (s: ExprScope) => Node,
  unit: CompileUnit,
  inDefcap: boolean,
) {
  return lambdaInfo(p, body, topScope(unit, inDefcap));
}

/**
 * `onCreate` sees the function before its body is compiled (the REPL makes a top-level `defun`
 * visible to its own body).
 */
export function compileDefun(
  def: Defun,
  info: ModuleInfo,
  unit: CompileUnit,
  onCreate?: (fn: DefunDef) => void,
): DefunDef {
  const source = sourceOf(unit, def.span, def.nameSpan, docOf(def.annotations));
  const fn = new DefunDef(
    info,
    def.name,
    source,
    params(def.params, unit),
    returnType(def, unit),
    0,
  );
  onCreate?.(fn);
  const compiled = compileBody(
    def.params,
    (s) => compileSequence(def.body, def.span, s),
    unit,
    false,
  );
  fn.frameSize = compiled.frameSize;
  fn.body = coverFunction(compiled.body, fn.qualifiedName, def.span, unit);
  return fn;
}

function compileDefCap(
  def: DefCap,
  info: ModuleInfo,
  scope: ModuleScope,
  unit: CompileUnit,
): DefCapDef {
  const source = sourceOf(unit, def.span, def.nameSpan, docOf(def.annotations));
  const compiled = compileBody(
    def.params,
    (s) => compileSequence(def.body, def.span, s),
    unit,
    true,
  );
  const cap = new DefCapDef(
    info,
    def.name,
    source,
    compiled.params,
    returnType(def, unit),
    compiled.frameSize,
  );
  cap.body = coverFunction(compiled.body, cap.qualifiedName, def.span, unit);
  cap.meta = capMeta(def, scope, unit);
  return cap;
}

/** With coverage on, counts each entry into a function (lcov's `FNDA`). */
function coverFunction(body: Node, name: string, span: Span, unit: CompileUnit): Node {
  if (unit.coverage === null) return body;
  unit.coverage.declareFunction(unit.file, name, span.line);
  return { op: "cover", file: unit.file, line: span.line, fn: name, body, span };
}

function capMeta(def: DefCap, scope: ModuleScope, unit: CompileUnit): CapMeta | null {
  const meta = def.meta;
  if (meta === null) return null;
  if (meta.kind === "event") return { kind: "event" };
  if (meta.manager === null) return { kind: "managed", manager: null };
  const paramIndex = def.params.findIndex((p) => p.name === meta.manager!.param);
  if (paramIndex < 0) {
    throw desugarError(
      `Invalid Managed arg: no such arg with name ${meta.manager.param}`,
      def.span,
      unit.file,
    );
  }
  const fnName = meta.manager.fn;
  const resolved =
    fnName.kind === "bare"
      ? resolveBareName(fnName.name, def.span, unit)
      : fnName.kind === "qualified"
        ? resolveQualifiedName(fnName.module, fnName.name, def.span, unit)
        : null;
  const written =
    fnName.kind === "qualified" ? `${renderModuleName(fnName.module)}.${fnName.name}` : fnName.name;
  if (resolved === null || resolved.kind !== "def" || !(resolved.def instanceof DefunDef)) {
    const qn =
      resolved !== null && resolved.kind === "def"
        ? resolved.def.qualifiedName
        : qualifiedName(scope.current.name, written);
    throw desugarError(
      `${qn} is not a valid managed capability manager function. ${qn} must be a defun`,
      def.span,
      unit.file,
    );
  }
  return { kind: "managed", manager: { paramIndex, param: meta.manager.param, fn: resolved.def } };
}

function compileDefPact(def: DefPact, info: ModuleInfo, unit: CompileUnit): DefPactDef {
  const qn = qualifiedName(info.name, def.name);
  const last = def.steps[def.steps.length - 1];
  if (last !== undefined && last.kind === "step-with-rollback") {
    throw desugarError(`rollbacks aren't allowed on the last step in: ${qn}`, def.span, unit.file);
  }
  const source = sourceOf(unit, def.span, def.nameSpan, docOf(def.annotations));
  let steps: PactStepCode[] = [];
  const compiled = compileBody(
    def.params,
    (s) => {
      steps = def.steps.map((step) => {
        if (step.entity !== null) {
          throw new PactError(
            "execution",
            `Pact 5 does not support entity expressions in defpact ${qn}. Please ensure your defpact steps have the correct number of expressions`,
            def.span,
            [],
            unit.file,
          );
        }
        return {
          expr: compileExpr(step.expr, s),
          rollback: step.kind === "step-with-rollback" ? compileExpr(step.rollback, s) : null,
          span: step.span,
        };
      });
      return { op: "const", value: true, span: def.span };
    },
    unit,
    false,
  );
  const pact = new DefPactDef(
    info,
    def.name,
    source,
    compiled.params,
    returnType(def, unit),
    compiled.frameSize,
  );
  pact.steps = steps;
  unit.coverage?.declareFunction(unit.file, pact.qualifiedName, def.span.line);
  return pact;
}

export function compileDefConst(def: DefConst, info: ModuleInfo, unit: CompileUnit): DefConstDef {
  const source = sourceOf(unit, def.span, def.nameSpan, def.doc?.text ?? null);
  const type = def.type === null ? null : resolveType(def.type, def.nameSpan, unit);
  const init = compileBody([], (s) => compileExpr(def.value, s), unit, false);
  return new DefConstDef(info, def.name, source, type, init);
}

function compileDefSchema(def: DefSchema, info: ModuleInfo, unit: CompileUnit): DefSchemaDef {
  const source = sourceOf(unit, def.span, def.nameSpan, docOf(def.annotations));
  const fields = new Map<string, ResolvedType>();
  for (const f of def.fields) fields.set(f.name, resolveType(f.type, f.span, unit));
  return new DefSchemaDef(info, def.name, source, {
    name: qualifiedName(info.name, def.name),
    fields,
  });
}

function compileDefTable(def: DefTable, info: ModuleInfo, unit: CompileUnit): DefTableDef {
  const source = sourceOf(unit, def.span, def.nameSpan, def.doc?.text ?? null);
  const schemaName = def.schema;
  if (schemaName.kind === "dynamic") {
    throw desugarError(
      `Unbound type variable ${schemaName.ref}::${schemaName.name}`,
      def.span,
      unit.file,
    );
  }
  const schema = resolveSchema(schemaName, def.span, unit);
  return new DefTableDef(info, def.name, source, schema);
}

function compileInterfaceDef(
  def: InterfaceDef,
  info: ModuleInfo,
  defuns: ReadonlySet<string>,
  scope: ModuleScope,
  unit: CompileUnit,
): InterfaceDefinition {
  switch (def.kind) {
    case "defconst":
      return compileDefConst(def, info, unit);
    case "defschema":
      return compileDefSchema(def, info, unit);
    default: {
      const source = sourceOf(unit, def.span, def.nameSpan, docOf(def.annotations));
      let meta: SignatureCapMeta | null = null;
      if (def.kind === "defcap" && def.meta !== null) {
        const m = def.meta;
        if (m.kind === "event") meta = { kind: "event" };
        else if (m.manager === null) meta = { kind: "managed", manager: null };
        else {
          const paramIndex = def.params.findIndex((p) => p.name === m.manager!.param);
          if (paramIndex < 0) {
            throw desugarError(
              `Invalid Managed arg: no such arg with name ${m.manager.param}`,
              def.span,
              unit.file,
            );
          }
          const fn = m.manager.fn;
          const fnName = fn.kind === "dynamic" ? fn.name : fn.name;
          if (!defuns.has(fnName)) {
            throw desugarError(
              `Module ${renderModuleName(scope.current.name)} has no such member: ${fnName}`,
              def.span,
              unit.file,
            );
          }
          meta = { kind: "managed", manager: { paramIndex, param: m.manager.param, fn: fnName } };
        }
      }
      return new SignatureDef(
        info,
        def.name,
        source,
        def.kind,
        params(def.params, unit),
        returnType(def, unit),
        meta,
      );
    }
  }
}

function docOf(annotations: readonly Annotation[]): string | null {
  for (const a of annotations) if (a.kind === "doc") return a.text;
  return null;
}
