import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { bn254 } from "@noble/curves/bn254.js";
import { testRuntime } from "../test-support/test-runtime.ts";

const { Fp, Fp2 } = bn254.fields;
const G1 = bn254.G1.Point;
const G2 = bn254.G2.Point;
type G1Point = InstanceType<typeof G1>;
type G2Point = InstanceType<typeof G2>;
const P = Fp.ORDER;
const R = bn254.fields.Fr.ORDER;

/** Pact source for a G1 point. */
function g1(p: G1Point): string {
  if (p.is0()) return "{'x: 0, 'y: 0}";
  const { x, y } = p.toAffine();
  return `{'x: ${x}, 'y: ${y}}`;
}

/** Pact source for a G2 point. */
function g2(p: G2Point): string {
  if (p.is0()) return "{'x: [0], 'y: [0]}";
  const { x, y } = p.toAffine();
  return `{'x: [${x.c0} ${x.c1}], 'y: [${y.c0} ${y.c1}]}`;
}

/** The value the natives return for a G1 point. */
function g1Value(p: G1Point): Map<string, bigint> {
  const { x, y } = p.is0() ? { x: 0n, y: 0n } : p.toAffine();
  return new Map([
    ["x", x],
    ["y", y],
  ]);
}

function g2Value(p: G2Point): Map<string, bigint[]> {
  const { x, y } = p.toAffine();
  return new Map([
    ["x", [x.c0, x.c1]],
    ["y", [y.c0, y.c1]],
  ]);
}

/** A point on the twisted curve that is not in G2 (found with noble's own square root). */
function pointOutsideG2(): G2Point {
  const b = G2.CURVE().b;
  for (let i = 1n; i < 100n; i++) {
    const x = Fp2.fromBigTuple([i, 1n]);
    const y2 = Fp2.add(Fp2.mul(Fp2.sqr(x), x), b);
    let y: ReturnType<typeof Fp2.sqrt>;
    try {
      y = Fp2.sqrt(y2);
    } catch {
      continue;
    }
    const p = G2.fromAffine({ x, y });
    if (!p.isTorsionFree()) return p;
  }
  throw new Error("no point outside G2 found");
}

const NOT_ON_CURVE = "Point lies outside of elliptic curve";

describe("point-add", () => {
  it("adds G1 points as noble does, the point at infinity being {x: 0, y: 0}", () => {
    const t = testRuntime();
    const a = G1.BASE.multiply(5n);
    const b = G1.BASE.multiply(7n);
    assert.deepEqual(t.run(`(point-add "g1" ${g1(a)} ${g1(b)})`), g1Value(G1.BASE.multiply(12n)));
    assert.deepEqual(
      t.run(`(point-add "G1" {'x: 1, 'y: 2} {'x: 1, 'y: 2})`),
      g1Value(G1.BASE.double()),
    );
    assert.deepEqual(t.run(`(point-add "g1" ${g1(a)} {'x: 0, 'y: 0})`), g1Value(a));
    assert.deepEqual(t.run(`(point-add "g1" ${g1(a)} ${g1(a.negate())})`), g1Value(G1.ZERO));
  });
  it("takes coordinates modulo the field prime, so a negative y is the negated point", () => {
    const t = testRuntime();
    assert.deepEqual(
      t.run(`(point-add "g1" {'x: 1, 'y: -2} {'x: 0, 'y: 0})`),
      new Map([
        ["x", 1n],
        ["y", P - 2n],
      ]),
    );
    assert.deepEqual(
      t.run(`(point-add "g1" {'x: ${1n + P}, 'y: 2} {'x: 1, 'y: -2})`),
      g1Value(G1.ZERO),
    );
  });
  it("adds G2 points, listing coefficients without trailing zeros", () => {
    const t = testRuntime();
    const q = G2.BASE.multiply(3n);
    assert.deepEqual(
      t.run(`(point-add "g2" ${g2(G2.BASE)} ${g2(q)})`),
      g2Value(G2.BASE.multiply(4n)),
    );
    assert.deepEqual(
      t.run(`(point-add "g2" ${g2(q)} ${g2(q.negate())})`),
      new Map([
        ["x", [0n]],
        ["y", [0n]],
      ]),
    );
  });
  it("refuses points off the curve and malformed arguments", () => {
    const t = testRuntime();
    assert.equal(t.fail(`(point-add "g1" {'x: 1, 'y: 3} {'x: 1, 'y: 2})`).message, NOT_ON_CURVE);
    assert.equal(
      t.fail(`(point-add "g2" {'x: [1 2], 'y: [3 4]} ${g2(G2.BASE)})`).message,
      NOT_ON_CURVE,
    );
    assert.equal(
      t.fail(`(point-add "g3" {'x: 1, 'y: 2} {'x: 1, 'y: 2})`).message,
      "Type error: failed to call native function point-add with argument(s) of type(s): string, object, object",
    );
    assert.match(
      t.fail(`(point-add "g1" {'x: 1} {'x: 1, 'y: 2})`).message,
      /^Type error: failed to call native function point-add/,
    );
    assert.match(
      t.fail(`(point-add "g2" {'x: 1, 'y: 2} {'x: 1, 'y: 2})`).message,
      /^Type error: failed to call native function point-add/,
    );
  });
});

