/**
 * Guards: enforcing each kind (Pact's `enforceGuard`), module admin (`acquire-module-admin` and
 * module guards), and the natives that make guards (`create-module-guard`,
 * `create-capability-guard`, `create-capability-pact-guard`, `create-pact-guard`).
 * `create-user-guard` is a special form of the compiler (it needs the function unevaluated).
 */
import { type DefCapDef, DefunDef, type LoadedModule } from "../compile/ir.ts";
import { type CallSite, runtimeOf } from "../eval/callables.ts";
import { acquire } from "../eval/capabilities.ts";
import { withPurity } from "../eval/codegen.ts";
import { pretty } from "../eval/display.ts";
import type { Runtime } from "../eval/runtime.ts";
import { Purity } from "../eval/types.ts";
import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import { parseQualifiedName, renderModuleName } from "../values/names.ts";
import {
  type CapabilityGuard,
  type CapToken,
  type Guard,
  isGuard,
  type ModRef,
  type ModuleName,
  type PactGuard,
  type UserGuard,
} from "../values/types.ts";
import { ENFORCE_GUARD_GAS, enforceKeyset, enforceKeysetNamed, keysetNameArg } from "./keysets.ts";

/** Flat cost of `acquire-module-admin` (the reference's table). */
export const ACQUIRE_MODULE_ADMIN_GAS = 20_000;

// ---------------------------------------------------------------------------------------------
// Module admin

/**
 * Acquires the admin (governance) of `module` for the rest of the transaction (Pact's
 * `acquireModuleAdmin`): its keyset must be satisfied, or its governance capability acquired.
 */
function acquireModuleAdmin(rt: Runtime, module: LoadedModule, site: CallSite): void {
  const name = module.info.rendered;
  if (rt.caps.moduleAdmin.has(name)) return;
  if (module.kind !== "module") {
    throw new PactError("execution", `Expected module, found interface: ${name}`);
  }
  const gov = module.governance;
  if (gov.kind === "keyset") enforceKeysetNamed(rt, keysetNameArg(gov.keyset), site);
  else acquire(rt, governanceToken(gov.cap), site, () => true, "normal");
  rt.caps.moduleAdmin.add(name);
}

function governanceToken(cap: DefCapDef): CapToken {
  return { kind: "cap-token", name: cap.qualifiedName, moduleHash: cap.module.hash, args: [] };
}

/** `(acquire-module-admin m)`. */
const acquireModuleAdminNative: NativeDef = {
  name: "acquire-module-admin",
  minArgs: 1,
  maxArgs: 1,
  gas: ACQUIRE_MODULE_ADMIN_GAS,
  impl(ctx, args) {
    const ref = args[0];
    if (!isModRef(ref)) throw argsError("acquire-module-admin", args);
    const rt = runtimeOf(ctx);
    const site = ctx as CallSite;
    acquireModuleAdmin(rt, rt.getModule(ref.module, site), site);
    return `Module admin for module ${renderModuleName(ref.module)} acquired`;
  },
};

// ---------------------------------------------------------------------------------------------
// Enforcing guards

/** The defpact id of the running defpact step, or null outside one. */
export function currentPactId(rt: Runtime): string | null {
  return rt.defpacts?.currentPactId(rt) ?? null;
}

function requirePactId(rt: Runtime): string {
  const id = currentPactId(rt);
  if (id === null) {
    throw new PactError(
      "execution",
      "Attempted to fetch defpact data, but currently not within defpact execution",
    );
  }
  return id;
}

function pactIdMismatch(current: string, expected: string): PactError {
  return new PactError(
    "user",
    `Capability pact guard failed: invalid pact id, expected ${expected} got ${current}`,
  );
}

/** Runs a user guard's function on its arguments, read-only; its value is ignored. */
function runUserGuard(rt: Runtime, g: UserGuard, site: CallSite): void {
  const qn = parseQualifiedName(g.fun);
  if (qn === null) throw new PactError("execution", `Invalid user guard function: ${g.fun}`);
  const module = rt.getModule(qn.module, site);
  const def = module.defs.get(qn.name);
  if (def === undefined) {
    throw new PactError("execution", `Module member does not exist ${g.fun}.{${module.info.hash}}`);
  }
  if (!(def instanceof DefunDef)) {
    throw new PactError(
      "execution",
      `User guard closure ${g.fun} must be defun, got${def.defKind}`,
    );
  }
  if (def.arity !== g.args.length) {
    throw new PactError("execution", "Attempted to apply a closure outside of native callsite");
  }
  // Before the Pact 5.3 fork user guards ran without any user-table access.
  const purity = rt.env.flags.has("DisablePact53") ? Purity.SysOnly : Purity.ReadOnly;
  withPurity(rt, purity, () => rt.callDefun(def, g.args, site));
}

