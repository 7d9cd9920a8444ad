/**
 * Pact's equality and ordering of values (the reference's `valEqGassed`, `litCmpGassed` and the
 * derived `Ord Literal`).
 *
 * - Equality is structural. Integers and decimals are never equal to each other (1 ≠ 1.0), but
 *   decimals compare numerically (1.0 = 1.00). Objects are equal when they have the same fields
 *   with equal values. Tables are never equal, not even to themselves.
 * - Ordering (`<`, `>`, …) exists only between two literals of the same kind (integer, decimal,
 *   string, bool, unit) and between two times.
 * - Strings order by Unicode code point (Haskell `Text`), which differs from JS's UTF-16 order.
 */
import type { RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import type {
  CapabilityGuard,
  CapToken,
  Guard,
  KeySet,
  KeySetRef,
  ModRef,
  ModuleGuard,
  ModuleName,
  PactGuard,
  PactList,
  PactObject,
  PactValue,
  TableRef,
  Unit,
  UserGuard,
} from "../values/types.ts";

/** The values represented as tagged records. */
type Tagged = Guard | ModRef | CapToken | TableRef | Unit;

/** Compares two strings by code point: negative, zero or positive. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // A surrogate (part of a code point above U+FFFF) sorts after every BMP code unit.
      if (x >= 0xd800 && x <= 0xdfff) x += 0x10000;
      if (y >= 0xd800 && y <= 0xdfff) y += 0x10000;
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Pact value equality (`=`). */
export function valuesEqual(a: PactValue, b: PactValue): boolean {
  switch (typeof a) {
    case "string":
    case "bigint":
    case "boolean":
      return a === b;
  }
  if (typeof b !== "object") return false;
  if (a instanceof Decimal) return b instanceof Decimal && a.equals(b);
  if (Array.isArray(a)) return Array.isArray(b) && listsEqual(a, b as PactList);
  if (a instanceof Map) return b instanceof Map && objectsEqual(a, b);
  if (a instanceof PactTime) return b instanceof PactTime && a.micros === b.micros;
  if (b instanceof Decimal || Array.isArray(b) || b instanceof Map || b instanceof PactTime) {
    return false;
  }
  const r = a as Tagged;
  const s = b as Tagged;
  switch (r.kind) {
    case "unit":
      return s.kind === "unit";
    case "modref":
      return s.kind === "modref" && moduleNamesEqual(r.module, s.module);
    case "cap-token":
      return s.kind === "cap-token" && capTokensEqual(r, s);
    case "table":
      return false;
    default:
      return guardsEqual(r, s as Guard);
  }
}

function listsEqual(a: PactList, b: PactList): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    if (!valuesEqual(a[i]!, b[i]!)) return false;
  }
  return true;
}

function objectsEqual(a: PactObject, b: PactObject): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) {
    const w = b.get(k);
    if (w === undefined || !valuesEqual(v, w)) return false;
  }
  return true;
}

function moduleNamesEqual(a: ModuleName, b: ModuleName): boolean {
  return a.name === b.name && a.namespace === b.namespace;
}

function capTokensEqual(a: CapToken, b: CapToken): boolean {
  return a.name === b.name && a.moduleHash === b.moduleHash && listsEqual(a.args, b.args);
}

function guardsEqual(a: Guard, b: Guard): boolean {
  switch (a.kind) {
    case "keyset": {
      const c = b as KeySet;
      if (c.kind !== "keyset" || a.pred !== c.pred || a.keys.length !== c.keys.length) return false;
      for (let i = 0; i < a.keys.length; i++) if (a.keys[i] !== c.keys[i]) return false;
      return true;
    }
    case "keyset-ref": {
      const c = b as KeySetRef;
      return c.kind === "keyset-ref" && a.name === c.name && a.namespace === c.namespace;
    }
    case "user-guard": {
      const c = b as UserGuard;
      return c.kind === "user-guard" && a.fun === c.fun && listsEqual(a.args, c.args);
    }
    case "capability-guard": {
      const c = b as CapabilityGuard;
      return (
        c.kind === "capability-guard" &&
        a.name === c.name &&
        a.pactId === c.pactId &&
        listsEqual(a.args, c.args)
      );
    }
    case "module-guard": {
      const c = b as ModuleGuard;
      return c.kind === "module-guard" && a.name === c.name && moduleNamesEqual(a.module, c.module);
    }
    case "pact-guard": {
      const c = b as PactGuard;
      return c.kind === "pact-guard" && a.pactId === c.pactId && a.name === c.name;
    }
  }
}

function isUnit(v: RuntimeValue): boolean {
  return (v as { kind?: unknown }).kind === "unit";
}

/**
 * The ordering of `<`, `<=`, `>`, `>=`: -1, 0 or 1 for two literals of one kind or two times,
 * null when the reference has no ordering for the pair (a type error).
 */
export function compareOrderable(a: RuntimeValue, b: RuntimeValue): number | null {
  switch (typeof a) {
    case "bigint":
      return typeof b === "bigint" ? (a < b ? -1 : a > b ? 1 : 0) : null;
    case "string":
      return typeof b === "string" ? Math.sign(compareStrings(a, b)) : null;
    case "boolean":
      return typeof b === "boolean" ? Number(a) - Number(b) : null;
  }
  if (a instanceof Decimal) return b instanceof Decimal ? a.compare(b) : null;
  if (a instanceof PactTime) return b instanceof PactTime ? a.compare(b) : null;
  if (isUnit(a) && isUnit(b)) return 0;
  return null;
}

/**
 * Rank of a literal kind in Haskell's derived `Ord Literal` (constructor order
 * LString < LInteger < LDecimal < LUnit < LBool); -1 for a value that is not a literal.
 */
function literalRank(v: PactValue): number {
  switch (typeof v) {
    case "string":
      return 0;
    case "bigint":
      return 1;
    case "boolean":
      return 4;
  }
  if (v instanceof Decimal) return 2;
  if (isUnit(v)) return 3;
  return -1;
}

/**
 * The comparison `sort` uses: literals by the derived `Ord Literal`, times by time, literals
 * before times, and every other pair equal.
 */
export function compareForSort(a: PactValue, b: PactValue): number {
  const ra = literalRank(a);
  const rb = literalRank(b);
  if (ra >= 0 && rb >= 0) {
    if (ra !== rb) return ra < rb ? -1 : 1;
    return compareOrderable(a, b)!;
  }
  const ta = a instanceof PactTime;
  const tb = b instanceof PactTime;
  if (ta && tb) return (a as PactTime).compare(b as PactTime);
  if (ra >= 0 && tb) return -1;
  if (ta && rb >= 0) return 1;
  return 0;
}

/** The comparison of two field values when sorting objects: literals only, anything else equal. */
export function compareLiteralsOnly(a: PactValue, b: PactValue): number {
  const ra = literalRank(a);
  const rb = literalRank(b);
  if (ra < 0 || rb < 0) return 0;
  if (ra !== rb) return ra < rb ? -1 : 1;
  return compareOrderable(a, b)!;
}
