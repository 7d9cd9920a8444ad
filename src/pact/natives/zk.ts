/**
 * BN254 (alt_bn128) natives: `point-add`, `scalar-mult` and `pairing-check`, over Pact's object
 * forms of points. All curve and pairing arithmetic is @noble/curves'; this file only converts
 * Pact values to points and back and applies Pact's checks.
 *
 * - A G1 point is `{x: integer, y: integer}`; a G2 point is `{x: [c0, c1], y: [c0, c1]}` (the
 *   coefficients of an element of Fp²). Coordinates are taken modulo the base field's prime, so
 *   negative integers are accepted; `{x: 0, y: 0}` (in G2, coordinates equal to 0) is the point
 *   at infinity. Other fields of the object are ignored.
 * - Results are canonical: coordinates in [0, p); a G2 coordinate lists its coefficients without
 *   trailing zeros (`[c0]` when c1 is 0, `[]` for 0), as the reference prints its polynomials; the
 *   point at infinity is `{x: 0, y: 0}` in G1 and `{x: [0], y: [0]}` in G2.
 * - Inputs must lie on their curve ("Point lies outside of elliptic curve"). `pairing-check` also
 *   requires its G2 points to be in the prime-order subgroup, unless the flag `DisablePact54` is
 *   set (what Pact did before 5.4, when a point of another subgroup could make a check pass).
 */

import type { IField } from "@noble/curves/abstract/modular.js";
import { bn254 } from "@noble/curves/bn254.js";
import { runtimeOf } from "../eval/callables.ts";
import { BASIC_WORK_GAS, zkGroup } from "../gas/costs.ts";
import { PactError } from "../runtime/errors.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { PactObject, PactValue } from "../values/types.ts";

const { Fp, Fp2, Fp12 } = bn254.fields;
type G1Point = InstanceType<typeof bn254.G1.Point>;
type G2Point = InstanceType<typeof bn254.G2.Point>;
type Fp2Element = ReturnType<typeof Fp2.fromBigTuple>;

/** The order of G1 and G2 (the scalar field's prime): `scalar-mult` takes its scalar modulo it. */
const BN254_CURVE_ORDER = bn254.fields.Fr.ORDER;

function notOnCurve(): PactError {
  return new PactError("execution", "Point lies outside of elliptic curve");
}

// ---------------------------------------------------------------------------------------------
// Pact values ↔ points

function isObject(v: RuntimeValue | undefined): v is PactObject {
  return v instanceof Map;
}

/** An integer as an element of the base field (reduced modulo p, negatives included). */
function fieldElement(v: PactValue | undefined): bigint | null {
  return typeof v === "bigint" ? Fp.create(v) : null;
}

/**
 * A list of integers as an element of Fp²: the coefficients of a polynomial in u, reduced by
 * u² = −1 (a list longer than two is reduced, where the reference keeps it as written).
 */
function fp2Element(v: PactValue | undefined): Fp2Element | null {
  if (!Array.isArray(v)) return null;
  const c: [bigint, bigint] = [0n, 0n];
  for (let i = 0; i < v.length; i++) {
    const n = v[i];
    if (typeof n !== "bigint") return null;
    const sign = i % 4 < 2 ? 1n : -1n;
    c[i % 2] = Fp.create(c[i % 2]! + sign * n);
  }
  return Fp2.fromBigTuple(c);
}

/** A point as parsed, and whether it satisfies its curve's equation y² = x³ + b. */
interface Parsed<P> {
  readonly point: P;
  readonly onCurve: boolean;
}

function satisfiesCurve<T>(field: IField<T>, b: T, x: T, y: T): boolean {
  return field.eql(field.sqr(y), field.add(field.mul(field.sqr(x), x), b));
}

/** Pact's `{x, y}` as a G1 point (null when the object has no integer coordinates). */
function toG1(v: RuntimeValue | undefined): Parsed<G1Point> | null {
  if (!isObject(v)) return null;
  const x = fieldElement(v.get("x"));
  const y = fieldElement(v.get("y"));
  if (x === null || y === null) return null;
  if (x === 0n && y === 0n) return { point: bn254.G1.Point.ZERO, onCurve: true };
  const onCurve = satisfiesCurve(Fp, bn254.G1.Point.CURVE().b, x, y);
  return { point: bn254.G1.Point.fromAffine({ x, y }), onCurve };
}

/** Pact's `{x: [..], y: [..]}` as a G2 point (null when the coordinates are not integer lists). */
function toG2(v: RuntimeValue | undefined): Parsed<G2Point> | null {
  if (!isObject(v)) return null;
  const x = fp2Element(v.get("x"));
  const y = fp2Element(v.get("y"));
  if (x === null || y === null) return null;
  if (Fp2.is0(x) && Fp2.is0(y)) return { point: bn254.G2.Point.ZERO, onCurve: true };
  const onCurve = satisfiesCurve(Fp2, bn254.G2.Point.CURVE().b, x, y);
  return { point: bn254.G2.Point.fromAffine({ x, y }), onCurve };
}

