/**
 * Acquiring capabilities (Pact's `evalCap`): `with-capability`, `compose-capability`, module
 * governance, and the REPL's `test-capability`. A capability already granted just runs the body.
 * Otherwise its defcap body runs first (with the capability on the stack and marked as being
 * evaluated, where forms like `with-capability` are illegal); then the body runs with the
 * capability granted, and the capability leaves the stack — or, when it was composed, joins the
 * capability that composed it.
 *
 * Managed capabilities must be installed (by `install-capability`, or from a signer's capability
 * list). An automatically managed one (`@managed` alone) may be acquired once; one with a manager
 * function (`@managed param fn`) keeps a managed value that `fn` updates on every acquisition
 * (coin's `TRANSFER`: the signed amount, decreased by each transfer). `@event` and `@managed`
 * capabilities emit an event when acquired.
 */
import { DefCapDef } from "../compile/ir.ts";
import { expectedPactValueError, moduleAdminNotAcquired } from "../runtime/native-errors.ts";
import { isCallable, type RuntimeValue } from "../runtime/types.ts";
import { parseQualifiedName } from "../values/names.ts";
import { type CapToken, type PactValue, UNIT } from "../values/types.ts";
import type { CallSite } from "./callables.ts";
import { type ManagedCap, sameToken } from "./caps.ts";
import { bodyCode } from "./codegen.ts";
import { pretty } from "./display.ts";
import type { Runtime } from "./runtime.ts";
import type { Frame, PactEvent } from "./types.ts";

/** The defcap a token names. */
export function defCapOf(rt: Runtime, token: CapToken, site: CallSite): DefCapDef {
  const qn = parseQualifiedName(token.name);
  const def = qn === null ? undefined : rt.getModule(qn.module, site).defs.get(qn.name);
  if (!(def instanceof DefCapDef)) {
    throw rt.error(
      "execution",
      `Fatal execution error, invariant violated: Expected a defcap for free variable ${token.name}`,
      site,
    );
  }
  return def;
}

/** How the capability is being acquired: normally, or by `test-capability` (no manager run). */
export type AcquireMode = "normal" | "test";

/**
 * What happens to the capability when the body ends (Pact's `CapPopState`): it leaves the stack
 * (`invoke`), or it joins, with what was composed into it, the capability below it (`composed`).
 */
export type CapPop = "invoke" | "composed";

/** The module of a capability token's name: `ns.m` of `ns.m.CAP`. */
export function tokenModule(token: CapToken): string {
  return token.name.slice(0, token.name.lastIndexOf("."));
}

/**
 * Code outside module `module` may only act on its capabilities (acquire them, emit their
 * events) when the module's admin has been acquired (Pact's `guardForModuleCall`).
 */
export function enforceModuleCall(rt: Runtime, module: string, site: CallSite): void {
  if (rt.callingModule() === module || rt.caps.moduleAdmin.has(module)) return;
  throw rt.locate(moduleAdminNotAcquired(module), site);
}

/** `with-capability`: acquires `token` for the duration of `body`. */
export function evalCapability<T extends RuntimeValue>(
  rt: Runtime,
  token: CapToken,
  site: CallSite,
  body: () => T,
): T | RuntimeValue {
  enforceModuleCall(rt, tokenModule(token), site);
  return acquire(rt, token, site, body, "normal");
}

/** `acquire` without the calling-module check (governance, `compose-capability`, tests). */
export function acquire<T extends RuntimeValue>(
  rt: Runtime,
  token: CapToken,
  site: CallSite,
  body: () => T,
  mode: AcquireMode,
  pop: CapPop = "invoke",
): T | RuntimeValue {
  if (rt.caps.isGranted(token)) return body();
  const profiler = rt.profiler;
  if (profiler !== null) profiler.enter("capability", token.name);
  let granted: Granted;
  try {
    granted = grant(rt, token, site, mode);
  } finally {
    if (profiler !== null) profiler.exit();
  }
  // `test-capability` leaves an unmanaged capability granted until the transaction ends.
  if (granted === "test") return UNIT;
  return withCapBody(rt, granted.depth, pop, granted.replace, granted.event, body);
}

/**
 * A capability granted: its slot, the token that replaces the slot's once the body runs (a
 * managed capability's requested token), and its event.
 */
