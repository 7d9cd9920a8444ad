/**
 * Natives that read the execution environment: the transaction data (`read-msg`, `read-integer`,
 * `read-decimal`, `read-string`, `read-keyset`), `chain-data` and `tx-hash`.
 */

import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { PactError, pactErrorWithOnChainText } from "../runtime/errors.ts";
import { isValidKeyFormat } from "../runtime/key-format.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import { Decimal, parseNumberLiteral } from "../values/decimal.ts";
import { makeKeySet } from "../values/keyset.ts";
import { isPredicateName } from "../values/names.ts";
import { pactValueToPretty } from "../values/show.ts";
import type { KeySet, PactValue } from "../values/types.ts";
import type { ExecutionEnv } from "./env.ts";

/** Flat cost of `chain-data` (the reference's table). */
export const CHAIN_DATA_GAS = 500;
/** Flat cost of the `read-*` natives in milligas (twice the basic work in Pact's table). */
export const READ_DATA_GAS = 2 * BASIC_WORK_GAS;

function envOf(ctx: NativeContext): ExecutionEnv {
  return ctx.env as ExecutionEnv;
}

/** Pact's `EnvReadFunctionFailure`: recoverable, so `try` can catch a missing key. */
function readFailure(name: string): PactError {
  return new PactError("user", `${name} failure`);
}

/** The value of `key` in the transaction data, or undefined. */
function dataField(ctx: NativeContext, key: string): PactValue | undefined {
  const data = envOf(ctx).data;
  return data instanceof Map ? (data as ReadonlyMap<string, PactValue>).get(key) : undefined;
}

function keyArg(name: string, args: readonly RuntimeValue[]): string {
  const key = args[0];
  if (typeof key !== "string") throw argsError(name, args);
  return key;
}

const readMsg: NativeDef = {
  name: "read-msg",
  minArgs: 0,
  maxArgs: 1,
  gas: READ_DATA_GAS,
  impl(ctx, args) {
    if (args.length === 0) return envOf(ctx).data;
    const v = dataField(ctx, keyArg("read-msg", args));
    if (v === undefined) throw readFailure("read-msg");
    return v;
  },
};

const readInteger: NativeDef = {
  name: "read-integer",
  minArgs: 1,
  maxArgs: 1,
  gas: READ_DATA_GAS,
  impl(ctx, args) {
    const v = dataField(ctx, keyArg("read-integer", args));
    if (typeof v === "bigint") return v;
    if (v instanceof Decimal) return v.toInteger("round");
    if (typeof v === "string") {
      const n = parseNumberLiteral(v);
      if (typeof n === "bigint") return n;
    }
    throw readFailure("read-integer");
  },
};

const readDecimal: NativeDef = {
  name: "read-decimal",
  minArgs: 1,
  maxArgs: 1,
  gas: READ_DATA_GAS,
  impl(ctx, args) {
    const v = dataField(ctx, keyArg("read-decimal", args));
    if (v instanceof Decimal) return v;
    if (typeof v === "bigint") return Decimal.fromInteger(v);
    if (typeof v === "string") {
      const n = parseNumberLiteral(v);
      if (typeof n === "bigint") return Decimal.fromInteger(n);
      if (n !== null) return n;
    }
    throw readFailure("read-decimal");
  },
};

const readString: NativeDef = {
  name: "read-string",
  minArgs: 1,
  maxArgs: 1,
  gas: READ_DATA_GAS,
  impl(ctx, args) {
    const v = dataField(ctx, keyArg("read-string", args));
    if (typeof v === "string") return v;
    throw readFailure("read-string");
  },
};

/**
 * A keyset in the transaction data: a keyset value, an object with `keys` and `pred`, or a list
 * of keys.
 */
export function readKeysetField(v: PactValue | undefined): KeySet | null {
  if (v === undefined) return null;
  if (Array.isArray(v)) {
    // A bare list of keys is a `keys-all` keyset.
    return v.every((k) => typeof k === "string") ? makeKeySet(v as string[], "keys-all") : null;
  }
  if (typeof v === "object" && !(v instanceof Map)) {
    return (v as { kind?: unknown }).kind === "keyset" ? (v as KeySet) : null;
  }
  if (!(v instanceof Map)) return null;
  const o = v as ReadonlyMap<string, PactValue>;
  const keys = o.get("keys");
  if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) return null;
  const pred = o.get("pred") ?? "keys-all";
  if (typeof pred !== "string" || !isPredicateName(pred)) return null;
  return makeKeySet(keys as string[], pred);
}

const readKeyset: NativeDef = {
  name: "read-keyset",
  minArgs: 1,
  maxArgs: 1,
  gas: READ_DATA_GAS,
  impl(ctx, args) {
    const ks = readKeysetField(dataField(ctx, keyArg("read-keyset", args)));
    if (ks === null) throw readFailure("read-keyset");
    // Pact's flag `EnforceKeyFormats`: every key must be an ED25519 or WebAuthn key.
    if (envOf(ctx).flags.has("EnforceKeyFormats") && !ks.keys.every(isValidKeyFormat)) {
      throw pactErrorWithOnChainText(
        "execution",
        `Invalid keyset format: ${pactValueToPretty(ks)}`,
        "Invalid keyset format. Check that keys have the right length and signature scheme.",
      );
    }
    return ks;
  },
};

const chainData: NativeDef = {
  name: "chain-data",
  minArgs: 0,
  maxArgs: 0,
  gas: CHAIN_DATA_GAS,
  impl(ctx) {
    const d = envOf(ctx).chainData;
    return new Map<string, PactValue>([
      ["chain-id", d.chainId],
      ["block-height", d.blockHeight],
      ["block-time", d.blockTime],
      ["prev-block-hash", d.prevBlockHash],
      ["sender", d.sender],
      ["gas-limit", d.gasLimit],
      ["gas-price", d.gasPrice],
    ]);
  },
};

const txHash: NativeDef = {
  name: "tx-hash",
  minArgs: 0,
  maxArgs: 0,
  gas: BASIC_WORK_GAS,
  impl(ctx) {
    return envOf(ctx).txHash;
  },
};

export const ENV_NATIVES: readonly NativeDef[] = [
  readMsg,
  readInteger,
  readDecimal,
  readString,
  readKeyset,
  chainData,
  txHash,
];