/** The point, if it lies on its curve. */
function onCurve<P>(parsed: Parsed<P>): P {
  if (!parsed.onCurve) throw notOnCurve();
  return parsed.point;
}

function fromG1(p: G1Point): PactObject {
  const { x, y } = p.is0() ? { x: 0n, y: 0n } : p.toAffine();
  return new Map<string, PactValue>([
    ["x", x],
    ["y", y],
  ]);
}

/** An Fp² element as Pact lists it: its coefficients without trailing zeros. */
function fp2List(e: Fp2Element): bigint[] {
  const { c0, c1 } = e;
  if (c1 !== 0n) return [c0, c1];
  return c0 === 0n ? [] : [c0];
}

function fromG2(p: G2Point): PactObject {
  if (p.is0()) {
    return new Map<string, PactValue>([
      ["x", [0n]],
      ["y", [0n]],
    ]);
  }
  const { x, y } = p.toAffine();
  return new Map<string, PactValue>([
    ["x", fp2List(x)],
    ["y", fp2List(y)],
  ]);
}

// ---------------------------------------------------------------------------------------------
// Natives

const pointAdd: NativeDef = {
  name: "point-add",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const group = zkGroup(args[0]);
    if (group === null || !isObject(args[1]) || !isObject(args[2])) {
      throw argsError("point-add", args);
    }
    if (group === "g1") {
      const [p1, p2] = [toG1(args[1]), toG1(args[2])];
      if (p1 === null || p2 === null) throw argsError("point-add", args);
      return fromG1(onCurve(p1).add(onCurve(p2)));
    }
    const [p1, p2] = [toG2(args[1]), toG2(args[2])];
    if (p1 === null || p2 === null) throw argsError("point-add", args);
    return fromG2(onCurve(p1).add(onCurve(p2)));
  },
};

/** `n` modulo the curve order (BN254's scalar field), as Haskell's `mod` takes it: never negative. */
export function modCurveOrder(n: bigint): bigint {
  const r = n % BN254_CURVE_ORDER;
  return r < 0n ? r + BN254_CURVE_ORDER : r;
}

const scalarMult: NativeDef = {
  name: "scalar-mult",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const [, point, scalar] = args;
    const group = zkGroup(args[0]);
    if (group === null || !isObject(point) || typeof scalar !== "bigint") {
      throw argsError("scalar-mult", args);
    }
    const k = modCurveOrder(scalar);
    if (group === "g1") {
      const p = toG1(point);
      if (p === null) throw argsError("scalar-mult", args);
      const g1 = onCurve(p);
      return fromG1(k === 0n ? bn254.G1.Point.ZERO : g1.multiplyUnsafe(k));
    }
    const p = toG2(point);
    if (p === null) throw argsError("scalar-mult", args);
    const g2 = onCurve(p);
    return fromG2(k === 0n ? bn254.G2.Point.ZERO : g2.multiplyUnsafe(k));
  },
};

const pairingCheck: NativeDef = {
  name: "pairing-check",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const [g1Values, g2Values] = args;
    if (!Array.isArray(g1Values) || !Array.isArray(g2Values)) {
      throw argsError("pairing-check", args);
    }
    const g1Parsed = (g1Values as PactValue[]).map(toG1);
    const g2Parsed = (g2Values as PactValue[]).map(toG2);
    if (g1Parsed.includes(null) || g2Parsed.includes(null)) throw argsError("pairing-check", args);
    const g1s = (g1Parsed as Parsed<G1Point>[]).map(onCurve);
    const g2s = (g2Parsed as Parsed<G2Point>[]).map(onCurve);
    if (!runtimeOf(ctx).env.flags.has("DisablePact54")) {
      for (const q of g2s) if (!q.is0() && !q.isTorsionFree()) throw notOnCurve();
    }
    return pairingProductIsOne(g1s, g2s);
  },
};

/**
 * Whether the product of the pairings e(g1s[i], g2s[i]) is 1 (pairs beyond the shorter list are
 * ignored; a pair with the point at infinity contributes 1). The Miller loops run on the points
 * as given, without noble's subgroup check, so the pre-5.4 behaviour stays available.
 */
function pairingProductIsOne(g1s: readonly G1Point[], g2s: readonly G2Point[]): boolean {
  const loops: [ReturnType<typeof bn254.utils.calcPairingPrecomputes>, bigint, bigint][] = [];
  const n = Math.min(g1s.length, g2s.length);
  for (let i = 0; i < n; i++) {
    const p = g1s[i]!;
    const q = g2s[i]!;
    if (p.is0() || q.is0()) continue;
    const { x, y } = p.toAffine();
    loops.push([bn254.utils.calcPairingPrecomputes(q), x, y]);
  }
  return Fp12.eql(Fp12.finalExponentiate(bn254.millerLoopBatch(loops)), Fp12.ONE);
}

export const POINT_ADD = pointAdd;
export const SCALAR_MULT = scalarMult;
export const PAIRING_CHECK = pairingCheck;