type Granted =
  | { readonly depth: number; readonly replace: CapToken | null; readonly event: PactEvent | null }
  | "test";

/**
 * Grants `token`, not granted yet: pushes its slot and runs its defcap's body and, for a managed
 * capability, its manager.
 */
function grant(rt: Runtime, token: CapToken, site: CallSite, mode: AcquireMode): Granted {
  const def = defCapOf(rt, token, site);
  if (def.arity !== token.args.length) {
    throw rt.error(
      "execution",
      `Fatal execution error, invariant violated: argument length mismatch for ${token.name}: ${token.args.length}, expected ${def.arity}`,
      site,
    );
  }
  const meta = def.meta;
  if (meta === null) {
    const depth = pushSlot(rt, token);
    runCapBody(rt, def, token, token, site);
    return mode === "test" ? "test" : { depth, replace: null, event: null };
  }
  if (meta.kind === "event") {
    const depth = pushSlot(rt, token);
    runCapBody(rt, def, token, token, site);
    return { depth, replace: null, event: capEvent(def, token) };
  }
  const event = mode === "normal" ? capEvent(def, token) : null;
  if (meta.manager === null) {
    const managed = rt.caps.findManaged(token) ?? installFromSignature(rt, token, -1, site);
    if (managed.used)
      throw rt.error("user", "One-shot managed capability used more than once", site);
    storeManaged(rt, { ...managed, used: true });
    const depth = pushSlot(rt, token);
    runCapBody(rt, def, token, token, site);
    return { depth, replace: null, event };
  }
  const { paramIndex, fn } = meta.manager;
  const key = withoutArg(token, paramIndex);
  const managed = rt.caps.findManaged(key) ?? installFromSignature(rt, token, paramIndex, site);
  // The defcap body runs with the installed token on the stack (a signature scoped to it then
  // counts); the requested token replaces it once the manager accepted the request.
  const depth = pushSlot(rt, managed.original);
  runCapBody(rt, def, token, managed.original, site);
  if (mode === "normal") {
    const updated = rt.callDefun(fn, [managed.value!, token.args[paramIndex]!], site);
    if (isCallable(updated)) throw rt.locate(expectedPactValueError(), site);
    storeManaged(rt, { ...managed, value: updated });
  }
  return { depth, replace: token, event };
}

/** Pushes a slot for `cap`; returns its index. */
function pushSlot(rt: Runtime, cap: CapToken): number {
  rt.caps.slots.push({ cap, composed: [] });
  return rt.caps.slots.length - 1;
}

/**
 * Runs `body` with the capability granted: replaces the slot's token when `replace` is given,
 * emits `event`, then pops the slot as `pop` says. (Slots are addressed by index, since a
 * recovered error inside `body` restores a copy of the capability state.)
 */
function withCapBody<T>(
  rt: Runtime,
  depth: number,
  pop: CapPop,
  replace: CapToken | null,
  event: PactEvent | null,
  body: () => T,
): T {
  if (replace !== null) {
    const slot = rt.caps.slots[depth];
    if (slot !== undefined) rt.caps.slots[depth] = { cap: replace, composed: slot.composed };
  }
  if (event !== null) emitEvent(rt, event);
  let value: T;
  try {
    value = body();
  } catch (e) {
    if (rt.caps.slots.length > depth) rt.caps.slots.length = depth;
    throw e;
  }
  const slots = rt.caps.slots;
  const top = slots[depth];
  if (slots.length > depth) slots.length = depth;
  if (pop === "composed" && top !== undefined && depth > 0) {
    slots[depth - 1]?.composed.push(top.cap, ...top.composed);
  }
  return value;
}

/**
 * Evaluates the defcap's body with the requested token's arguments as a `defcap` stack frame,
 * with `evaluated` marked as being evaluated (for signature scoping).
 */
function runCapBody(
  rt: Runtime,
  def: DefCapDef,
  token: CapToken,
  evaluated: CapToken,
  site: CallSite,
): void {
  const frame: Frame = new Array(def.frameSize);
  frame[0] = null;
  for (let i = 0; i < token.args.length; i++) frame[i + 1] = token.args[i];
  const code = bodyCode(def);
  const previous = rt.caps.beingEvaluated;
  rt.caps.beingEvaluated = [...previous, evaluated];
  let result: RuntimeValue;
  try {
    result = rt.withFrame(def, token.args, site, () => {
      rt.inCap++;
      try {
        return code(rt, frame);
      } finally {
        rt.inCap--;
      }
    });
  } finally {
    rt.caps.beingEvaluated = previous;
  }
  if (isCallable(result)) throw rt.locate(expectedPactValueError(), site);
}

