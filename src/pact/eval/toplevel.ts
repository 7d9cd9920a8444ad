/**
 * Running one top-level form: an expression, a `use`, a module or interface definition, or (in a
 * `.repl` file) a top-level `defun`/`defconst`. Compiles the form against the names the runtime
 * has loaded, then evaluates it.
 */

import type { CompileUnit } from "../compile/context.ts";
import { compileExpr } from "../compile/expr.ts";
import { importMembers, toImport } from "../compile/imports.ts";
import {
  DefConstDef,
  type DefunDef,
  type LambdaInfo,
  type LoadedModule,
  moduleInfo,
} from "../compile/ir.ts";
import {
  compileDefConst,
  compileDefun,
  compileInterface,
  compileModule,
} from "../compile/module.ts";
import { modulesNamed, recordSizes } from "../compile/module-hash/dependencies.ts";
import {
  assignInterfaceHash,
  assignModuleHash,
  encodeStoredInterface,
  encodeStoredModule,
} from "../compile/module-hash/index.ts";
import { interfaceSizes, type ModuleSizes, moduleSizes } from "../compile/module-hash/sizes.ts";
import { REPL_MODULE_HASH, REPL_MODULE_NAME, renderModuleName } from "../compile/names.ts";
import { FrameLayout } from "../compile/scope.ts";
import type { ModuleInstall } from "../db/index.ts";
import { PactError } from "../runtime/errors.ts";
import { expectedPactValueError } from "../runtime/native-errors.ts";
import { isCallable } from "../runtime/types.ts";
import type { Defun, Expr, Interface, Module, ReplTopLevel, Use } from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";
import { canonicalHash } from "../values/names.ts";
import type { ModuleName, PactValue } from "../values/types.ts";
import { CallSite } from "./callables.ts";
import { acquire } from "./capabilities.ts";
import { codegenLambda, withPurity } from "./codegen.ts";
import { chargeDesugar, chargeHash, chargeStore } from "./deploy-gas.ts";
import { pretty } from "./display.ts";
import type { Runtime } from "./runtime.ts";
import { matchesType, typecheckError } from "./typecheck.ts";
import { Purity } from "./types.ts";

/** What a top-level form produced. `text` is how the REPL shows it (its `-t` trace line). */
export type TopLevelResult =
  | { readonly kind: "value"; readonly value: PactValue; readonly text: string }
  | { readonly kind: "module"; readonly module: LoadedModule; readonly text: string }
  | { readonly kind: "import"; readonly text: string }
  | { readonly kind: "definition"; readonly text: string };

export function runTopLevel(rt: Runtime, form: ReplTopLevel, unit: CompileUnit): TopLevelResult {
  switch (form.kind) {
    case "module": {
      const module = defineModule(rt, form, unit);
      return {
        kind: "module",
        module,
        text: `Loaded module ${module.info.rendered}, hash ${module.info.hash}`,
      };
    }
    case "interface": {
      const iface = defineInterface(rt, form, unit);
      return {
        kind: "module",
        module: iface,
        text: `Loaded interface ${iface.info.rendered}, hash ${iface.info.hash}`,
      };
    }
    case "use":
      useModule(rt, form, unit);
      return { kind: "import", text: `Loaded imports from ${renderModuleName(form.module)}` };
    case "defun":
      defineReplDefun(rt, form, unit);
      return { kind: "definition", text: `Loaded repl defun ${form.name}` };
    case "defconst": {
      const info = moduleInfo(REPL_MODULE_NAME, REPL_MODULE_HASH);
      const def = compileDefConst(form, info, unit);
      evaluateConstant(rt, def);
      rt.loaded.toplevel.set(def.name, def);
      return { kind: "definition", text: `Loaded repl defconst ${form.name}` };
    }
    default: {
      const value = evaluateExpression(rt, form, unit);
      // Shown only by the REPL: a command's result is never printed, so it is not laid out here.
      return {
        kind: "value",
        value,
        get text() {
          return pretty(value);
        },
      };
    }
  }
}

/** Compiles and evaluates one expression; the result must be a value, not a function. */
export function evaluateExpression(rt: Runtime, e: Expr, unit: CompileUnit): PactValue {
  const lambda = compileTopLevelExpr(e, unit);
  const code = codegenLambda(lambda, unit.file);
  const frame = new Array(lambda.frameSize);
  frame[0] = null;
  const value = code(rt, frame);
  if (isCallable(value)) {
    throw new PactError(
      "execution",
      "Program encountered an unhandled raised error: Evaluation did not reduce to a value",
      e.span,
      [],
      unit.file,
    );
  }
  return value;
}

function compileTopLevelExpr(e: Expr, unit: CompileUnit): LambdaInfo {
  const layout = new FrameLayout(0, null);
  const body = compileExpr(e, {
    unit,
    layout,
    locals: null,
    inDefcap: false,
    cover: unit.coverage === null ? null : { line: -1 },
  });
  return { params: [], frameSize: layout.size, body, code: undefined };
}

/** Evaluates a constant's expression once, with no database access beyond system tables. */
export function evaluateConstant(rt: Runtime, def: DefConstDef): void {
  const init = def.init!;
  const code = codegenLambda(init, def.source.file);
  const frame = new Array(init.frameSize);
  frame[0] = null;
  const value = withPurity(rt, Purity.SysOnly, () => code(rt, frame));
  if (isCallable(value)) {
    throw expectedPactValueError(def.source.span, def.source.file);
  }
  if (def.type !== null && !matchesType(value, def.type)) {
    const e = typecheckError(value, def.type);
    e.span = def.source.span;
    e.file = def.source.file;
    throw e;
  }
  def.value = value;
  def.init = undefined;
}

