/**
 * The natives of contract state (tables, keysets, guards, principals, namespaces) and the guard
 * authority the evaluator calls for module governance and installs. A runtime that executes
 * contract code registers `STATE_NATIVES` and sets `rt.keysets = STATE_AUTHORITY`.
 */
import type { KeysetAuthority } from "../eval/types.ts";
import type { NativeDef } from "../runtime/types.ts";
import { DATABASE_NATIVES } from "./database.ts";
import { enforceGuard, GUARD_NATIVES } from "./guards.ts";
import { enforceKeysetNamed, KEYSET_NATIVES, keysetNameArg, withMagicCap } from "./keysets.ts";
import { enforceNamespaceInstall, NAMESPACE_NATIVES } from "./namespaces.ts";
import { PRINCIPAL_NATIVES } from "./principals.ts";

export const STATE_NATIVES: readonly NativeDef[] = [
  ...DATABASE_NATIVES,
  ...KEYSET_NATIVES,
  ...GUARD_NATIVES,
  ...PRINCIPAL_NATIVES,
  ...NAMESPACE_NATIVES,
];

export const STATE_AUTHORITY: KeysetAuthority = {
  enforceKeysetName(rt, name, site) {
    enforceKeysetNamed(rt, keysetNameArg(name), site);
  },
  enforceGuard(rt, guard, site) {
    enforceGuard(rt, guard, site);
  },
  enforceModuleKeyset(rt, module, keyset, site) {
    const name = keysetNameArg(keyset);
    withMagicCap(rt, "MODULE_KEYSET", module, () => enforceKeysetNamed(rt, name, site));
  },
  enforceNamespaceInstall(rt, site) {
    enforceNamespaceInstall(rt, site);
  },
};
