/**
 * Resolution of free (non-local) names, following Pact 5's renamer (`resolveBare`,
 * `resolveQualified`, `resolveModuleName`).
 */
import type { Span } from "../syntax/span.ts";
import type { ModRef, ModuleName } from "../values/types.ts";
import { type CompileUnit, type CurrentModule, desugarError } from "./context.ts";
import type { Definition, LoadedModule } from "./ir.ts";
import { renderModuleName, sameModuleName } from "./names.ts";

export type Resolved =
  | { readonly kind: "def"; readonly def: Definition }
  | { readonly kind: "modref"; readonly value: ModRef };

/** A bare name: something in scope, or else the name of a module (a module reference). */
export function resolveBareName(name: string, span: Span, unit: CompileUnit): Resolved {
  const def = unit.names.bare(name);
  if (def !== undefined) return { kind: "def", def };
  return { kind: "modref", value: moduleReference({ namespace: null, name }, span, unit) };
}

/** A module used as a value: `coin` in `(f coin)`. Interfaces are not module references. */
export function moduleReference(name: ModuleName, span: Span, unit: CompileUnit): ModRef {
  const current = unit.names.current;
  if (current !== null && current.kind === "module" && namesCurrent(current, name, unit)) {
    return { kind: "modref", module: current.name, interfaces: current.implements };
  }
  const found = lookupModule(name, unit);
  if (found === undefined) throw noSuchModule(name, span, unit);
  if (found.kind === "interface") {
    throw desugarError(
      `Invalid Interface attempted to be used as module reference: ${renderModuleName(name)}`,
      span,
      unit.file,
    );
  }
  return { kind: "modref", module: found.info.name, interfaces: found.implements };
}

/**
 * Whether `name` names the module or interface being compiled (which is not stored yet): exactly,
 * or, unqualified inside a namespace, when the root namespace has no module of that name (Pact's
 * renamer looks there first, then compares the name with the namespace applied).
 */
export function namesCurrent(current: CurrentModule, name: ModuleName, unit: CompileUnit): boolean {
  if (sameModuleName(current.name, name)) return true;
  const ns = unit.names.namespace;
  return (
    name.namespace === null &&
    ns !== null &&
    current.name.namespace === ns &&
    current.name.name === name.name &&
    unit.names.module(name) === undefined
  );
}

/**
 * A module by name; an unqualified name is looked up in the root namespace first, then in the
 * current namespace.
 */
export function lookupModule(name: ModuleName, unit: CompileUnit): LoadedModule | undefined {
  const found = unit.names.module(name);
  if (found !== undefined || name.namespace !== null || unit.names.namespace === null) return found;
  return unit.names.module({ namespace: unit.names.namespace, name: name.name });
}

export function noSuchModule(name: ModuleName, span: Span, unit: CompileUnit) {
  // Pact separates the two parts with `hsep`, hence the double space.
  return desugarError(`Cannot find module:  ${renderModuleName(name)}`, span, unit.file);
}

/**
 * `q.name`: a member of module `q`; or, when `q` has no namespace, the module `q.name` itself (a
 * module reference); or a member of `q` in the current namespace.
 */
export function resolveQualifiedName(
  module: ModuleName,
  name: string,
  span: Span,
  unit: CompileUnit,
): Resolved {
  const direct = memberOf(module, name, unit);
  if (direct !== undefined) return { kind: "def", def: direct };
  if (module.namespace === null) {
    const asModule: ModuleName = { namespace: module.name, name };
    const found = unit.names.module(asModule);
    if (found !== undefined && found.kind === "module") {
      return {
        kind: "modref",
        value: { kind: "modref", module: found.info.name, interfaces: found.implements },
      };
    }
    const ns = unit.names.namespace;
    if (ns !== null) {
      const inNamespace = memberOf({ namespace: ns, name: module.name }, name, unit);
      if (inNamespace !== undefined) return { kind: "def", def: inNamespace };
    }
  }
  throw desugarError(
    `Module ${renderModuleName(module)} has no such member: ${name}`,
    span,
    unit.file,
  );
}

function memberOf(module: ModuleName, name: string, unit: CompileUnit): Definition | undefined {
  const current = unit.names.current;
  if (current !== null && sameModuleName(current.name, module)) return current.member(name);
  const found = unit.names.module(module);
  if (found === undefined) return undefined;
  const def = found.defs.get(name);
  // Interface signatures are not members that can be referred to; constants and schemas are.
  if (found.kind === "interface" && def !== undefined && def.defKind !== "defconst") {
    return def.defKind === "defschema" ? def : undefined;
  }
  return def;
}
