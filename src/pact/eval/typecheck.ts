/**
 * Runtime checks of values against declared types (Pact 5's `typecheckArgument`): function
 * arguments, return values, `let` bindings and constants with a type annotation.
 */
import { renderType } from "../compile/types.ts";
import { PactError } from "../runtime/errors.ts";
import { argTypeName } from "../runtime/kinds.ts";
import { isCallable, type RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type { ModRef, PactType, PactValue, Schema, TableRef } from "../values/types.ts";

export function matchesType(v: PactValue, t: PactType): boolean {
  if (t === "*") return true;
  switch (typeof v) {
    case "string":
      return t === "string";
    case "bigint":
      return t === "integer";
    case "boolean":
      return t === "bool";
  }
  if (Array.isArray(v)) {
    if (t === "list") return true;
    if (typeof t !== "object" || t.kind !== "list") return false;
    const element = t.element;
    return (v as readonly PactValue[]).every((x) => matchesType(x, element));
  }
  if (v instanceof Map) {
    if (t === "object") return true;
    if (typeof t !== "object" || t.kind !== "object") return false;
    return objectMatches(v as ReadonlyMap<string, PactValue>, t.schema);
  }
  if (v instanceof Decimal) return t === "decimal";
  if (v instanceof PactTime) return t === "time";
  const kind = (v as { readonly kind: string }).kind;
  switch (kind) {
    case "unit":
      return t === "unit";
    case "cap-token":
      return t === "cap-token";
    case "modref": {
      if (typeof t !== "object" || t.kind !== "modref") return false;
      const have = (v as ModRef).interfaces;
      return t.interfaces.every((i) =>
        have.some((h) => h.name === i.name && h.namespace === i.namespace),
      );
    }
    case "table":
      return (
        typeof t === "object" && t.kind === "table" && sameSchema((v as TableRef).schema, t.schema)
      );
    default:
      return t === "guard";
  }
}

function objectMatches(o: ReadonlyMap<string, PactValue>, schema: Schema): boolean {
  if (o.size !== schema.fields.size) return false;
  for (const [field, value] of o) {
    const type = schema.fields.get(field);
    if (type === undefined || !matchesType(value, type)) return false;
  }
  return true;
}

function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  if (a.fields.size !== b.fields.size) return false;
  for (const [field, type] of a.fields) {
    const other = b.fields.get(field);
    if (other === undefined || renderType(other) !== renderType(type)) return false;
  }
  return true;
}

/** A compiled check of one declared type; false for functions too. */
export type TypeCheck = (v: RuntimeValue) => boolean;

const isUnit = (v: RuntimeValue) =>
  typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "unit";

/** The check for `t`, specialised for the primitive types (the common case on hot paths). */
export function typeCheck(t: PactType): TypeCheck {
  switch (t) {
    case "integer":
      return (v) => typeof v === "bigint";
    case "string":
      return (v) => typeof v === "string";
    case "bool":
      return (v) => typeof v === "boolean";
    case "decimal":
      return (v) => v instanceof Decimal;
    case "time":
      return (v) => v instanceof PactTime;
    case "unit":
      return isUnit;
    case "*":
      return (v) => !isCallable(v);
    default:
      return (v) => !isCallable(v) && matchesType(v, t);
  }
}

/** Pact's `RunTimeTypecheckFailure` (the space before the comma is Pact's). */
export function typecheckError(v: PactValue, t: PactType): PactError {
  return new PactError(
    "execution",
    `Runtime typecheck failure, argument is ${argTypeName(v)} , but expected type ${renderType(t)}`,
  );
}
