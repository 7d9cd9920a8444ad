/**
 * Running one step (or rollback) of a defpact: the step's expression evaluated with the defpact's
 * arguments, as a `defpact` stack frame. The defpact state machine (step counts, yields, stored
 * state, `continue-pact`) is the `DefPactEngine` the state layer provides; this is the part that
 * needs the evaluator.
 */
import type { DefPactDef } from "../compile/ir.ts";
import type { RuntimeValue } from "../runtime/types.ts";
import type { PactValue } from "../values/types.ts";
import type { CallSite } from "./callables.ts";
import { codegenLambda } from "./codegen.ts";
import type { Runtime } from "./runtime.ts";
import { codeOf, type Frame, toSlot } from "./types.ts";

/** The number of steps of a defpact. */
export function stepCount(def: DefPactDef): number {
  return def.steps.length;
}

/** Whether step `step` (0-based) has a rollback. */
export function stepHasRollback(def: DefPactDef, step: number): boolean {
  return def.steps[step]?.rollback != null;
}

/**
 * Evaluates step `step` of `def` (its rollback when `rollback`), with `args` bound to the
 * defpact's parameters. Throws when the step, or its rollback, does not exist.
 */
export function runPactStep(
  rt: Runtime,
  def: DefPactDef,
  args: readonly PactValue[],
  step: number,
  rollback: boolean,
  site: CallSite,
): RuntimeValue {
  const s = def.steps[step];
  const node = s === undefined ? undefined : rollback ? s.rollback : s.expr;
  if (s === undefined || node == null) {
    throw rt.error(
      "execution",
      rollback
        ? `Step has no rollback: ${def.qualifiedName} step ${step}`
        : `DefPactStep does not match defpact properties: requested: ${step} step count:${def.steps.length}`,
      site,
    );
  }
  const key = `${step}:${rollback}`;
  let code = codeOf(def.stepCode.get(key));
  if (code === undefined) {
    code = codegenLambda(
      { params: def.params, frameSize: def.frameSize, body: node, code: undefined },
      def.source.file,
    );
    def.stepCode.set(key, toSlot(code));
  }
  const run = code;
  const frame: Frame = new Array(def.frameSize);
  frame[0] = null;
  for (let i = 0; i < args.length; i++) frame[i + 1] = args[i];
  return rt.withFrame(def, args, site, () => run(rt, frame));
}
