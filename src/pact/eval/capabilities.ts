/**
 * Acquiring capabilities (Pact's `evalCap`): `with-capability`, module governance, and the REPL's
 * `test-capability`. A capability already granted just runs the body. Otherwise its defcap body
 * runs first (with the capability on the stack, where forms like `with-capability` are illegal);
 * managed capabilities must be installed (explicitly or by a signer's capability list) and are
 * used up or updated by their manager function; `@event` and `@managed` capabilities emit an
 * event.
 */
import { DefCapDef, type Frame } from "../compile/definitions.ts";
import type { RuntimeValue } from "../runtime/types.ts";
import { parseQualifiedName } from "../values/names.ts";
import type { CapToken, PactValue } from "../values/types.ts";
import type { CallSite } from "./callables.ts";
import { type CapSlot, type ManagedCap, sameToken } from "./caps.ts";
import { bodyCode } from "./codegen.ts";
import { pretty } from "./display.ts";
import type { Runtime } from "./runtime.ts";

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

/** How the capability is being acquired: normally, or by `test-capability` (body not run). */
export type AcquireMode = "normal" | "test";

/** Acquires `token` for the duration of `body`. */
export function evalCapability<T extends RuntimeValue>(
  rt: Runtime,
  token: CapToken,
  site: CallSite,
  body: () => T,
  mode: AcquireMode = "normal",
): T | RuntimeValue {
  const callingModule = rt.callingModule();
  const capModule = token.name.slice(0, token.name.lastIndexOf("."));
  if (callingModule !== capModule && !rt.caps.moduleAdmin.has(capModule)) {
    throw rt.error(
      "execution",
      `Module admin necessary for operation but has not been acquired:${capModule}`,
      site,
    );
  }
  return acquire(rt, token, site, body, mode);
}

/** `acquire` without the calling-module check (governance, tests). */
export function acquire<T extends RuntimeValue>(
  rt: Runtime,
  token: CapToken,
  site: CallSite,
  body: () => T,
  mode: AcquireMode,
): T | RuntimeValue {
  if (rt.caps.isGranted(token)) return body();
  const def = defCapOf(rt, token, site);
  const meta = def.meta;
  if (meta === null || meta.kind === "event") {
    const slot: CapSlot = { cap: token, composed: [] };
    rt.caps.slots.unshift(slot);
    runCapBody(rt, def, token, site);
    if (mode === "test") return true;
    if (meta !== null) emit(rt, def, token);
    return withSlot(rt, slot, body);
  }
  if (meta.manager === null) {
    const managed = findOrInstall(rt, token, token, site);
    if (managed.used)
      throw rt.error("user", "One-shot managed capability used more than once", site);
    managed.used = true;
    const slot: CapSlot = { cap: token, composed: [] };
    rt.caps.slots.unshift(slot);
    runCapBody(rt, def, token, site);
    if (mode === "test") return true;
    emit(rt, def, token);
    return withSlot(rt, slot, body);
  }
  const { paramIndex, fn } = meta.manager;
  const key: CapToken = { ...token, args: token.args.filter((_, i) => i !== paramIndex) };
  const managed = findOrInstall(rt, key, token, site, paramIndex);
  const slot: CapSlot = { cap: managed.original, composed: [] };
  rt.caps.slots.unshift(slot);
  runCapBody(rt, def, token, site);
  if (mode === "test") return true;
  const requested = token.args[paramIndex]!;
  const updated = rt.callDefun(fn, [managed.value!, requested], site);
  managed.value = updated as PactValue;
  (slot as { cap: CapToken }).cap = token;
  emit(rt, def, token);
  return withSlot(rt, slot, body);
}

/** Runs `body` with `slot` on the stack, popping it afterwards. */
function withSlot<T>(rt: Runtime, slot: CapSlot, body: () => T): T {
  try {
    return body();
  } finally {
    const i = rt.caps.slots.indexOf(slot);
    if (i >= 0) rt.caps.slots.splice(i, 1);
  }
}

/** Evaluates the defcap's body with the token's arguments as a `defcap` stack frame. */
function runCapBody(rt: Runtime, def: DefCapDef, token: CapToken, site: CallSite): void {
  const frame: Frame = new Array(def.frameSize);
  frame[0] = null;
  for (let i = 0; i < token.args.length; i++) frame[i + 1] = token.args[i];
  const code = bodyCode(def);
  rt.withFrame(def, token.args, site, () => {
    rt.inCap++;
    try {
      return code(rt, frame);
    } finally {
      rt.inCap--;
    }
  });
}

/**
 * The installed managed capability for `key`, installing it from a signer's capability list when
 * a signature grants it.
 */
function findOrInstall(
  rt: Runtime,
  key: CapToken,
  token: CapToken,
  site: CallSite,
  paramIndex = -1,
): ManagedCap {
  const found = rt.caps.findManaged(key);
  if (found !== undefined) return found;
  for (const caps of rt.env.signers.values()) {
    for (const granted of caps) {
      const matches =
        paramIndex < 0
          ? sameToken(granted, token)
          : granted.name === token.name &&
            sameToken({ ...granted, args: granted.args.filter((_, i) => i !== paramIndex) }, key);
      if (!matches) continue;
      const installed: ManagedCap = {
        key,
        original: granted,
        value: paramIndex < 0 ? null : (granted.args[paramIndex] ?? null),
        used: false,
      };
      rt.caps.managed.push(installed);
      return installed;
    }
  }
  throw rt.error("execution", `Managed capability not installed: ${prettyToken(token)}`, site);
}

/** Installs a managed capability (`install-capability`, `test-capability`). */
export function installCapability(rt: Runtime, token: CapToken, site: CallSite): void {
  const def = defCapOf(rt, token, site);
  const meta = def.meta;
  if (meta === null || meta.kind === "event") {
    throw rt.error(
      "execution",
      `Install capability error: capability is not managed and cannot be installed: ${token.name}`,
      site,
    );
  }
  const paramIndex = meta.manager === null ? -1 : meta.manager.paramIndex;
  const key: CapToken =
    paramIndex < 0 ? token : { ...token, args: token.args.filter((_, i) => i !== paramIndex) };
  if (rt.caps.findManaged(key) !== undefined) {
    throw rt.error("execution", `Capability already installed: ${prettyToken(token)}`, site);
  }
  rt.caps.managed.push({
    key,
    original: token,
    value: paramIndex < 0 ? null : token.args[paramIndex]!,
    used: false,
  });
}

function emit(rt: Runtime, def: DefCapDef, token: CapToken): void {
  rt.events.push({
    name: def.name,
    params: token.args,
    module: def.module.name,
    moduleHash: def.module.hash,
  });
}

/** `(m.CAP a b)`, as Pact prints a capability in messages. */
export function prettyToken(token: CapToken): string {
  return `(${token.name}${token.args.map((a) => ` ${pretty(a)}`).join("")})`;
}
