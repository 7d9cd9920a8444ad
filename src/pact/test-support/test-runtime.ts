/**
 * Test support for the state natives: a runtime with every on-chain native and the guard
 * authority, over a fresh database, that runs Pact source and returns the last value or the
 * error it raised. Tests set the environment (data, signers, flags) on `rt.env` directly.
 */
import { openMemoryPactDb, type PactDb } from "../db/index.ts";
import type { Runtime } from "../eval/runtime.ts";
import { createDefaultRuntime, runSource as runPactSource } from "../evaluate.ts";
import { ON_CHAIN_NATIVES } from "../natives/on-chain.ts";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { makeKeySet } from "../values/keyset.ts";
import type { CapToken, KeySet, PactValue } from "../values/types.ts";

/**
 * Runs every form of `source` in `rt` with `natives` (the on-chain set unless given); returns the
 * value of the last one (unit for definitions).
 */
export function runSource(
  rt: Runtime,
  source: string,
  natives: ReadonlyMap<string, NativeDef> = ON_CHAIN_NATIVES,
): PactValue {
  const results = runPactSource(rt, source, { file: "test.repl", natives, repl: true });
  const last = results.at(-1);
  return last?.kind === "value" ? last.value : { kind: "unit" };
}

/** Runs `source` expecting a Pact error; returns it. */
export function sourceFailure(
  rt: Runtime,
  source: string,
  natives: ReadonlyMap<string, NativeDef> = ON_CHAIN_NATIVES,
): PactError {
  try {
    runSource(rt, source, natives);
  } catch (e) {
    if (e instanceof PactError) return e;
    throw e;
  }
  throw new Error(`expected an error from: ${source}`);
}

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
  const rt = createDefaultRuntime(ON_CHAIN_NATIVES, db);
  return {
    rt,
    run: (source) => runSource(rt, source),
    fail: (source) => sourceFailure(rt, source),
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
