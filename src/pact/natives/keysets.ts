/**
 * Keysets: their names, enforcement against the transaction's signatures, Pact's "magic"
 * capabilities for system operations, and the natives `define-keyset`, `describe-keyset` and
 * `keyset-ref-guard`.
 *
 * Enforcement follows Pact 5's `isKeysetInSigs`: a signer counts when its key is in the keyset
 * and its signature may be used now — an unscoped signature unless code installed a capability,
 * a signature scoped to capabilities when one of them is granted (while a defcap body runs: is
 * being evaluated). The predicate then decides on the number of keys and of counted signers.
 */

import { DefunDef } from "../compile/ir.ts";
import { type CallSite, NativeFunction, runtimeOf } from "../eval/callables.ts";
import { pretty } from "../eval/display.ts";
import { readKeysetField } from "../eval/env-natives.ts";
import type { Runtime } from "../eval/runtime.ts";
import { chargeKeysetWrite } from "../gas/index.ts";
import { abbrevOnChain, PactError, pactErrorWithOnChainText } from "../runtime/errors.ts";
import { type KeysetName, parseKeysetName, renderKeysetName } from "../runtime/keyset-names.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { cat, list, render } from "../values/doc.ts";
import { parseQualifiedName } from "../values/names.ts";
import type { CapToken, KeySet, PactObject } from "../values/types.ts";
import { assertTopLevel, dbOperation, requireImpure } from "./db-access.ts";
import { CORE_NATIVES_BY_NAME } from "./index.ts";

/** Flat cost of `define-keyset` (the reference's table). */
export const DEFINE_KEYSET_GAS = 5_000;
/** Flat cost of the metadata natives (`describe-keyset`, `describe-table`, …). */
export const METADATA_GAS = 100_000;
/** Flat cost of `enforce-guard`, `enforce-keyset` and `keyset-ref-guard`. */
export const ENFORCE_GUARD_GAS = 2_000;
/** Keyset failures show each key cut to this many characters. */
export const FAILURE_KEY_CHARS = 8;
/** On chain, keyset failures show each key cut to this many characters. */
const ON_CHAIN_FAILURE_KEY_CHARS = 10;

/** The keyset name in `text`, or Pact's `InvalidKeysetNameFormat`. */
export function keysetNameArg(text: string): KeysetName {
  const parsed = parseKeysetName(text);
  if (parsed === null) throw new PactError("execution", `Invalid keyset name format: ${text}`);
  return parsed;
}

/** The stored keyset named `k`, or Pact's `NoSuchKeySet`. */
function storedKeyset(rt: Runtime, k: KeysetName): KeySet {
  const ks = dbOperation(() => rt.env.db.readKeySet(renderKeysetName(k)));
  if (ks === null) {
    throw new PactError("execution", `Cannot find keyset in database: '${renderKeysetName(k)}`);
  }
  return ks;
}

// ---------------------------------------------------------------------------------------------
// Enforcement

/** How many of the keyset's keys signed in a way usable now. */
function matchedSignatures(rt: Runtime, ks: KeySet): number {
  const signers = rt.env.signers;
  let matched = 0;
  for (const key of ks.keys) {
    const scope = signers.get(key);
    if (scope !== undefined && rt.caps.signatureApplies(scope)) matched++;
  }
  return matched;
}

/**
 * Pact's `KeysetPredicateFailure` (recoverable): `Keyset failure (keys-all): [k1..., k2...]`; on
 * chain, the bounded text `Keyset failure ( keys-all ):  k1...,` and so on (its pieces joined by
 * spaces, each key cut to {@link ON_CHAIN_FAILURE_KEY_CHARS} characters).
 */
export function keysetFailure(ks: KeySet): PactError {
  const keys = ks.keys.map((k) => `${Array.from(k).slice(0, FAILURE_KEY_CHARS).join("")}...`);
  // Laid out as Pact prints it: the key list breaks over lines past 80 columns.
  const pretty = render(cat(`Keyset failure (${ks.pred}): `, list(keys)));
  const onChainKeys = ks.keys.map((k, i, all) => {
    const key = abbrevOnChain(ON_CHAIN_FAILURE_KEY_CHARS, k);
    return i < all.length - 1 ? `${key},` : key;
  });
  return pactErrorWithOnChainText(
    "user",
    pretty,
    ["Keyset failure (", ks.pred, "): ", ...onChainKeys].join(" "),
  );
}

