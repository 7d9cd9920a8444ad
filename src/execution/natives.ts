/**
 * The natives of on-chain code: everything but the REPL's own (`env-*`, `expect*`, …), the same
 * set a `.pact` file runs with.
 */
import { ENV_NATIVES } from "../pact/eval/env-natives.ts";
import { CAPABILITY_NATIVES } from "../pact/natives/capabilities.ts";
import { DEFPACT_NATIVES } from "../pact/natives/defpacts.ts";
import { CORE_NATIVES } from "../pact/natives/index.ts";
import { STATE_NATIVES } from "../pact/natives/state.ts";
import type { NativeDef } from "../pact/runtime/types.ts";

export const ON_CHAIN_NATIVES: ReadonlyMap<string, NativeDef> = new Map(
  [
    ...CORE_NATIVES,
    ...ENV_NATIVES,
    ...CAPABILITY_NATIVES,
    ...DEFPACT_NATIVES,
    ...STATE_NATIVES,
  ].map((n) => [n.name, n]),
);