describe("scalar-mult", () => {
  it("multiplies by the scalar modulo the curve order", () => {
    const t = testRuntime();
    assert.deepEqual(
      t.run(`(scalar-mult "g1" {'x: 1, 'y: 2} 1234567)`),
      g1Value(G1.BASE.multiply(1234567n)),
    );
    assert.deepEqual(
      t.run(`(scalar-mult "g1" {'x: 1, 'y: 2} ${R + 3n})`),
      g1Value(G1.BASE.multiply(3n)),
    );
    assert.deepEqual(t.run(`(scalar-mult "g1" {'x: 1, 'y: 2} -1)`), g1Value(G1.BASE.negate()));
    assert.deepEqual(t.run(`(scalar-mult "g1" {'x: 1, 'y: 2} 0)`), g1Value(G1.ZERO));
    assert.deepEqual(t.run(`(scalar-mult "g1" {'x: 1, 'y: 2} ${R})`), g1Value(G1.ZERO));
    assert.deepEqual(t.run(`(scalar-mult "g2" ${g2(G2.BASE)} 99)`), g2Value(G2.BASE.multiply(99n)));
  });
  it("multiplies a G2 point outside the subgroup (only the curve is checked)", () => {
    const t = testRuntime();
    const q = pointOutsideG2();
    assert.deepEqual(t.run(`(scalar-mult "g2" ${g2(q)} 2)`), g2Value(q.double()));
  });
  it("refuses points off the curve and malformed arguments", () => {
    const t = testRuntime();
    assert.equal(t.fail(`(scalar-mult "g1" {'x: 2, 'y: 2} 5)`).message, NOT_ON_CURVE);
    assert.equal(
      t.fail(`(scalar-mult "g1" {'x: 1, 'y: 2} 1.0)`).message,
      "Type error: failed to call native function scalar-mult with argument(s) of type(s): string, object, decimal",
    );
  });
});

describe("pairing-check", () => {
  const a = 0x1234567890abcdefn;
  const b = 0xfedcba9876543210n;

  it("holds for e(aP, bQ) · e(−abP, Q) = 1 and fails for a wrong product", () => {
    const t = testRuntime();
    const aP = G1.BASE.multiply(a);
    const bQ = G2.BASE.multiply(b);
    const minusAbP = G1.BASE.multiply((a * b) % R).negate();
    const fp12 = bn254.fields.Fp12;
    // The same identity, checked with noble's own pairing.
    assert.ok(
      fp12.eql(bn254.pairing(aP, bQ), bn254.pairing(G1.BASE.multiply((a * b) % R), G2.BASE)),
    );
    assert.equal(
      t.run(`(pairing-check [${g1(aP)} ${g1(minusAbP)}] [${g2(bQ)} ${g2(G2.BASE)}])`),
      true,
    );
    assert.equal(t.run(`(pairing-check [${g1(aP)} ${g1(aP)}] [${g2(bQ)} ${g2(G2.BASE)}])`), false);
  });
  it("is true without pairs, skips pairs with the point at infinity and ignores unmatched points", () => {
    const t = testRuntime();
    assert.equal(t.run(`(pairing-check [] [])`), true);
    assert.equal(t.run(`(pairing-check [{'x: 0, 'y: 0}] [${g2(G2.BASE)}])`), true);
    assert.equal(t.run(`(pairing-check [{'x: 1, 'y: 2} {'x: 1, 'y: 2}] [])`), true);
    assert.equal(t.run(`(pairing-check [{'x: 1, 'y: 2}] [${g2(G2.BASE)}])`), false);
  });
  it("refuses a G2 point outside the subgroup, unless DisablePact54 is set", () => {
    const t = testRuntime();
    const q = pointOutsideG2();
    const check = `(pairing-check [{'x: 1, 'y: 2} {'x: 1, 'y: 2}] [${g2(q)} ${g2(q.negate())}])`;
    assert.equal(t.fail(check).message, NOT_ON_CURVE);
    t.rt.env.flags.add("DisablePact54");
    assert.equal(t.run(check), true);
    assert.equal(
      t.fail(`(pairing-check [{'x: 1, 'y: 2}] [{'x: [1 2], 'y: [3 4]}])`).message,
      NOT_ON_CURVE,
    );
  });
  it("refuses malformed arguments", () => {
    const t = testRuntime();
    assert.match(
      t.fail(`(pairing-check [{'x: 1, 'y: 2}] [{'x: 1, 'y: 2}])`).message,
      /^Type error: failed to call native function pairing-check/,
    );
    assert.match(
      t.fail(`(pairing-check {'x: 1, 'y: 2} [])`).message,
      /^Type error: failed to call native function pairing-check/,
    );
  });
});
