/**
 * The type names `typeof` returns (the reference's `renderType . synthesizePvType`): primitive
 * names, `list`, `object`, `guard`, `module{iface, …}`, `CAPTOKEN`, `table{…}`, and
 * `<<closure>>` for functions.
 */
import { valueKind } from "../runtime/kinds.ts";
import type { RuntimeValue } from "../runtime/types.ts";
import { compareModuleNames } from "../values/json.ts";
import { renderModuleName } from "../values/names.ts";
import type { ModRef, TableRef } from "../values/types.ts";

function modRefType(m: ModRef): string {
  const names = [...m.interfaces].sort(compareModuleNames).map(renderModuleName);
  return `module{${names.join(", ")}}`;
}

export function typeName(v: RuntimeValue): string {
  const kind = valueKind(v);
  switch (kind) {
    case "modref":
      return modRefType(v as ModRef);
    case "cap-token":
      return "CAPTOKEN";
    case "table":
      return `table{${(v as TableRef).schema.name}}`;
    case "callable":
      return "<<closure>>";
    default:
      return kind;
  }
}