function invalidPredicate(expected: string): PactError {
  return new PactError("execution", `Invalid custom predicate for keyset ${expected}`);
}

/**
 * A user predicate on the counts: a module's defun (`m.f`, `ns.m.f`) or a native named bare
 * (`=`, `>=`, …).
 */
function runPredicate(rt: Runtime, pred: string, count: number, matched: number, site: CallSite) {
  const args = [BigInt(count), BigInt(matched)];
  let result: RuntimeValue;
  const qn = parseQualifiedName(pred);
  if (qn !== null) {
    const module = rt.getModule(qn.module, site);
    const def = module.defs.get(qn.name);
    if (def === undefined) {
      throw new PactError(
        "execution",
        `Module member does not exist ${pred}.{${module.info.hash}}`,
      );
    }
    if (!(def instanceof DefunDef)) throw invalidPredicate("expected defun");
    result = rt.apply(def, args, site);
  } else {
    const native = CORE_NATIVES_BY_NAME.get(pred);
    if (native === undefined) throw invalidPredicate("expected native");
    result = rt.apply(new NativeFunction(native, site), args, site);
  }
  if (typeof result !== "boolean") {
    throw new PactError("execution", `expected bool value, got ${pretty(result)}`);
  }
  return result;
}

/** Requires the keyset to be satisfied by the transaction's signatures (Pact's `isKeysetInSigs`). */
export function enforceKeyset(rt: Runtime, ks: KeySet, site: CallSite): true {
  const matched = matchedSignatures(rt, ks);
  const count = ks.keys.length;
  let ok: boolean;
  switch (ks.pred) {
    case "keys-all":
      ok = matched >= count;
      break;
    case "keys-any":
      ok = matched >= 1;
      break;
    case "keys-2":
      ok = matched >= 2;
      break;
    default:
      ok = runPredicate(rt, ks.pred, count, matched, site);
  }
  if (!ok) throw keysetFailure(ks);
  return true;
}

/** Requires the stored keyset named `k` to be satisfied. */
export function enforceKeysetNamed(rt: Runtime, k: KeysetName, site: CallSite): true {
  return enforceKeyset(rt, storedKeyset(rt, k), site);
}

// ---------------------------------------------------------------------------------------------
// Magic capabilities

/**
 * Pact's magic capabilities (of the pseudo-module `pact`), granted while a guard is enforced for
 * a system operation so a signature can be scoped to exactly that operation.
 */
export type MagicCap = "DEFINE_KEYSET" | "MODULE_KEYSET" | "DEFINE_NAMESPACE" | "NAMESPACE";

export function magicCapToken(cap: MagicCap, arg: string): CapToken {
  return { kind: "cap-token", name: `pact.${cap}`, moduleHash: "", args: [arg] };
}

/**
 * Runs `body` with the magic capability `(pact.CAP arg)` granted (Pact's `withMagicCap`); before
 * the fork that introduced them (flag `DisablePact52`), just runs `body`.
 */
export function withMagicCap<T>(rt: Runtime, cap: MagicCap, arg: string, body: () => T): T {
  if (rt.env.flags.has("DisablePact52")) return body();
  const token = magicCapToken(cap, arg);
  if (rt.caps.isGranted(token)) {
    throw new PactError(
      "execution",
      `Program encountered an unhandled raised error: magic cap already acquired: ${cap}`,
    );
  }
  rt.caps.slots.push({ cap: token, composed: [] });
  try {
    return body();
  } finally {
    // The body may have replaced the capability state with a snapshot holding a copy of the slot.
    const slots = rt.caps.slots;
    const i = slots.findIndex((s) => s.cap === token);
    if (i >= 0) slots.splice(i, 1);
  }
}

