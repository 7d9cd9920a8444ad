/**
 * Capability natives: `require-capability`, `compose-capability`, `install-capability`,
 * `emit-event` and `enforce-verifier`. They are thin wrappers over src/pact/eval/capabilities.ts, which acquires
 * capabilities (`with-capability` is a special form compiled there).
 */
import { DefCapDef } from "../compile/ir.ts";
import { type CallSite, runtimeOf } from "../eval/callables.ts";
import {
  acquire,
  capEvent,
  defCapOf,
  emitEvent,
  enforceModuleCall,
  installCapability,
  prettyToken,
  tokenModule,
} from "../eval/capabilities.ts";
import { PactError, pactErrorWithOnChainText } from "../runtime/errors.ts";
import { argsError, nativeFailure } from "../runtime/native-errors.ts";
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { CapToken } from "../values/types.ts";

/** Flat cost of `require-capability`, `compose-capability` and `install-capability`. */
export const CAPABILITY_GAS = 500;
/** Flat cost of `emit-event`. */
export const EMIT_EVENT_GAS = 1000;
/** Flat cost of `enforce-verifier`. */
export const ENFORCE_VERIFIER_GAS = 10_000;

function tokenArg(name: string, args: readonly RuntimeValue[]): CapToken {
  const t = args[0];
  if (typeof t !== "object" || t === null || (t as { kind?: unknown }).kind !== "cap-token") {
    throw argsError(name, args);
  }
  return t as CapToken;
}

function siteOf(ctx: NativeContext): CallSite {
  return ctx as CallSite;
}

/** `(require-capability (CAP args))`: fails unless the capability is granted. */
const REQUIRE_CAPABILITY: NativeDef = {
  name: "require-capability",
  minArgs: 1,
  maxArgs: 1,
  gas: CAPABILITY_GAS,
  impl(ctx, args) {
    const token = tokenArg("require-capability", args);
    if (runtimeOf(ctx).caps.isGranted(token)) return true;
    throw pactErrorWithOnChainText(
      "user",
      `require-capability: not granted: ${prettyToken(token)}`,
      `The required capability has not been granted: ${token.name}`,
    );
  },
};

/**
 * `(compose-capability (CAP args))`, only in a defcap body: acquires the capability and, when the
 * defcap's body ends, keeps it granted for as long as the composing capability is.
 */
const COMPOSE_CAPABILITY: NativeDef = {
  name: "compose-capability",
  minArgs: 1,
  maxArgs: 1,
  gas: CAPABILITY_GAS,
  impl(ctx, args) {
    const token = tokenArg("compose-capability", args);
    const rt = runtimeOf(ctx);
    if (!(rt.innermost() instanceof DefCapDef)) {
      throw nativeFailure("compose-capability", "native must be called within a defcap body");
    }
    return acquire(rt, token, siteOf(ctx), () => true, "normal", "composed");
  },
};

/**
 * `(install-capability (CAP args))`: installs a managed capability with its managed value, so
 * code may acquire it without a signature granting it.
 */
const INSTALL_CAPABILITY: NativeDef = {
  name: "install-capability",
  minArgs: 1,
  maxArgs: 1,
  gas: CAPABILITY_GAS,
  impl(ctx, args) {
    const token = tokenArg("install-capability", args);
    const rt = runtimeOf(ctx);
    if (rt.inCap > 0) {
      throw new PactError("execution", "Form illegal within defcap install-capability");
    }
    installCapability(rt, token, true, siteOf(ctx));
    return "Installed capability";
  },
};

/**
 * `(emit-event (CAP args))`: emits the event of an `@event` or `@managed` capability without
 * acquiring it; only code of the capability's module may.
 */
const EMIT_EVENT: NativeDef = {
  name: "emit-event",
  minArgs: 1,
  maxArgs: 1,
  gas: EMIT_EVENT_GAS,
  impl(ctx, args) {
    const token = tokenArg("emit-event", args);
    const rt = runtimeOf(ctx);
    const site = siteOf(ctx);
    const module = tokenModule(token);
    enforceModuleCall(rt, module, site);
    const def = defCapOf(rt, token, site);
    if (def.meta === null) {
      throw new PactError(
        "execution",
        `Invalid event capability ${token.name}.{${token.moduleHash}}`,
      );
    }
    if (rt.callingModule() !== module) {
      throw new PactError(
        "execution",
        `Emitted event does not match module: ${rt.callingModule() ?? module}`,
      );
    }
    const event = capEvent(def, token);
    // With `EnableLegacyEventHashes`, events carry the module's current hash.
    const moduleHash = rt.env.flags.has("EnableLegacyEventHashes")
      ? def.module.hash
      : token.moduleHash;
    emitEvent(rt, { ...event, moduleHash });
    return true;
  },
};

/** The capability natives, in the reference's `-b` order. */
/**
 * `(enforce-verifier name)`, only in a defcap body: passes when the transaction carries the
 * verifier `name` and one of the capabilities it grants is being evaluated (this defcap's, or one
 * that composes it). The node checked the verifier's proof before the code ran.
 */
const ENFORCE_VERIFIER: NativeDef = {
  name: "enforce-verifier",
  minArgs: 1,
  maxArgs: 1,
  gas: ENFORCE_VERIFIER_GAS,
  impl(ctx, args) {
    const name = args[0];
    if (typeof name !== "string") throw argsError("enforce-verifier", args);
    const rt = runtimeOf(ctx);
    if (!(rt.innermost() instanceof DefCapDef)) {
      throw nativeFailure("enforce-verifier", "native must be called within a defcap body");
    }
    const granted = rt.env.verifiers.get(name);
    if (granted === undefined) throw verifierFailure(name, "not in transaction");
    if (!rt.caps.anyBeingEvaluated(granted)) throw verifierFailure(name, "not in scope");
    return true;
  },
};

function verifierFailure(name: string, reason: string): PactError {
  return pactErrorWithOnChainText(
    "user",
    `Verifier failure ${name}: ${reason}`,
    `Verifier ${name} failed with the message: ${reason}`,
  );
}

export const CAPABILITY_NATIVES: readonly NativeDef[] = [
  REQUIRE_CAPABILITY,
  COMPOSE_CAPABILITY,
  INSTALL_CAPABILITY,
  EMIT_EVENT,
  ENFORCE_VERIFIER,
];
