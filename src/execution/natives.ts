/**
 * The natives of on-chain code: everything but the REPL's own (`env-*`, `expect*`, …), the same
 * set a `.pact` file runs with.
 */
import { ENV_NATIVES } from "../pact/eval/env-natives.ts";
import { CORE_NATIVES } from "../pact/natives/index.ts";
import type { NativeDef } from "../pact/runtime/types.ts";

export const ON_CHAIN_NATIVES: ReadonlyMap<string, NativeDef> = new Map(
  [...CORE_NATIVES, ...ENV_NATIVES].map((n) => [n.name, n]),
);
