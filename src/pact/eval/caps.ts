/**
 * Capability state of a transaction (Pact's `CapState`): the stack of granted capabilities (each
 * with the capabilities composed into it), installed managed capabilities, the capabilities
 * installed by code (`install-capability`), the capabilities whose defcap bodies are running, and
 * the modules whose admin (governance) has been acquired.
 */
import { pactValueEquals } from "../values/equality.ts";
import type { CapToken, PactValue } from "../values/types.ts";

export interface CapSlot {
  readonly cap: CapToken;
  readonly composed: CapToken[];
}

/**
 * An installed managed capability. `key` is the token that identifies it (for a capability with a
 * manager function, the token without the managed parameter); `value` is the managed parameter's
 * current value (null for automatically managed ones, whose `used` marks the one allowed use).
 */
export interface ManagedCap {
  readonly key: CapToken;
  readonly original: CapToken;
  value: PactValue | null;
  used: boolean;
}

export function sameToken(a: CapToken, b: CapToken): boolean {
  if (a.name !== b.name || a.args.length !== b.args.length) return false;
  for (let i = 0; i < a.args.length; i++)
    if (!pactValueEquals(a.args[i]!, b.args[i]!)) return false;
  return true;
}

function includesToken(tokens: readonly CapToken[], token: CapToken): boolean {
  for (const t of tokens) if (sameToken(t, token)) return true;
  return false;
}

export class CapState {
  /** Granted capabilities, innermost (most recently acquired) last. */
  slots: CapSlot[] = [];
  managed: ManagedCap[] = [];
  /** Modules whose governance has been granted in this transaction, by rendered name. */
  moduleAdmin = new Set<string>();
  /** Capabilities installed by code (`install-capability`): they disable unscoped signatures. */
  autonomous: CapToken[] = [];
  /** Capabilities whose defcap body is being evaluated (innermost last). */
  beingEvaluated: CapToken[] = [];

  /** Whether `token` is granted: on the stack, or composed into a capability on the stack. */
  isGranted(token: CapToken): boolean {
    for (const slot of this.slots) {
      if (sameToken(slot.cap, token)) return true;
      for (const c of slot.composed) if (sameToken(c, token)) return true;
    }
    return false;
  }

  findManaged(key: CapToken): ManagedCap | undefined {
    return this.managed.find((m) => sameToken(m.key, key));
  }

  /** Whether one of `tokens` is being evaluated (Pact's `anyCapabilityBeingEvaluated`). */
  anyBeingEvaluated(tokens: readonly CapToken[]): boolean {
    for (const t of tokens) if (includesToken(this.beingEvaluated, t)) return true;
    return false;
  }

  /**
   * Whether a signature scoped to `sigCaps` counts for keyset enforcement now (Pact's
   * `checkSigCaps`): an unscoped signature counts unless code installed a capability; a scoped
   * one counts when one of its capabilities is being evaluated (inside a defcap body) or, when
   * no defcap body runs, is granted.
   */
  signatureApplies(sigCaps: readonly CapToken[]): boolean {
    if (sigCaps.length === 0) return this.autonomous.length === 0;
    if (this.beingEvaluated.length > 0) return this.anyBeingEvaluated(sigCaps);
    for (const c of sigCaps) if (this.isGranted(c)) return true;
    return false;
  }

  /** A copy to restore when a recoverable error is caught (`try`, `expect-failure`). */
  snapshot(): CapState {
    const copy = new CapState();
    copy.slots = this.slots.map((s) => ({ cap: s.cap, composed: [...s.composed] }));
    copy.managed = this.managed.map((m) => ({ ...m }));
    copy.moduleAdmin = new Set(this.moduleAdmin);
    copy.autonomous = [...this.autonomous];
    copy.beingEvaluated = [...this.beingEvaluated];
    return copy;
  }
}
