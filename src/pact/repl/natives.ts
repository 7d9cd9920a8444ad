/**
 * The REPL natives (Pact's `ReplBuiltin`): tests (`expect`, `expect-failure`, `expect-that`),
 * output (`print`), transactions (`begin-tx`, `commit-tx`, `rollback-tx`), the environment
 * (`env-data`, `env-keys`, `env-sigs`, `env-hash`, `env-chain-data`, `env-exec-config`, gas …),
 * capabilities and defpacts (`test-capability`, `continue-pact`, `pact-state`), `load` and
 * versions. They belong to one session, whose state they change.
 */

import { PACT_VERSION } from "../../version.ts";
import type { SuspendingNativeDef } from "../compile/context.ts";
import { DbError } from "../db/index.ts";
import { type CallSite, fileOf, runtimeOf } from "../eval/callables.ts";
import { acquire, defCapOf, installCapability } from "../eval/capabilities.ts";
import { abbrevPretty, pretty } from "../eval/display.ts";
import { EXECUTION_FLAGS } from "../eval/flags.ts";
import { GAS_REPL_NATIVES } from "../gas/repl-natives.ts";
import { REPL_DEFPACT_NATIVES } from "../natives/defpacts.ts";
import { ENV_NAMESPACE_POLICY } from "../natives/namespaces.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import {
  type Callable,
  isCallable,
  type NativeContext,
  type NativeDef,
  type RuntimeValue,
} from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import { Decimal } from "../values/decimal.ts";
import { pactValueEquals } from "../values/equality.ts";
import { encodePactValue, parsePactValue } from "../values/json.ts";
import { makeKeySet } from "../values/keyset.ts";
import { canonicalHash } from "../values/names.ts";
import { PactTime } from "../values/time.ts";
import type { CapToken, ModRef, PactObject, PactValue } from "../values/types.ts";
import { UNIT } from "../values/types.ts";

/**
 * What the REPL natives need of the session they belong to (./session.ts implements it): its
 * test results, output, open transaction, and file loading.
 */
export interface ReplHost {
  /** The REPL transaction `begin-tx` opened, if any. */
  tx: { readonly id: number; readonly name: string | null } | null;
  /** Whether modules may use REPL natives (`env-enable-repl-natives`). */
  replNativesEnabled: boolean;
  record(name: string, file: string, span: Span, failure: string | null): void;
  print(file: string, span: Span, text: string): void;
  trace(file: string, span: Span, text: string): void;
  loadFile(path: string, reset: boolean): unknown;
  /** Ends the REPL transaction's evaluation state. */
  resetTxState(): void;
}

/** Builds a native; the REPL natives charge no gas of their own. */
function native(
  name: string,
  minArgs: number,
  maxArgs: number,
  impl: (ctx: NativeContext, args: readonly RuntimeValue[]) => RuntimeValue,
): NativeDef {
  return { name, minArgs, maxArgs, gas: 0, impl };
}

function str(name: string, args: readonly RuntimeValue[], i: number): string {
  const v = args[i];
  if (typeof v !== "string") throw argsError(name, args);
  return v;
}

function fn(name: string, args: readonly RuntimeValue[], i: number): Callable {
  const v = args[i];
  if (v === undefined || !isCallable(v)) throw argsError(name, args);
  return v;
}

/** Pact's `UserEnforceError`: a recoverable failure with a plain message. */
function userFailure(message: string): PactError {
  return new PactError("user", message);
}

function isCapToken(v: RuntimeValue | undefined): v is CapToken {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "cap-token";
}

/** The Pact version as numbers, for `enforce-pact-version`. */
const VERSION = PACT_VERSION.split(".").map(Number);

function parseVersion(text: string): number[] | null {
  if (!/^\d+(\.\d+)*$/.test(text)) return null;
  return text.split(".").map(Number);
}

/** Haskell's `Version` order: lexicographic on the number lists. */
function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

