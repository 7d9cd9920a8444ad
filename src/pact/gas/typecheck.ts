/**
 * The gas of Pact's runtime type checks against schemas (`gassedTypecheckObj`): a machine tick per
 * field of an object whose field count matches its schema, per element of a typed list, and per
 * field of nested objects; simple values check for free. Writes (`insert`, `write`, `update`)
 * check their row this way.
 */
import type { PactType, PactValue, Schema } from "../values/types.ts";
import type { GasCostConfig } from "./config.ts";

/** The cost of checking `value` against `type` (0 when the check fails at once). */
export function valueTypecheckCost(cfg: GasCostConfig, value: PactValue, type: PactType): number {
  if (typeof type === "string") return 0; // primitives, `list`, `object`, `*`: no walk
  if (type.kind === "list") {
    if (!Array.isArray(value)) return 0;
    let cost = value.length * cfg.machineTickCost;
    for (const v of value as readonly PactValue[]) cost += valueTypecheckCost(cfg, v, type.element);
    return cost;
  }
  if (type.kind === "object") {
    return value instanceof Map ? typecheckObjectCost(cfg, value, type.schema) : 0;
  }
  return 0;
}

/**
 * The cost of checking an object against a schema: nothing when the field counts differ (the
 * check fails), else a tick per field and the checks of the fields' values, in field order, up
 * to the first field that differs. With `partial`, only the schema's fields present in the
 * object are expected (`update`).
 */
export function typecheckObjectCost(
  cfg: GasCostConfig,
  o: ReadonlyMap<string, PactValue>,
  schema: Schema,
  partial = false,
): number {
  if (partial) {
    for (const k of o.keys()) if (!schema.fields.has(k)) return 0;
  } else if (o.size !== schema.fields.size) return 0;
  let cost = o.size * cfg.machineTickCost;
  for (const k of [...o.keys()].sort()) {
    const type = schema.fields.get(k);
    if (type === undefined) return cost;
    cost += valueTypecheckCost(cfg, o.get(k)!, type);
  }
  return cost;
}
