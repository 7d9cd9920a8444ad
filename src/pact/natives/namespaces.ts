/**
 * Namespaces: the natives `namespace`, `define-namespace` and `describe-namespace`, the
 * namespace policy (Pact's `NamespacePolicy`; the REPL sets it with `env-namespace-policy`), and
 * the check that new modules and interfaces may be installed where the transaction is.
 *
 * Policies: `simple` lets anyone define a namespace and install code in the root namespace;
 * `managed` asks a manager function `(ns-name admin-guard) -> bool` whether a new namespace may
 * be defined, and allows root installs only when configured to.
 */

import { DefunDef } from "../compile/ir.ts";
import type { NamespaceRecord } from "../db/index.ts";
import { type CallSite, runtimeOf } from "../eval/callables.ts";
import type { NamespacePolicy } from "../eval/env.ts";
import type { Runtime } from "../eval/runtime.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { chargeNamespaceLookup, chargeNamespaceRead, chargeNamespaceWrite } from "../gas/index.ts";
import { PactError, pactErrorWithOnChainText } from "../runtime/errors.ts";
import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { parseQualifiedName } from "../values/names.ts";
import { type Guard, isGuard, type PactValue } from "../values/types.ts";
import { assertTopLevel, dbOperation, requireImpure } from "./db-access.ts";
import { METADATA_GAS, withMagicCap } from "./keysets.ts";

/** Flat cost of `define-namespace` (the reference's table). */
export const DEFINE_NAMESPACE_GAS = 25_000;