function defineReplDefun(rt: Runtime, form: Defun, unit: CompileUnit): DefunDef {
  const info = moduleInfo(REPL_MODULE_NAME, REPL_MODULE_HASH);
  // The REPL makes the name visible before compiling the body, so a self-reference compiles (and
  // fails at run time as recursion), as in Pact.
  const self: { def?: DefunDef } = {};
  const names = {
    ...unit.names,
    namespace: unit.names.namespace,
    current: unit.names.current,
    bare: (n: string) =>
      n === form.name && self.def !== undefined ? self.def : unit.names.bare(n),
    module: (n: ModuleName) => unit.names.module(n),
  };
  const def = compileDefun(form, info, { ...unit, names }, (d) => {
    self.def = d;
  });
  rt.loaded.toplevel.set(def.name, def);
  return def;
}

function useModule(rt: Runtime, form: Use, unit: CompileUnit): void {
  const { members } = importMembers(toImport(form, unit), form.span, unit);
  for (const [name, def] of members) rt.loaded.toplevel.set(name, def);
}

/**
 * Governance for defining a module (Pact's `evalModuleGovernance`): a new module must be allowed
 * in the current namespace; upgrading needs the existing module's governance (its keyset, with
 * the magic capability `MODULE_KEYSET` granted, or its governance capability unless module admin
 * is already held). Governance runs with full database access, as in Pact.
 */
function enforceGovernance(rt: Runtime, name: ModuleName, span: Span, unit: CompileUnit): void {
  // Pact reads the module for its governance without charging the merge of its definitions.
  const existing = rt.loaded.module(name, false);
  const site = new CallSite(span, unit.file);
  if (existing === undefined) {
    rt.enforceNamespaceInstall(site);
    return;
  }
  if (existing.kind === "interface") {
    throw rt.error(
      "execution",
      `Expected module, found interface: ${renderModuleName(name)}`,
      site,
    );
  }
  const gov = existing.governance;
  const rendered = existing.info.rendered;
  if (gov.kind === "keyset") {
    rt.enforceModuleKeyset(rendered, gov.keyset, site);
    return;
  }
  if (rt.caps.moduleAdmin.has(rendered)) return;
  const cap = gov.cap;
  acquire(
    rt,
    { kind: "cap-token", name: cap.qualifiedName, moduleHash: cap.module.hash, args: [] },
    site,
    () => true,
    "normal",
  );
  rt.caps.moduleAdmin.add(rendered);
}

export function defineModule(rt: Runtime, form: Module, unit: CompileUnit): LoadedModule {
  const name: ModuleName = { namespace: rt.loaded.namespace, name: form.name };
  enforceGovernance(rt, name, form.span, unit);
  const module = compileModule(form, unit);
  const sizes = moduleSizes(form, module, unit);
  recordSizes(module, sizes);
  chargeDesugar(rt.env, module, sizes);
  for (const def of module.defs.values()) {
    if (def instanceof DefConstDef) evaluateConstant(rt, def);
  }
  chargeHash(rt.env, module, sizes);
  assignModuleHash(form, module, unit);
  // A module governed by a keyset must satisfy it when installed.
  if (module.governance.kind === "keyset") {
    const site = new CallSite(form.span, unit.file);
    rt.enforceModuleKeyset(module.info.rendered, module.governance.keyset, site);
  }
  chargeStore(rt.env, rt.loaded, module, sizes);
  const pactData = pactDataOf(rt, module, sizes, (txHash) =>
    encodeStoredModule(form, module, unit, txHash),
  );
  install(rt, module, { source: formSource(form, unit), pactData });
  rt.caps.moduleAdmin.add(module.info.rendered);
  return module;
}

export function defineInterface(rt: Runtime, form: Interface, unit: CompileUnit): LoadedModule {
  const name: ModuleName = { namespace: rt.loaded.namespace, name: form.name };
  if (rt.loaded.module(name) !== undefined) {
    throw new PactError(
      "execution",
      `Interface cannot be upgraded: ${renderModuleName(name)}`,
      form.span,
      rt.stack(),
      unit.file,
    );
  }
  rt.enforceNamespaceInstall(new CallSite(form.span, unit.file));
  const iface = compileInterface(form, unit);
  const sizes = interfaceSizes(form, iface, unit);
  recordSizes(iface, sizes);
  chargeDesugar(rt.env, iface, sizes);
  for (const def of iface.defs.values()) {
    if (def instanceof DefConstDef) evaluateConstant(rt, def);
  }
  chargeHash(rt.env, iface, sizes);
  assignInterfaceHash(form, iface, unit);
  chargeStore(rt.env, rt.loaded, iface, sizes);
  const pactData = pactDataOf(rt, iface, sizes, (txHash) =>
    encodeStoredInterface(form, iface, unit, txHash),
  );
  install(rt, iface, { source: formSource(form, unit), pactData });
  return iface;
}

/**
 * The module as Pact 5 stores it, where Braid can write that: a module naming no other module,
 * installed by a transaction whose hash is a hash (tests may give theirs other names).
 */
function pactDataOf(
  rt: Runtime,
  module: LoadedModule,
  sizes: ModuleSizes,
  encode: (txHash: string) => Uint8Array,
): Uint8Array | null {
  if (modulesNamed(module, sizes).size > 0) return null;
  return canonicalHash(rt.env.txHash, null) === null ? null : encode(rt.env.txHash);
}

/** The code of a module's form, which Pact stores with the module (its `sliceFromSource`). */
function formSource(form: Module | Interface, unit: CompileUnit): string {
  return unit.source.slice(form.span.start, form.span.end);
}

function install(rt: Runtime, module: LoadedModule, logged: ModuleInstall): void {
  module.info.txHash = rt.env.txHash;
  rt.env.modules.write(module, logged);
  rt.loaded.install(module);
}
