/**
 * Test support for the state natives: a runtime with every on-chain native and the guard
 * authority, over a fresh database, that runs Pact source and returns the last value or the
 * error it raised. Tests set the environment (data, signers, flags) on `rt.env` directly.
 */
import type { CompileUnit } from "../compile/context.ts";
import { openMemoryPactDb, type PactDb } from "../db/index.ts";
import { defaultEnv } from "../eval/env.ts";
import { ENV_NATIVES } from "../eval/env-natives.ts";
import { Runtime } from "../eval/runtime.ts";
import { runTopLevel } from "../eval/toplevel.ts";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { parseReplProgram } from "../syntax/parser.ts";
import { makeKeySet } from "../values/keyset.ts";
import type { CapToken, KeySet, PactValue } from "../values/types.ts";
import { CAPABILITY_NATIVES } from "./capabilities.ts";
import { DEFPACT_NATIVES } from "./defpacts.ts";
import { CORE_NATIVES } from "./index.ts";
import { STATE_AUTHORITY, STATE_NATIVES } from "./state.ts";

const NATIVES: ReadonlyMap<string, NativeDef> = new Map(
  [
    ...CORE_NATIVES,
    ...ENV_NATIVES,
    ...CAPABILITY_NATIVES,
    ...DEFPACT_NATIVES,
    ...STATE_NATIVES,
  ].map((n) => [n.name, n]),
);

export interface TestRuntime {
  readonly rt: Runtime;
  /** Runs every form of `source`; returns the value of the last one (unit for definitions). */
  run(source: string): PactValue;
  /** Runs `source` expecting an error; returns it. */
  fail(source: string): PactError;
  /** Sets the signers: keys, each unscoped or scoped to the given capabilities. */
  sign(...signers: Array<string | [string, readonly CapToken[]]>): void;
  /** Sets the transaction data. */
  data(fields: Record<string, PactValue>): void;
}

export function testRuntime(db: PactDb = openMemoryPactDb()): TestRuntime {
  const rt = new Runtime(defaultEnv(NATIVES, db));
  rt.keysets = STATE_AUTHORITY;
  const run = (source: string): PactValue => {
    const unit: CompileUnit = {
      file: "test.repl",
      source,
      natives: NATIVES,
      names: rt.loaded,
      coverage: null,
    };
    let last: PactValue = { kind: "unit" };
    for (const form of parseReplProgram(source, "test.repl")) {
      const result = runTopLevel(rt, form, unit);
      last = result.kind === "value" ? result.value : { kind: "unit" };
    }
    return last;
  };
  return {
    rt,
    run,
    fail(source) {
      try {
        run(source);
      } catch (e) {
        if (e instanceof PactError) return e;
        throw e;
      }
      throw new Error(`expected an error from: ${source}`);
    },
    sign(...signers) {
      rt.env.signers = new Map(
        signers.map((s) => (typeof s === "string" ? [s, []] : [s[0], s[1]])),
      );
    },
    data(fields) {
      rt.env.data = new Map(Object.entries(fields));
    },
  };
}

/** A `keys-all` keyset (or with another predicate). */
export function keyset(keys: readonly string[], pred = "keys-all"): KeySet {
  return makeKeySet(keys, pred);
}