// A namespace name: a Latin-1 letter, then Latin-1 letters, digits and Pact's identifier symbols.
const NAMESPACE_NAME = /^[\p{L}](?:[\p{L}\p{N}%#+\-_&$@<>=^?*!|/~])*$/u;

/** Whether `name` is a valid namespace name (Pact's `isValidNsFormat`). */
export function isValidNamespaceName(name: string): boolean {
  for (let i = 0; i < name.length; i++) if (name.charCodeAt(i) > 0xff) return false;
  return NAMESPACE_NAME.test(name);
}

function namespaceNotFound(name: string): PactError {
  return new PactError("execution", `Namespace not found: ${name}`);
}

function readNamespace(rt: Runtime, name: string): NamespaceRecord | null {
  return dbOperation(() => rt.env.db.readNamespace(name));
}

/** Reads a namespace for a native, charged as Pact does: the name, then the record found. */
function lookupNamespace(rt: Runtime, name: string): NamespaceRecord | null {
  chargeNamespaceLookup(rt.env.gas, name);
  const record = readNamespace(rt, name);
  if (record !== null) chargeNamespaceRead(rt.env.gas, record);
  return record;
}

/** The policy in force (the simple one unless the environment names another). */
export function namespacePolicy(rt: Runtime): NamespacePolicy {
  return rt.env.namespacePolicy ?? { kind: "simple" };
}

/**
 * Whether a new module or interface may be installed (Pact's `enforceNamespaceInstall`): in a
 * namespace, its user guard must pass (with `NAMESPACE ns` granted); in the root namespace, the
 * policy must allow it.
 */
export function enforceNamespaceInstall(rt: Runtime, site: CallSite): void {
  const ns = rt.loaded.namespace;
  if (ns !== null) {
    const record = readNamespace(rt, ns);
    if (record === null) throw namespaceNotFound(ns);
    withMagicCap(rt, "NAMESPACE", ns, () => rt.enforceGuard(record.user, site));
    return;
  }
  const policy = namespacePolicy(rt);
  if (policy.kind === "managed" && !policy.allowRoot) {
    throw pactErrorWithOnChainText(
      "execution",
      "Namespace installation error: cannot install in root namespace",
      "Namespace installation failed. Cannot install modules in the root namespace.",
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Natives

const namespaceNative: NativeDef = {
  name: "namespace",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const name = args[0];
    if (typeof name !== "string") throw argsError("namespace", args);
    const rt = runtimeOf(ctx);
    assertTopLevel(rt, "namespace");
    if (name === "") {
      rt.loaded.namespace = null;
      return "Namespace reset to root";
    }
    if (lookupNamespace(rt, name) === null) throw namespaceNotFound(name);
    rt.loaded.namespace = name;
    return `Namespace set to ${name}`;
  },
};

/** The manager function of a managed policy, which must still be a defun. */
function managerFunction(rt: Runtime, manager: string, site: CallSite): DefunDef {
  const qn = parseQualifiedName(manager);
  const def = qn === null ? undefined : rt.getModule(qn.module, site).defs.get(qn.name);
  if (!(def instanceof DefunDef)) {
    throw nativeFailure(
      "define-namespace",
      "Fatal error: namespace manager function is not a defun",
    );
  }
  return def;
}

/**
 * `(define-namespace name user-guard admin-guard)`: redefining needs the old admin guard (with
 * `DEFINE_NAMESPACE name` granted); a new namespace needs the policy's approval.
 */
const defineNamespace: NativeDef = {
  name: "define-namespace",
  minArgs: 3,
  maxArgs: 3,
  gas: DEFINE_NAMESPACE_GAS,
  impl(ctx, args) {
    const [name, user, admin] = args;
    if (typeof name !== "string" || !isGuard(user) || !isGuard(admin)) {
      throw argsError("define-namespace", args);
    }
    const rt = runtimeOf(ctx);
    const site = ctx as CallSite;
    assertTopLevel(rt, "define-namespace");
    if (!isValidNamespaceName(name)) {
      throw nativeFailure("define-namespace", "invalid namespace format");
    }
    const existing = lookupNamespace(rt, name);
    if (existing !== null) {
      withMagicCap(rt, "DEFINE_NAMESPACE", name, () => rt.enforceGuard(existing.admin, site));
    } else {
      const policy = namespacePolicy(rt);
      if (policy.kind === "managed") {
        const manager = managerFunction(rt, policy.manager, site);
        const allowed = rt.apply(manager, [name, admin], site);
        if (allowed === false) {
          throw nativeFailure("define-namespace", "Namespace definition not permitted");
        }
        if (allowed !== true) {
          throw nativeFailure(
            "define-namespace",
            "Namespace manager function returned an invalid value",
          );
        }
      }
    }
    requireImpure(rt);
    const record: NamespaceRecord = { name, user: user as Guard, admin: admin as Guard };
    chargeNamespaceWrite(rt.env.gas, record);
    dbOperation(() => rt.env.db.writeNamespace(record));
    return `Namespace defined: ${name}`;
  },
};

const describeNamespace: NativeDef = {
  name: "describe-namespace",
  minArgs: 1,
  maxArgs: 1,
  gas: METADATA_GAS,
  impl(ctx, args) {
    const name = args[0];
    if (typeof name !== "string") throw argsError("describe-namespace", args);
    const record = lookupNamespace(runtimeOf(ctx), name);
    if (record === null) throw namespaceNotFound(name);
    return new Map<string, PactValue>([
      ["user-guard", record.user],
      ["admin-guard", record.admin],
      ["namespace-name", name],
    ]);
  },
};

export const NAMESPACE_NATIVES: readonly NativeDef[] = [
  namespaceNative,
  defineNamespace,
  describeNamespace,
];

/**
 * The REPL's `(env-namespace-policy allow-root manager)`: a managed policy whose manager is a
 * defun of two parameters (the namespace name and its admin guard).
 */
export const ENV_NAMESPACE_POLICY: NativeDef = {
  name: "env-namespace-policy",
  minArgs: 2,
  maxArgs: 2,
  gas: 0,
  impl(ctx, args) {
    const [allowRoot, manager] = args as [RuntimeValue, RuntimeValue];
    // Only a module's defun will do (Pact matches a defun closure; a lambda is an argument error).
    if (typeof allowRoot !== "boolean" || !(manager instanceof DefunDef)) {
      throw argsError("env-namespace-policy", args);
    }
    if (manager.arity !== 2) {
      throw nativeFailure(
        "env-namespace-policy",
        "Namespace manager function has invalid argument length",
      );
    }
    runtimeOf(ctx).env.namespacePolicy = {
      kind: "managed",
      allowRoot,
      manager: manager.qualifiedName,
    };
    return "Installed namespace policy";
  },
};
