/** Type annotations: schema and interface names resolved to their definitions. */
import type { PactType as ParsedType, TypeName } from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";
import type { ModuleName, PactType as ResolvedType, Schema } from "../values/types.ts";
import { type CompileUnit, desugarError } from "./context.ts";
import { renderModuleName } from "./names.ts";
import { lookupModule, namesCurrent, noSuchModule, resolveQualifiedName } from "./resolve.ts";

export function resolveType(type: ParsedType, span: Span, unit: CompileUnit): ResolvedType {
  switch (type.kind) {
    case "prim":
      return type.name === "keyset" ? "guard" : type.name;
    case "list":
      return { kind: "list", element: resolveType(type.elem, span, unit) };
    case "any-list":
      return "list";
    case "object":
      return { kind: "object", schema: resolveSchema(type.schema, span, unit) };
    case "any-object":
      return "object";
    case "table":
      return { kind: "table", schema: resolveSchema(type.schema, span, unit) };
    case "modref":
      return {
        kind: "modref",
        interfaces: type.interfaces.map((i) => resolveInterfaceName(i, span, unit)),
      };
    case "any":
      return "*";
  }
}

/** The schema a name in `object{…}` or `table{…}` refers to. */
export function resolveSchema(name: TypeName, span: Span, unit: CompileUnit): Schema {
  const written = name.kind === "bare" ? name.name : name.name;
  const def =
    name.kind === "bare"
      ? unit.names.bare(name.name)
      : (() => {
          const r = resolveQualifiedName(name.module, name.name, span, unit);
          return r.kind === "def" ? r.def : undefined;
        })();
  if (def === undefined) {
    if (
      name.kind === "bare" &&
      lookupModule({ namespace: null, name: name.name }, unit) === undefined
    ) {
      throw noSuchModule({ namespace: null, name: name.name }, span, unit);
    }
    throw desugarError(`Unbound type variable ${written}`, span, unit.file);
  }
  if (def.defKind !== "defschema") {
    throw desugarError(
      `Invalid def in defschema position: ${written} is not a valid schema`,
      span,
      unit.file,
    );
  }
  return def.schema;
}

/** An interface named in a `module{…}` type. */
export function resolveInterfaceName(name: ModuleName, span: Span, unit: CompileUnit): ModuleName {
  const current = unit.names.current;
  // An interface may name itself, e.g. a schema field `policies:[module{token-policy-v2}]`.
  if (current !== null && current.kind === "interface" && namesCurrent(current, name, unit)) {
    return current.name;
  }
  const found = lookupModule(name, unit);
  if (found === undefined) throw noSuchModule(name, span, unit);
  if (found.kind !== "interface") {
    throw desugarError(
      `Invalid Interface attempted to be used as module reference: ${renderModuleName(name)}`,
      span,
      unit.file,
    );
  }
  return found.info.name;
}
