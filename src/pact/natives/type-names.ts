/**
 * The type names `typeof` returns (the reference's `renderType . synthesizePvType`): primitive
 * names, `list`, `object`, `guard`, `module{iface, …}`, `CAPTOKEN`, `table{…}`, and
 * `<<closure>>` for functions.
 */
import type { RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { compareModuleNames } from "../values/json.ts";
import { renderModuleName } from "../values/names.ts";
import { PactTime } from "../values/time.ts";
import type { ModRef, TableRef } from "../values/types.ts";

function modRefType(m: ModRef): string {
  const names = [...m.interfaces].sort(compareModuleNames).map(renderModuleName);
  return `module{${names.join(", ")}}`;
}

export function typeName(v: RuntimeValue): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "bigint":
      return "integer";
    case "boolean":
      return "bool";
  }
  if (Array.isArray(v)) return "list";
  if (v instanceof Map) return "object";
  if (v instanceof Decimal) return "decimal";
  if (v instanceof PactTime) return "time";
  const tagged = v as { kind: string };
  switch (tagged.kind) {
    case "unit":
      return "unit";
    case "modref":
      return modRefType(v as ModRef);
    case "cap-token":
      return "CAPTOKEN";
    case "table":
      return `table{${(v as TableRef).schema.name}}`;
    case "callable":
      return "<<closure>>";
    default:
      return "guard";
  }
}
