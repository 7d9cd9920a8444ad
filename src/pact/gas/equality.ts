/**
 * The gas of comparing values (Pact's `litCmpGassed` and `valEqGassed`): `=`, `!=`, `<` and the
 * other orderings, `contains` on lists and `distinct`. Equality walks both values as Pact does,
 * charging for each literal, list, object and argument list compared, and stops at the first
 * difference, so it also returns whether the values are equal (by Pact's rules: an integer never
 * equals a decimal here).
 */
import { Decimal } from "../values/decimal.ts";
import { pactValueEquals } from "../values/equality.ts";
import { compareCodePoints } from "../values/text.ts";
import type {
  CapabilityGuard,
  CapToken,
  PactValue,
  TaggedValue,
  UserGuard,
} from "../values/types.ts";
import { decimalCompareCost, intCompareCost, sizedCompareCost, textCompareCost } from "./costs.ts";
import type { PactGasMeter } from "./meter.ts";

/**
 * Charges comparing two literals and returns whether they are of one comparable kind (integers,
 * decimals, strings, booleans or unit).
 */
export function chargeLiteralComparison(meter: PactGasMeter, a: PactValue, b: PactValue): boolean {
  const cfg = meter.config;
  if (typeof a === "bigint") {
    if (typeof b !== "bigint") return false;
    meter.charge(intCompareCost(cfg, a, b), "GComparison IntComparison");
    return true;
  }
  if (typeof a === "string") {
    if (typeof b !== "string") return false;
    meter.charge(textCompareCost(cfg, a.length), "GComparison TextComparison");
    return true;
  }
  if (a instanceof Decimal) {
    if (!(b instanceof Decimal)) return false;
    meter.charge(decimalCompareCost(cfg, a.mantissa, b.mantissa), "GComparison DecimalComparison");
    return true;
  }
  if (typeof a === "boolean") return typeof b === "boolean";
  return isUnit(a) && isUnit(b);
}

function isUnit(v: PactValue): boolean {
  return typeof v === "object" && (v as { kind?: unknown }).kind === "unit";
}

function isLiteral(v: PactValue): boolean {
  return (
    typeof v === "bigint" ||
    typeof v === "string" ||
    typeof v === "boolean" ||
    v instanceof Decimal ||
    isUnit(v)
  );
}

function literalEquals(a: PactValue, b: PactValue): boolean {
  if (a instanceof Decimal) return a.equals(b as Decimal);
  if (isUnit(a)) return true;
  return a === b;
}

function chargeListCompare(meter: PactGasMeter, n: number): void {
  meter.charge(sizedCompareCost(meter.config, n), "GComparison ListComparison");
}

function listEquals(
  meter: PactGasMeter,
  a: readonly PactValue[],
  b: readonly PactValue[],
): boolean {
  for (let i = 0; i < a.length; i++) if (!chargedEquals(meter, a[i]!, b[i]!)) return false;
  return true;
}

function argsEqual(
  meter: PactGasMeter,
  a: { readonly args: readonly PactValue[] },
  b: { readonly args: readonly PactValue[] },
): boolean {
  if (a.args.length !== b.args.length) return false;
  chargeListCompare(meter, a.args.length);
  return listEquals(meter, a.args, b.args);
}

function sortedKeys(o: ReadonlyMap<string, PactValue>): string[] {
  return [...o.keys()].sort(compareCodePoints);
}

/** Charges comparing `a` and `b` for equality as Pact does, and returns whether they are equal. */
export function chargedEquals(meter: PactGasMeter, a: PactValue, b: PactValue): boolean {
  if (isLiteral(a)) return chargeLiteralComparison(meter, a, b) && literalEquals(a, b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    chargeListCompare(meter, a.length);
    return listEquals(meter, a, b as readonly PactValue[]);
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    meter.charge(sizedCompareCost(meter.config, a.size), "GComparison ObjComparison");
    const ka = sortedKeys(a);
    const kb = sortedKeys(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return false;
    for (const k of ka) if (!chargedEquals(meter, a.get(k)!, b.get(k)!)) return false;
    return true;
  }
  const x = a as TaggedValue;
  const y = b as TaggedValue;
  if (typeof y !== "object" || y === null || x.kind !== y.kind) return false;
  switch (x.kind) {
    case "cap-token":
      return x.name === (y as CapToken).name && argsEqual(meter, x, y as CapToken);
    case "user-guard":
      return x.fun === (y as UserGuard).fun && argsEqual(meter, x, y as UserGuard);
    case "capability-guard": {
      const g = y as CapabilityGuard;
      return x.name === g.name && x.pactId === g.pactId && argsEqual(meter, x, g);
    }
    default:
      // Keysets and other guards, module references and times compare without gas.
      return pactValueEquals(a, b);
  }
}
