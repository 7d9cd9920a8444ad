/**
 * Shape tests and descriptions for parsed JSON (`parseJson` of pact/values/json-text: exact
 * numbers, objects as Maps), used by the command and request validators.
 */
import { JsonNumber, type JsonObject, type JsonValue } from "../pact/values/json-text.ts";

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return value instanceof Map;
}

export function isJsonArray(value: JsonValue | undefined): value is JsonValue[] {
  return Array.isArray(value);
}

/** A short description of a value's JSON type, for error messages. */
export function jsonTypeName(value: JsonValue | undefined): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (typeof value === "boolean") return "a boolean";
  if (typeof value === "string") return "a string";
  if (value instanceof JsonNumber) return "a number";
  return isJsonArray(value) ? "an array" : "an object";
}
