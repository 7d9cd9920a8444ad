/** `(use m ["hash"] [names])`: which members of a module become visible without qualification. */
import type { Use } from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";
import { canonicalHash } from "../values/names.ts";
import { type CompileUnit, desugarError } from "./context.ts";
import type { Definition, Import, LoadedModule } from "./ir.ts";
import { renderModuleName } from "./names.ts";
import { lookupModule, noSuchModule } from "./resolve.ts";

/** Whether `text` is a well-formed module hash (base64url of the 32 bytes of a Blake2b-256). */
export function isModuleHash(text: string): boolean {
  return canonicalHash(text) !== null;
}

/** Checks the form of a `use` and returns it as an `Import`. */
export function toImport(use: Use, unit: CompileUnit): Import {
  if (use.hash !== null && !isModuleHash(use.hash)) {
    throw desugarError(`Invalid blessed hash, incorrect format: ${use.hash}`, use.span, unit.file);
  }
  return { module: use.module, hash: use.hash, names: use.imports };
}

export interface ImportedMembers {
  readonly module: LoadedModule;
  readonly members: ReadonlyMap<string, Definition>;
}

/**
 * The members an import brings into scope: every member of a module, the constants and schemas of
 * an interface, restricted to the listed names when there is a list.
 */
export function importMembers(imp: Import, span: Span, unit: CompileUnit): ImportedMembers {
  const module = lookupModule(imp.module, unit);
  if (module === undefined) throw noSuchModule(imp.module, span, unit);
  if (imp.hash !== null && imp.hash !== module.info.hash) {
    throw desugarError(
      `Import error for module ${renderModuleName(imp.module)} , hash not blessed: ${module.info.hash}`,
      span,
      unit.file,
    );
  }
  const available = new Map<string, Definition>();
  for (const [name, def] of module.defs) {
    if (module.kind === "interface" && def.defKind !== "defconst" && def.defKind !== "defschema") {
      continue;
    }
    available.set(name, def);
  }
  if (imp.names === null) return { module, members: available };
  const missing = imp.names.filter((n) => !available.has(n));
  if (missing.length > 0) {
    throw desugarError(
      `Invalid imports, module or interface ${renderModuleName(module.info.name)} does not implement the following members: [${missing.join(", ")}]`,
      span,
      unit.file,
    );
  }
  const members = new Map<string, Definition>();
  for (const n of imp.names) members.set(n, available.get(n)!);
  return { module, members };
}
