/**
 * How the evaluator and the REPL show values: Pact's `Pretty` form (src/pact/values/show.ts) with
 * functions as `<#closure>`, and the abbreviated form of stack-trace arguments.
 */
import { isCallable, type RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { pactValueToPretty } from "../values/show.ts";
import { compareCodePoints } from "../values/text.ts";
import type { PactValue } from "../values/types.ts";

export function pretty(v: RuntimeValue): string {
  return isCallable(v) ? "<#closure>" : pactValueToPretty(v);
}

/** Pact's `prettyAbbrevText`: text longer than `limit` cut to `limit - 3` characters and `...`. */
function abbrevText(limit: number, s: string): string {
  return s.length <= limit - 3 ? s : `${s.slice(0, limit - 3)}...`;
}

/** Values as stack frames show their arguments (Pact's `AbbrevPretty`). */
export function abbrevPretty(v: PactValue): string {
  switch (typeof v) {
    case "string":
      return v.length < 15 ? `"${v}"` : `"${v.slice(0, 12)}..."`;
    case "bigint":
      return abbrevText(15, v.toString());
    case "boolean":
      return v ? "true" : "false";
  }
  if (v instanceof Decimal) {
    return v.isIntegral() ? pactValueToPretty(v) : abbrevText(15, v.toString());
  }
  if (Array.isArray(v)) {
    return `[${abbrevText(15, (v as readonly PactValue[]).slice(0, 10).map(abbrevPretty).join(" "))}]`;
  }
  if (v instanceof Map) {
    const o = v as ReadonlyMap<string, PactValue>;
    const keys = [...o.keys()].sort(compareCodePoints);
    return `{${abbrevText(15, keys.map((k) => `"${k}": ${pactValueToPretty(o.get(k)!)}`).join(","))}}`;
  }
  return pactValueToPretty(v);
}