function withoutArg(token: CapToken, index: number): CapToken {
  return { ...token, args: token.args.filter((_, i) => i !== index) };
}

/** Adds or replaces (by key) an installed managed capability in the current state. */
function storeManaged(rt: Runtime, entry: ManagedCap): void {
  const managed = rt.caps.managed;
  const i = managed.findIndex((m) => sameToken(m.key, entry.key));
  if (i >= 0) managed[i] = entry;
  else managed.push(entry);
}

/** Whether signed capability `granted` installs `token` (managed parameter `paramIndex` aside). */
function signedFor(granted: CapToken, token: CapToken, paramIndex: number): boolean {
  if (paramIndex < 0) return sameToken(granted, token);
  if (granted.name !== token.name || granted.args.length !== token.args.length) return false;
  return sameToken(withoutArg(granted, paramIndex), withoutArg(token, paramIndex));
}

/**
 * Installs the managed capability `token` (or, with a managed parameter, one differing only in
 * it) from the signers' capability lists; fails when no signature grants it.
 */
function installFromSignature(
  rt: Runtime,
  token: CapToken,
  paramIndex: number,
  site: CallSite,
): ManagedCap {
  for (const caps of rt.env.signers.values()) {
    for (const granted of caps) {
      if (!signedFor(granted, token, paramIndex)) continue;
      const installed: ManagedCap = {
        key: paramIndex < 0 ? granted : withoutArg(granted, paramIndex),
        original: { ...granted, moduleHash: token.moduleHash },
        value: paramIndex < 0 ? null : granted.args[paramIndex]!,
        used: false,
      };
      rt.caps.managed.push(installed);
      return installed;
    }
  }
  throw rt.error("execution", `Managed capability not installed: ${prettyToken(token)}`, site);
}

/**
 * Installs a managed capability (Pact's `installCap`): by `install-capability` (`autonomous`,
 * which also forbids installing one a signature already grants, and disables unscoped
 * signatures) or by `test-capability`.
 */
export function installCapability(
  rt: Runtime,
  token: CapToken,
  autonomous: boolean,
  site: CallSite,
): void {
  const meta = defCapOf(rt, token, site).meta;
  if (meta === null || meta.kind === "event") {
    throw rt.error(
      "execution",
      `Install capability error: capability is not managed and cannot be installed: ${token.name}`,
      site,
    );
  }
  const paramIndex = meta.manager === null ? -1 : meta.manager.paramIndex;
  const key = paramIndex < 0 ? token : withoutArg(token, paramIndex);
  const alreadyInstalled = () =>
    rt.error("execution", `Capability already installed: ${prettyToken(token)}`, site);
  if (rt.caps.findManaged(key) !== undefined) throw alreadyInstalled();
  rt.caps.managed.push({
    key,
    original: token,
    value: paramIndex < 0 ? null : token.args[paramIndex]!,
    used: false,
  });
  if (!autonomous) return;
  if (paramIndex >= 0) {
    for (const caps of rt.env.signers.values())
      for (const granted of caps)
        if (signedFor(granted, token, paramIndex)) throw alreadyInstalled();
  }
  rt.caps.autonomous.push(token);
}

/** The event a capability's acquisition emits (Pact's `fqctToPactEvent`). */
export function capEvent(def: DefCapDef, token: CapToken): PactEvent {
  return {
    name: def.name,
    params: token.args,
    module: def.module.name,
    moduleHash: token.moduleHash,
  };
}

/** Records an event, unless the `DisablePactEvents` flag is set. */
export function emitEvent(rt: Runtime, event: PactEvent): void {
  if (!rt.env.flags.has("DisablePactEvents")) rt.events.push(event);
}

/** `(m.CAP a b)`, as Pact prints a capability in messages. */
export function prettyToken(token: CapToken): string {
  return `(${token.name}${token.args.map((a: PactValue) => ` ${pretty(a)}`).join("")})`;
}
