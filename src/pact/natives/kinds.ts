/**
 * Cheap tests for the kind of a runtime value, and the type names Pact prints in native
 * argument errors (`ArgTypeError` in the reference: a capability token is reported as a
 * `closure`, every guard as `guard`).
 */
import { isCallable, type RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type { PactList, PactObject, PactValue } from "../values/types.ts";

export function isList(v: RuntimeValue): v is PactList {
  return Array.isArray(v);
}

export function isObject(v: RuntimeValue): v is PactObject {
  return v instanceof Map;
}

export function isDecimal(v: RuntimeValue): v is Decimal {
  return v instanceof Decimal;
}

export function isTime(v: RuntimeValue): v is PactTime {
  return v instanceof PactTime;
}

/** A value that is not a function: only these may be stored, returned or compared. */
export function isPactValue(v: RuntimeValue): v is PactValue {
  return !isCallable(v);
}

/** The tag of a tagged-record value (`unit`, guards, modref, cap-token, table), or null. */
export function recordKind(v: RuntimeValue): string | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  if (v instanceof Map || v instanceof Decimal || v instanceof PactTime) return null;
  return (v as { kind: string }).kind;
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
