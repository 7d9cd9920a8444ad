/**
 * Equality and ordering of Pact values as Pact's natives define them.
 *
 * - `=`/`!=`, `contains` on lists and `distinct` use {@link pactValueEquals}: structural, with
 *   decimals compared numerically (1.0 = 1.00) but never equal to integers (1 ≠ 1.0), module
 *   references compared by module only, and tables never equal to anything.
 * - `<`, `<=`, `>`, `>=` use {@link comparePactValues}: two values of the same literal type
 *   (integer, decimal, string, bool, unit) or two times; anything else is not comparable.
 * - `sort` uses {@link compareForSort}.
 */
import { Decimal } from "./decimal.ts";
import { compareCodePoints } from "./text.ts";
import { PactTime } from "./time.ts";
import {
  type Guard,
  isGuard,
  type ModuleName,
  type PactList,
  type PactObject,
  type PactValue,
  type TaggedValue,
} from "./types.ts";

function isObject(v: PactValue): v is PactObject {
  return v instanceof Map;
}

function isList(v: PactValue): v is PactList {
  return Array.isArray(v);
}

function sameModule(a: ModuleName, b: ModuleName): boolean {
  return a.name === b.name && a.namespace === b.namespace;
}

function listsEqual(a: PactList, b: PactList): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (!pactValueEquals(a[i] as PactValue, b[i] as PactValue)) return false;
  }
  return true;
}

function guardsEqual(a: Guard, b: Guard): boolean {
  switch (a.kind) {
    case "keyset":
      return (
        b.kind === "keyset" &&
        a.pred === b.pred &&
        a.keys.length === b.keys.length &&
        a.keys.every((k, i) => k === b.keys[i])
      );
    case "keyset-ref":
      return b.kind === "keyset-ref" && a.name === b.name && a.namespace === b.namespace;
    case "user-guard":
      return b.kind === "user-guard" && a.fun === b.fun && listsEqual(a.args, b.args);
    case "capability-guard":
      return (
        b.kind === "capability-guard" &&
        a.name === b.name &&
        a.pactId === b.pactId &&
        listsEqual(a.args, b.args)
      );
    case "module-guard":
      return b.kind === "module-guard" && a.name === b.name && sameModule(a.module, b.module);
    case "pact-guard":
      return b.kind === "pact-guard" && a.pactId === b.pactId && a.name === b.name;
  }
}

/** Pact's `=`. */
export function pactValueEquals(a: PactValue, b: PactValue): boolean {
  switch (typeof a) {
    case "string":
    case "boolean":
    case "bigint":
      return a === b;
  }
  if (a instanceof Decimal) return b instanceof Decimal && a.equals(b);
  if (a instanceof PactTime) return b instanceof PactTime && a.micros === b.micros;
  if (isList(a)) return isList(b) && listsEqual(a, b);
  if (isObject(a)) {
    if (!isObject(b) || a.size !== b.size) return false;
    for (const [key, value] of a) {
      const other = b.get(key);
      if (other === undefined || !pactValueEquals(value, other)) return false;
    }
    return true;
  }
  const x = a as TaggedValue;
  if (!isTagged(b)) return false;
  switch (x.kind) {
    case "unit":
      return b.kind === "unit";
    case "modref":
      return b.kind === "modref" && sameModule(x.module, b.module);
    case "cap-token":
      return (
        b.kind === "cap-token" &&
        x.name === b.name &&
        x.moduleHash === b.moduleHash &&
        listsEqual(x.args, b.args)
      );
    case "table":
      return false;
    default:
      return isGuard(b) && guardsEqual(x, b);
  }
}

function isTagged(v: PactValue): v is TaggedValue {
  return (
    typeof v === "object" &&
    !(v instanceof Decimal) &&
    !(v instanceof PactTime) &&
    !isList(v) &&
    !isObject(v)
  );
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/**
 * Pact's `<` family: -1, 0 or 1 for two integers, two decimals, two strings (code point
 * order), two booleans (false < true), two units, or two times; null when the pair is not
 * comparable (Pact then reports an argument type error).
 */
export function comparePactValues(a: PactValue, b: PactValue): number | null {
  if (typeof a === "bigint") return typeof b === "bigint" ? (a < b ? -1 : a > b ? 1 : 0) : null;
  if (typeof a === "string") return typeof b === "string" ? sign(compareCodePoints(a, b)) : null;
  if (typeof a === "boolean") return typeof b === "boolean" ? Number(a) - Number(b) : null;
  if (a instanceof Decimal) return b instanceof Decimal ? a.compare(b) : null;
  if (a instanceof PactTime) return b instanceof PactTime ? a.compare(b) : null;
  if (isUnit(a)) return isUnit(b) ? 0 : null;
  return null;
}

function isUnit(v: PactValue): boolean {
  return isTagged(v) && v.kind === "unit";
}

// Haskell's derived order of literal constructors: string < integer < decimal < unit < bool.
function literalRank(v: PactValue): number {
  if (typeof v === "string") return 0;
  if (typeof v === "bigint") return 1;
  if (v instanceof Decimal) return 2;
  if (isUnit(v)) return 3;
  if (typeof v === "boolean") return 4;
  return -1;
}

/**
 * The order `sort` uses on a list of values: literals by type (string < integer < decimal <
 * unit < bool) and then by value, all literals before times, times by value; every other pair
 * counts as equal.
 */
export function compareForSort(a: PactValue, b: PactValue): number {
  const ra = literalRank(a);
  const rb = literalRank(b);
  if (ra >= 0 && rb >= 0) return ra !== rb ? sign(ra - rb) : (comparePactValues(a, b) as number);
  const ta = a instanceof PactTime;
  const tb = b instanceof PactTime;
  if (ta && tb) return a.compare(b);
  if (ra >= 0 && tb) return -1;
  if (ta && rb >= 0) return 1;
  return 0;
}