// ---------------------------------------------------------------------------------------------
// Natives

function stringArg(name: string, args: readonly RuntimeValue[], i: number): string {
  const v = args[i];
  if (typeof v !== "string") throw argsError(name, args);
  return v;
}

function isKeySet(v: RuntimeValue | undefined): v is KeySet {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "keyset";
}

/** The keyset the transaction data holds under `key`, as `read-keyset` reads it. */
function keysetInData(rt: Runtime, key: string): KeySet | null {
  const data = rt.env.data;
  return data instanceof Map ? readKeysetField((data as PactObject).get(key)) : null;
}

/**
 * `(define-keyset name ks)`, or `(define-keyset name)` reading the keyset from the transaction
 * data. Redefining needs the old keyset (with `DEFINE_KEYSET name` granted). With the flag
 * `RequireKeysetNs`, a new keyset must be named in the current namespace and the namespace's
 * user guard must pass (with `NAMESPACE ns` granted).
 */
const defineKeyset: NativeDef = {
  name: "define-keyset",
  minArgs: 1,
  maxArgs: 2,
  gas: DEFINE_KEYSET_GAS,
  impl(ctx, args) {
    const rt = runtimeOf(ctx);
    const site = ctx as CallSite;
    const text = stringArg("define-keyset", args, 0);
    let ks: KeySet | null;
    if (args.length === 2) {
      const v = args[1];
      if (!isKeySet(v)) throw argsError("define-keyset", args);
      assertTopLevel(rt, "define-keyset");
      ks = v;
    } else {
      assertTopLevel(rt, "define-keyset");
      ks = keysetInData(rt, text);
      if (ks === null) throw new PactError("user", "define-keyset failure");
    }
    const name = keysetNameArg(text);
    const key = renderKeysetName(name);
    const old = dbOperation(() => rt.env.db.readKeySet(key));
    if (old !== null) {
      withMagicCap(rt, "DEFINE_KEYSET", text, () => enforceKeyset(rt, old, site));
    } else if (rt.env.flags.has("RequireKeysetNs")) {
      const ns = rt.loaded.namespace;
      if (ns === null) {
        throw pactErrorWithOnChainText(
          "execution",
          "Cannot define keyset outside of a namespace",
          "Cannot define keyset outside of a namespace.",
        );
      }
      if (name.namespace !== ns) {
        throw pactErrorWithOnChainText(
          "execution",
          `Error defining keyset, namespace mismatch, expected ${ns}`,
          `Defining keyset failed because of a namespace mismatch. Expected namespace: ${abbrevOnChain(10, ns)}`,
        );
      }
      const user = dbOperation(() => rt.env.db.readNamespace(ns))?.user;
      if (user === undefined) throw new PactError("execution", `Namespace not found: ${ns}`);
      withMagicCap(rt, "NAMESPACE", ns, () => rt.enforceGuard(user, site));
    }
    requireImpure(rt);
    const write = ks;
    chargeKeysetWrite(rt.env.gas, write);
    dbOperation(() => rt.env.db.writeKeySet(key, write));
    return "Keyset write success";
  },
};

const describeKeyset: NativeDef = {
  name: "describe-keyset",
  minArgs: 1,
  maxArgs: 1,
  gas: METADATA_GAS,
  impl(ctx, args) {
    const rt = runtimeOf(ctx);
    const text = stringArg("describe-keyset", args, 0);
    assertTopLevel(rt, "describe-keyset");
    return storedKeyset(rt, keysetNameArg(text));
  },
};

const keysetRefGuard: NativeDef = {
  name: "keyset-ref-guard",
  minArgs: 1,
  maxArgs: 1,
  gas: ENFORCE_GUARD_GAS,
  impl(ctx, args) {
    const k = keysetNameArg(stringArg("keyset-ref-guard", args, 0));
    storedKeyset(runtimeOf(ctx), k);
    return { kind: "keyset-ref", namespace: k.namespace, name: k.name };
  },
};

export const KEYSET_NATIVES: readonly NativeDef[] = [keysetRefGuard, describeKeyset, defineKeyset];