export function replNatives(session: ReplHost): NativeDef[] {
  /** Records a test outcome at the call and returns the message (failures are values, not errors). */
  const outcome = (ctx: NativeContext, name: string, failure: string | null, message: string) => {
    session.record(name, fileOf(ctx), ctx.span, failure);
    return message;
  };

  /** Runs `thunk`, undoing capability and event changes if it fails. */
  const attempt = (
    ctx: NativeContext,
    thunk: Callable,
  ): { value: RuntimeValue } | { error: PactError } => {
    const rt = runtimeOf(ctx);
    const caps = rt.caps.snapshot();
    const events = rt.events.length;
    const pactExec = rt.pactExec;
    try {
      return { value: ctx.apply(thunk, []) };
    } catch (e) {
      if (!(e instanceof PactError)) throw e;
      rt.caps = caps;
      rt.events.length = events;
      rt.pactExec = pactExec;
      return { error: e };
    }
  };

  const expect: SuspendingNativeDef = {
    ...native("expect", 3, 3, (ctx, args) => {
      const name = str("expect", args, 0);
      const expected = fn("expect", args, 1);
      const actual = attempt(ctx, fn("expect", args, 2));
      if ("error" in actual) {
        const msg = `FAILURE: ${name} evaluation of actual failed with error message:\n${actual.error.message}`;
        return outcome(ctx, name, msg, msg);
      }
      const v1 = ctx.apply(expected, []) as PactValue;
      const v2 = actual.value as PactValue;
      if (!pactValueEquals(v1, v2)) {
        const msg = `FAILURE: ${name} expected: ${pretty(v1)}, received: ${pretty(v2)}`;
        return outcome(ctx, name, msg, msg);
      }
      return outcome(ctx, name, null, `Expect: success ${name}`);
    }),
    suspends: (count) => (count === 3 ? [false, true, true] : null),
  };

  const expectFailure: SuspendingNativeDef = {
    ...native("expect-failure", 2, 3, (ctx, args) => {
      const name = str("expect-failure", args, 0);
      if (args.length === 2) {
        const r = attempt(ctx, fn("expect-failure", args, 1));
        if ("error" in r) return outcome(ctx, name, null, `Expect failure: Success: ${name}`);
        const msg = `FAILURE: ${name}: expected failure, got result`;
        return outcome(ctx, name, msg, msg);
      }
      const toMatch = str("expect-failure", args, 1);
      const r = attempt(ctx, fn("expect-failure", args, 2));
      if ("error" in r) {
        const err = r.error.message;
        if (err.includes(toMatch))
          return outcome(ctx, name, null, `Expect failure: Success: ${name}`);
        const msg = `FAILURE: ${name}: expected error message '${toMatch}', got '${err}'`;
        return outcome(ctx, name, msg, msg);
      }
      const msg = `FAILURE: ${toMatch}: expected failure, got result: ${pretty(r.value)}`;
      return outcome(ctx, name, msg, msg);
    }),
    suspends: (count) => (count === 2 ? [false, true] : count === 3 ? [false, false, true] : null),
  };

  const natives: NativeDef[] = [
    expect,
    expectFailure,
    native("expect-that", 3, 3, (ctx, args) => {
      const name = str("expect-that", args, 0);
      const result = ctx.apply(fn("expect-that", args, 1), [args[2]!]);
      if (result === true) return outcome(ctx, name, null, `Expect-that: success ${name}`);
      if (result === false) {
        const msg = `FAILURE: Expect-that: Did not satisfy condition: ${name}`;
        return outcome(ctx, name, msg, msg);
      }
      session.record(
        name,
        fileOf(ctx),
        ctx.span,
        "FAILURE: expect-that expression did not return a boolean",
      );
      throw nativeFailure("expect-that", "Expect-that: condition did not return a boolean");
    }),
    native("print", 1, 1, (ctx, args) => {
      session.print(fileOf(ctx), ctx.span, pretty(args[0]!));
      return UNIT;
    }),
    native("env-stackframe", 0, 0, (ctx) =>
      runtimeOf(ctx)
        .stack()
        .map((f) => `(${f.name}${(f.args ?? []).map((a) => ` ${abbrevPretty(a)}`).join("")})`),
    ),
    native("env-chain-data", 1, 1, (ctx, args) => {
      const o = args[0];
      if (!(o instanceof Map)) throw argsError("env-chain-data", args);
      const cd = { ...runtimeOf(ctx).env.chainData };
      for (const [k, v] of o as PactObject) {
        if (k === "gas-limit" && typeof v === "bigint") cd.gasLimit = v;
        else if (k === "block-height" && typeof v === "bigint") cd.blockHeight = v;
        else if (k === "gas-price" && v instanceof Decimal) cd.gasPrice = v;
        else if (k === "chain-id" && typeof v === "string") cd.chainId = v;
        else if (k === "sender" && typeof v === "string") cd.sender = v;
        else if (k === "prev-block-hash" && typeof v === "string") cd.prevBlockHash = v;
        else if (k === "block-time" && v instanceof PactTime) cd.blockTime = v;
        else throw userFailure(`envChainData: bad public metadata value for key: ${k}`);
      }
      runtimeOf(ctx).env.chainData = cd;
      return "Updated public metadata";
    }),
    native("env-data", 1, 1, (ctx, args) => {
      const v = args[0]!;
      if (isCallable(v)) throw argsError("env-data", args);
      // As in Pact, the data goes through its JSON encoding (so integers become decimals).
      let data: PactValue = v;
      try {
        data = parsePactValue(encodePactValue(v));
      } catch {
        data = v;
      }
      runtimeOf(ctx).env.data = data;
      return "Setting transaction data";
    }),
    native("env-events", 1, 1, (ctx, args) => {
      const clear = args[0];
      if (typeof clear !== "boolean") throw argsError("env-events", args);
      const rt = runtimeOf(ctx);
      const events = rt.events.map(
        (e) =>
          new Map<string, PactValue>([
            [
              "name",
              `${e.module.namespace === null ? "" : `${e.module.namespace}.`}${e.module.name}.${e.name}`,
            ],
            ["params", e.params],
            ["module-hash", e.moduleHash],
          ]),
      );
      if (clear) rt.events = [];
      return events;
    }),
    native("env-hash", 1, 1, (ctx, args) => {
      const s = str("env-hash", args, 0);
      const hash = canonicalHash(s, null);
      if (hash === null) throw userFailure(`invalid base64url hash: ${s}`);
      runtimeOf(ctx).env.txHash = hash;
      return `Set tx hash to ${s}`;
    }),
    native("env-keys", 1, 1, (ctx, args) => {
      const keys = args[0];
      if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) {
        throw argsError("env-keys", args);
      }
      runtimeOf(ctx).env.signers = new Map((keys as string[]).map((k) => [k, []]));
      return "Setting transaction keys";
    }),
    native("env-sigs", 1, 1, (ctx, args) => {
      const list = args[0];
      if (!Array.isArray(list)) throw argsError("env-sigs", args);
      const signers = new Map<string, readonly CapToken[]>();
      for (const item of list as PactValue[]) {
        const key = item instanceof Map ? (item as PactObject).get("key") : undefined;
        const caps = item instanceof Map ? (item as PactObject).get("caps") : undefined;
        if (typeof key !== "string" || !Array.isArray(caps) || !caps.every(isCapToken)) {
          throw userFailure("env-sigs: Expected object with 'key': string, 'caps': [capability]");
        }
        signers.set(key, caps as CapToken[]);
      }
      runtimeOf(ctx).env.signers = signers;
      return "Setting transaction signatures/caps";
    }),
    native("env-verifiers", 1, 1, (ctx, args) => {
      const list = args[0];
      if (!Array.isArray(list)) throw argsError("env-verifiers", args);
      const verifiers = new Map<string, readonly CapToken[]>();
      for (const item of list as PactValue[]) {
        const name = item instanceof Map ? (item as PactObject).get("name") : undefined;
        const caps = item instanceof Map ? (item as PactObject).get("caps") : undefined;
        if (typeof name !== "string" || !Array.isArray(caps) || !caps.every(isCapToken)) {
          throw nativeFailure(
            "env-verifiers",
            "Expected object with 'name': string, 'caps': [capability]",
          );
        }
        verifiers.set(name, caps as CapToken[]);
      }
      runtimeOf(ctx).env.verifiers = verifiers;
      return "Setting transaction verifiers/caps";
    }),
    native("begin-tx", 0, 1, (ctx, args) => {
      const name = args.length === 0 ? null : str("begin-tx", args, 0);
      const db = runtimeOf(ctx).env.db;
      // Pact's REPL database refuses a second transaction without an error of its own.
      if (db.inTx) throw userFailure("tx-function failure Begin Tx");
      const id = db.beginTx(runtimeOf(ctx).env.mode);
      session.tx = { id, name };
      return `Begin Tx ${id}${name === null ? "" : ` ${name}`}`;
    }),
    native("commit-tx", 0, 0, (ctx) => {
      dbOperation(() => runtimeOf(ctx).env.db.commitTx());
      return endTx("Commit Tx");
    }),
    native("rollback-tx", 0, 0, (ctx) => {
      dbOperation(() => runtimeOf(ctx).env.db.rollbackTx());
      return endTx("Rollback Tx");
    }),
    native("sig-keyset", 0, 0, (ctx) => makeKeySet(runtimeOf(ctx).env.signers.keys(), "keys-all")),
    native("test-capability", 1, 1, (ctx, args) => {
      const token = args[0];
      if (!isCapToken(token)) throw argsError("test-capability", args);
      const rt = runtimeOf(ctx);
      const site = ctx as CallSite;
      const def = defCapOf(rt, token, site);
      if (def.meta !== null) installCapability(rt, token, false, site);
      acquire(rt, token, site, () => UNIT, "test");
      return UNIT;
    }),
    native("env-exec-config", 1, 1, (ctx, args) => {
      const list = args[0];
      if (!Array.isArray(list) || !list.every((f) => typeof f === "string")) {
        throw argsError("env-exec-config", args);
      }
      const known = (list as string[]).filter((f) => EXECUTION_FLAGS.includes(f));
      const unknown = (list as string[]).filter((f) => !EXECUTION_FLAGS.includes(f));
      if (unknown.length > 0) {
        session.print(
          fileOf(ctx),
          ctx.span,
          `Warning: unknown flags in env-exec-config: ${unknown.join(", ")}`,
        );
      }
      runtimeOf(ctx).env.flags = new Set(known);
      return known;
    }),
    ENV_NAMESPACE_POLICY,
    ...GAS_REPL_NATIVES,
    ...REPL_DEFPACT_NATIVES,
    native("pact-version", 0, 0, () => PACT_VERSION),
    native("enforce-pact-version", 1, 2, (_ctx, args) => {
      const min = str("enforce-pact-version", args, 0);
      const max = args.length === 2 ? str("enforce-pact-version", args, 1) : null;
      const lo = parseVersion(min);
      if (lo === null) throw versionParseError(min);
      const hi = max === null ? null : parseVersion(max);
      if (max !== null && hi === null) throw versionParseError(max);
      const ok =
        compareVersions(lo, VERSION) <= 0 && (hi === null || compareVersions(VERSION, hi) <= 0);
      if (ok) return true;
      throw new PactError(
        "execution",
        `Enforce pact-version failed: Current Version: ${PACT_VERSION} Minimum Version: ${min} ${max === null ? "" : `Maximum Version: ${max}`}`,
      );
    }),
    native("env-enable-repl-natives", 1, 1, (_ctx, args) => {
      const on = args[0];
      if (typeof on !== "boolean") throw argsError("env-enable-repl-natives", args);
      session.replNativesEnabled = on;
      return `repl natives ${on ? "enabled" : "disabled"}`;
    }),
    native("env-module-admin", 1, 1, (ctx, args) => {
      const ref = args[0];
      if (
        typeof ref !== "object" ||
        ref === null ||
        (ref as { kind?: unknown }).kind !== "modref"
      ) {
        throw argsError("env-module-admin", args);
      }
      const module = (ref as ModRef).module;
      const name = module.namespace === null ? module.name : `${module.namespace}.${module.name}`;
      runtimeOf(ctx).caps.moduleAdmin.add(name);
      return `Acquired module admin for: ${name}`;
    }),
    native("env-set-debug-flag", 1, 1, (_ctx, args) => {
      str("env-set-debug-flag", args, 0);
      return UNIT;
    }),
    native("load", 1, 2, (ctx, args) => {
      const path = str("load", args, 0);
      const reset = args.length === 2 ? args[1] : false;
      if (typeof reset !== "boolean") throw argsError("load", args);
      session.trace(fileOf(ctx), ctx.span, `"Loading ${path}..."`);
      session.loadFile(path, reset);
      return UNIT;
    }),
    native("typecheck", 1, 1, (_ctx, args) => {
      str("typecheck", args, 0);
      return UNIT;
    }),
  ];
  return natives;

  function endTx(verb: string): string {
    const tx = session.tx;
    session.tx = null;
    session.resetTxState();
    if (tx === null) throw userFailure(`tx-function failure ${verb}`);
    return `${verb} ${tx.id}${tx.name === null ? "" : ` ${tx.name}`}`;
  }
}

/** Runs a database operation, reporting its failure as Pact does (`DbOpFailure`). */
function dbOperation(op: () => unknown): void {
  try {
    op();
  } catch (e) {
    if (!(e instanceof DbError)) throw e;
    throw new PactError("execution", `Error during database operation: ${e.message}`);
  }
}

function versionParseError(text: string): PactError {
  return new PactError(
    "execution",
    `Enforce pact-version failed: Could not parse ${text}, expect list of dot-separated integers`,
  );
}
