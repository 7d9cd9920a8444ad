/**
 * The natives of on-chain code: every native but the REPL's own (`env-*`, `expect*`, …). This is
 * the set a command runs with on the node and the development server, and a `.pact` file in the
 * REPL.
 */
import { ENV_NATIVES } from "../eval/env-natives.ts";
import type { NativeDef } from "../runtime/types.ts";
import { CAPABILITY_NATIVES } from "./capabilities.ts";
import { DEFPACT_NATIVES } from "./defpacts.ts";
import { HYPERLANE_NATIVES } from "./hyperlane.ts";
import { CORE_NATIVES } from "./index.ts";
import { STATE_NATIVES } from "./state.ts";

export const ON_CHAIN_NATIVE_LIST: readonly NativeDef[] = [
  ...CORE_NATIVES,
  ...ENV_NATIVES,
  ...CAPABILITY_NATIVES,
  ...DEFPACT_NATIVES,
  ...STATE_NATIVES,
  ...HYPERLANE_NATIVES,
];

export const ON_CHAIN_NATIVES: ReadonlyMap<string, NativeDef> = new Map(
  ON_CHAIN_NATIVE_LIST.map((n) => [n.name, n]),
);