function enforceCapabilityGuard(rt: Runtime, g: CapabilityGuard): void {
  if (g.pactId !== null) {
    const current = requirePactId(rt);
    if (current !== g.pactId) throw pactIdMismatch(current, g.pactId);
  }
  const token: CapToken = { kind: "cap-token", name: g.name, moduleHash: "", args: g.args };
  if (!rt.caps.isGranted(token)) {
    throw new PactError("user", `Capability not acquired: ${pretty(g)}`);
  }
}

function enforceModuleGuard(rt: Runtime, module: ModuleName, site: CallSite): void {
  const name = renderModuleName(module);
  if (rt.calledByModule(name)) return;
  acquireModuleAdmin(rt, rt.getModule(module, site), site);
}

function enforcePactGuard(rt: Runtime, g: PactGuard): void {
  const current = requirePactId(rt);
  if (current !== g.pactId) throw pactIdMismatch(current, g.pactId);
}

/** Requires `g` to pass (Pact's `enforceGuard`); failures of keysets and guards are recoverable. */
export function enforceGuard(rt: Runtime, g: Guard, site: CallSite): true {
  switch (g.kind) {
    case "keyset":
      return enforceKeyset(rt, g, site);
    case "keyset-ref":
      return enforceKeysetNamed(rt, { namespace: g.namespace, name: g.name }, site);
    case "user-guard":
      runUserGuard(rt, g, site);
      return true;
    case "capability-guard":
      enforceCapabilityGuard(rt, g);
      return true;
    case "module-guard":
      enforceModuleGuard(rt, g.module, site);
      return true;
    case "pact-guard":
      enforcePactGuard(rt, g);
      return true;
  }
}

// ---------------------------------------------------------------------------------------------
// Natives

function isModRef(v: RuntimeValue | undefined): v is ModRef {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "modref";
}

function isCapToken(v: RuntimeValue | undefined): v is CapToken {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "cap-token";
}

/** `enforce-guard` and `enforce-keyset` (the same native in Pact 5): a guard or a keyset name. */
function enforceNative(name: string): NativeDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    gas: ENFORCE_GUARD_GAS,
    impl(ctx: NativeContext, args) {
      const v = args[0];
      const rt = runtimeOf(ctx);
      const site = ctx as CallSite;
      if (isGuard(v)) return enforceGuard(rt, v, site);
      if (typeof v === "string") return enforceKeysetNamed(rt, keysetNameArg(v), site);
      throw argsError(name, args);
    },
  };
}

const createModuleGuard: NativeDef = {
  name: "create-module-guard",
  minArgs: 1,
  maxArgs: 1,
  gas: 2 * BASIC_WORK_GAS,
  impl(ctx, args) {
    const name = args[0];
    if (typeof name !== "string") throw argsError("create-module-guard", args);
    const rt = runtimeOf(ctx);
    const calling = rt.innermost()?.module.name ?? null;
    if (calling === null) {
      throw nativeFailure("create-module-guard", "create-module-guard: must call within module");
    }
    return { kind: "module-guard", module: calling, name };
  },
};

const createCapabilityGuard: NativeDef = {
  name: "create-capability-guard",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const token = args[0];
    if (!isCapToken(token)) throw argsError("create-capability-guard", args);
    return { kind: "capability-guard", name: token.name, args: token.args, pactId: null };
  },
};

const createCapabilityPactGuard: NativeDef = {
  name: "create-capability-pact-guard",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const token = args[0];
    if (!isCapToken(token)) throw argsError("create-capability-pact-guard", args);
    const pactId = requirePactId(runtimeOf(ctx));
    return { kind: "capability-guard", name: token.name, args: token.args, pactId };
  },
};

const createPactGuard: NativeDef = {
  name: "create-pact-guard",
  minArgs: 1,
  maxArgs: 1,
  gas: 2 * BASIC_WORK_GAS,
  impl(ctx, args) {
    const name = args[0];
    if (typeof name !== "string") throw argsError("create-pact-guard", args);
    return { kind: "pact-guard", pactId: requirePactId(runtimeOf(ctx)), name };
  },
};

export const GUARD_NATIVES: readonly NativeDef[] = [
  enforceNative("enforce-guard"),
  enforceNative("enforce-keyset"),
  createCapabilityGuard,
  createCapabilityPactGuard,
  createModuleGuard,
  createPactGuard,
  acquireModuleAdminNative,
];
