/**
 * Types the evaluator's files share. The compiled tree (src/pact/compile/ir.ts) holds the
 * evaluator's code in opaque slots; the evaluator owns their type here and converts with
 * {@link codeOf} and {@link toSlot} (casts only: no cost at run time).
 */
import type { CodeSlot } from "../compile/ir.ts";
import type { RuntimeValue } from "../runtime/types.ts";
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
