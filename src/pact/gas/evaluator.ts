/**
 * The charges the evaluator makes itself (not a native): applying a function, checking typed
 * arguments and results, building list and object literals, each condition of `enforce-one`, and
 * entering `try`. The evaluator calls these only while its meter is charging.
 */
import type { RuntimeValue } from "../runtime/types.ts";
import type { PactType, PactValue } from "../values/types.ts";
import { applyLambdaCost, concatCost } from "./costs.ts";
import type { PactGasMeter } from "./meter.ts";
import { valueTypecheckCost } from "./typecheck.ts";

/** Applying a user function, lambda, capability or defpact to `args` arguments. */
export function chargeApplication(meter: PactGasMeter, args: number): void {
  meter.charge(applyLambdaCost(meter.config, args), "GAApplyLam");
}

/** Checking `value` against a declared type (parameters, results, typed `let`). */
export function chargeTypecheck(
  meter: PactGasMeter,
  value: RuntimeValue,
  type: PactType | null,
): void {
  if (type === null || typeof type === "string") return;
  const cost = valueTypecheckCost(meter.config, value as PactValue, type);
  if (cost !== 0) meter.charge(cost, "GAConstant typecheck");
}

/** Applying a function with declared parameter types: the application, then each typed argument. */
export function chargeCall(
  meter: PactGasMeter,
  params: readonly { readonly type: PactType | null }[],
  args: readonly RuntimeValue[],
): void {
  chargeApplication(meter, args.length);
  for (let i = 0; i < args.length; i++) chargeTypecheck(meter, args[i]!, params[i]?.type ?? null);
}

/** A list literal of `n` elements or an object literal of `n` fields. */
export function chargeLiteral(meter: PactGasMeter, n: number): void {
  if (n !== 0) meter.charge(concatCost(meter.config, n), "GConcat");
}

/** One condition of `enforce-one`, or entering a `try`. */
export function chargeUncons(meter: PactGasMeter): void {
  meter.charge(meter.config.unconsWork, "GAConstant uncons");
}
