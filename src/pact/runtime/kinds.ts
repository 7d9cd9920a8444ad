/**
 * Runtime value kinds as natives see them: Pact values versus functions, and the type names
 * Pact prints in native argument errors (`ArgTypeError` in the reference: a capability token is
 * reported as a `closure`, every guard as `guard`).
 */

import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type { PactValue } from "../values/types.ts";
import { isCallable, type RuntimeValue } from "./types.ts";

/** A value that is not a function: only these may be stored, returned or compared. */
export function isPactValue(v: RuntimeValue): v is PactValue {
  return !isCallable(v);
}

/** The name the reference prints for an argument of this value in a native type error. */
export function argTypeName(v: RuntimeValue): string {
  switch (typeof v) {
    case "string":
      return "string";
    case "bigint":
      return "integer";
    case "boolean":
      return "bool";
  }
  if (Array.isArray(v)) return "list";
  if (v instanceof Map) return "object";
  if (v instanceof Decimal) return "decimal";
  if (v instanceof PactTime) return "time";
  switch ((v as { kind: string }).kind) {
    case "unit":
      return "unit";
    case "modref":
      return "modref";
    case "table":
      return "table";
    case "cap-token":
    case "callable":
      return "closure";
    default:
      return "guard";
  }
}
