/**
 * Types the evaluator's files share, and the natives and other callers see: the code slots'
 * type, purity, events, and what the evaluator is given (defpact engine, keyset authority,
 * coverage sink). The compiled tree (src/pact/compile/ir.ts) holds the evaluator's code in opaque
 * slots; the evaluator owns their type here and converts with {@link codeOf} and {@link toSlot}
 * (casts only: no cost at run time).
 */
import type { CodeSlot, DefPactDef } from "../compile/ir.ts";
import type { RuntimeValue } from "../runtime/types.ts";
import type { Guard, ModuleName, PactValue } from "../values/types.ts";
import type { CallSite } from "./callables.ts";
import type { Runtime } from "./runtime.ts";

/** A frame: slot 0 is the enclosing frame (or null), then parameters, then `let` slots. */
export type Frame = unknown[];

/** The evaluator's executable form of an IR body (see ./codegen.ts). */
export type Code = (rt: Runtime, frame: Frame) => RuntimeValue;

/** The code kept in a definition's or lambda's slot. */
export function codeOf(slot: CodeSlot): Code;
export function codeOf(slot: CodeSlot | undefined): Code | undefined;
export function codeOf(slot: CodeSlot | undefined): Code | undefined {
  return slot as unknown as Code | undefined;
}

/** Code in the form its slot holds. */
export function toSlot(code: Code): CodeSlot {
  return code as unknown as CodeSlot;
}

/** What database access the code being evaluated may have (Pact's `Purity`). */
export enum Purity {
  /** Reads and writes. */
  Impure = 0,
  /** Reads only: `enforce` conditions, `try` bodies, user guards. */
  ReadOnly = 1,
  /** No user-table access: constants, module governance. */
  SysOnly = 2,
}

/** An event emitted by a capability (`@event`, `@managed`) or `emit-event`. */
export interface PactEvent {
  /** The capability's name without the module, e.g. `TRANSFER`. */
  readonly name: string;
  readonly params: readonly PactValue[];
  readonly module: ModuleName;
  readonly moduleHash: string;
}

/**
 * Starts defpacts (src/pact/eval/defpact-engine.ts); without one, applying a defpact is an error.
 */
export interface DefPactEngine {
  init(rt: Runtime, def: DefPactDef, args: readonly PactValue[], site: CallSite): RuntimeValue;
  /** The id of the defpact being executed (`pact-id`, pact guards), or null outside one. */
  currentPactId(rt: Runtime): string | null;
}

/**
 * Enforces keysets and guards for the evaluator (module governance, installing code). The state
 * layer provides it (src/pact/natives/state.ts; keysets and namespaces live in the database);
 * without one, naming a keyset is an error, as for a keyset that does not exist.
 */
export interface KeysetAuthority {
  enforceKeysetName(rt: Runtime, name: string, site: CallSite): void;
  /** Any guard: keyset, keyset reference, user, capability, module or pact guard. */
  enforceGuard(rt: Runtime, guard: Guard, site: CallSite): void;
  /** Governance of `module` by `keyset`, with Pact's magic capability `MODULE_KEYSET` granted. */
  enforceModuleKeyset(rt: Runtime, module: string, keyset: string, site: CallSite): void;
  /** May a new module or interface be installed: the namespace's user guard, or the root policy. */
  enforceNamespaceInstall(rt: Runtime, site: CallSite): void;
}

/** Receives coverage counts from code compiled with coverage on. */
export interface CoverageSink {
  hit(file: string, line: number): void;
  /** A call of the function `name` (declared in `file`). */
  enter(file: string, name: string): void;
}
