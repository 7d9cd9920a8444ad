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

/** What a runtime value is: Pact's primitive and composite types, and functions. */
export type ValueKind =
  | "string"
  | "integer"
  | "bool"
  | "decimal"
  | "time"
  | "unit"
  | "list"
  | "object"
  | "guard"
  | "modref"
  | "cap-token"
  | "table"
  | "callable";

/** The one classifier of runtime values that the type names below are read from. */
export function valueKind(v: RuntimeValue): ValueKind {
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
  const kind = (v as { kind: string }).kind;
  switch (kind) {
    case "unit":
    case "modref":
    case "table":
    case "cap-token":
    case "callable":
      return kind;
    default:
      return "guard";
  }
}

/** Native argument errors call a capability token a `closure`, as functions. */
const ARG_TYPE_NAMES: Readonly<Record<ValueKind, string>> = {
  string: "string",
  integer: "integer",
  bool: "bool",
  decimal: "decimal",
  time: "time",
  unit: "unit",
  list: "list",
  object: "object",
  guard: "guard",
  modref: "modref",
  "cap-token": "closure",
  table: "table",
  callable: "closure",
};

/** The name the reference prints for an argument of this value in a native type error. */
export function argTypeName(v: RuntimeValue): string {
  return ARG_TYPE_NAMES[valueKind(v)];
}
