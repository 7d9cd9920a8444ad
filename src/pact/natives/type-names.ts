/**
 * The type names `typeof` returns (the reference's `renderType . synthesizePvType`): primitive
 * names, `list`, `object`, `guard`, `module{iface, …}`, `CAPTOKEN`, `table{…}`, and
 * `<<closure>>` for functions.
 */
import type { RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type { ModRef, ModuleName, TableRef } from "../values/types.ts";
import { compareStrings } from "./equality.ts";

export function renderModuleName(m: ModuleName): string {
  return m.namespace === null ? m.name : `${m.namespace}.${m.name}`;
}

/** Haskell's derived `Ord ModuleName`: by name, then namespace (none first). */
function compareModuleNames(a: ModuleName, b: ModuleName): number {
  const byName = compareStrings(a.name, b.name);
  if (byName !== 0) return byName;
  if (a.namespace === b.namespace) return 0;
  if (a.namespace === null) return -1;
  if (b.namespace === null) return 1;
  return compareStrings(a.namespace, b.namespace);
}

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
