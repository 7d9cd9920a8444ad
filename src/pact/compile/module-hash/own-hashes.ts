/**
 * After a module is hashed, the values of its constants that point into the module (its tables,
 * its capability tokens) are given the new hash, as Pact's `updatePactValueHash` does: they were
 * made while the module had no hash yet.
 */
import { parseQualifiedName } from "../../values/names.ts";
import type { ModuleName, PactValue } from "../../values/types.ts";
import { DefConstDef, type LoadedModule } from "../ir.ts";
import { sameModuleName } from "../names.ts";

/** Points the module's constant values at its (new) hash. */
export function updateOwnHashes(module: LoadedModule): void {
  for (const def of module.defs.values()) {
    if (def instanceof DefConstDef && def.value !== undefined) {
      def.value = withHash(def.value, module.info.name, module.info.hash);
    }
  }
}

/** `v` with the tables and capability tokens of module `name` carrying `hash` (shared if unchanged). */
export function withHash(v: PactValue, name: ModuleName, hash: string): PactValue {
  if (Array.isArray(v)) {
    let changed = false;
    const items = v.map((x) => {
      const y = withHash(x, name, hash);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? items : v;
  }
  if (v instanceof Map) {
    let changed = false;
    const entries = [...v].map(([k, x]): [string, PactValue] => {
      const y = withHash(x, name, hash);
      if (y !== x) changed = true;
      return [k, y];
    });
    return changed ? new Map(entries) : v;
  }
  if (typeof v !== "object" || !("kind" in v)) return v;
  switch (v.kind) {
    case "table":
      return sameModuleName(v.module, name) && v.moduleHash !== hash
        ? { ...v, moduleHash: hash }
        : v;
    case "cap-token": {
      const q = parseQualifiedName(v.name);
      const args = withHash(v.args, name, hash) as readonly PactValue[];
      const own = q !== null && sameModuleName(q.module, name) && v.moduleHash !== hash;
      return own || args !== v.args ? { ...v, args, moduleHash: own ? hash : v.moduleHash } : v;
    }
    default:
      return v;
  }
}
