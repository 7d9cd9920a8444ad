/**
 * Helpers for resolved Pact types (`PactType` in src/pact/values/types.ts): the text Pact shows in
 * runtime type errors, and the exact comparison interface signatures need.
 */
import type { PactType, Schema } from "../values/types.ts";
import { renderModuleName } from "./names.ts";

/** Pact's `Pretty Type`: `integer`, `list string`, `list (list integer)`, `object{m.s}`. */
export function renderType(type: PactType): string {
  if (typeof type === "string") return type;
  switch (type.kind) {
    case "list":
      return typeof type.element === "string" &&
        !["list", "object", "*", "cap-token"].includes(type.element)
        ? `list ${type.element}`
        : `list (${renderType(type.element)})`;
    case "object":
      return `object{${type.schema.name}}`;
    case "table":
      return `table{${type.schema.name}}`;
    case "modref":
      return `module{${type.interfaces.map(renderModuleName).join(", ")}}`;
  }
}

/** Structural equality of types (interface signatures must match their implementations). */
export function sameType(a: PactType | null, b: PactType | null): boolean {
  if (a === null || b === null) return a === b;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "list":
      return sameType(a.element, (b as typeof a).element);
    case "object":
    case "table":
      return sameSchema(a.schema, (b as typeof a).schema);
    case "modref": {
      const mine = a.interfaces.map(renderModuleName).sort();
      const other = (b as typeof a).interfaces.map(renderModuleName).sort();
      return mine.length === other.length && mine.every((n, i) => n === other[i]);
    }
  }
}

function sameSchema(a: Schema, b: Schema): boolean {
  if (a === b) return true;
  if (a.name !== b.name || a.fields.size !== b.fields.size) return false;
  for (const [field, type] of a.fields) {
    const other = b.fields.get(field);
    if (other === undefined || !sameType(type, other)) return false;
  }
  return true;
}
