import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../../../crypto/index.ts";
import { type ModuleInfo, moduleInfo } from "../ir.ts";
import { compareRefs, type LoadedDefinition, refKey, walkDependencies } from "./dependencies.ts";
import { type QualifiedRef, Tally } from "./sizes.ts";

const hash = (byte: number) => encodeBase64Url(new Uint8Array(32).fill(byte));
const m = moduleInfo({ namespace: null, name: "m" }, hash(1));
const n = moduleInfo({ namespace: null, name: "n" }, hash(2));

/** A definition of `module` whose term has `terms` nodes and mentions `refs`. */
function def(
  module: ModuleInfo,
  name: string,
  terms: number,
  refs: readonly QualifiedRef[] = [],
): LoadedDefinition {
  return {
    ref: { module, name },
    sizes: {
      name,
      tally: new Tally(),
      constTerm: null,
      hasDependents: terms > 0,
      signature: false,
      terms,
      refs,
    },
    value: undefined,
  };
}

describe("the transitive-dependency walk", () => {
  const h = def(n, "h", 2);
  const g = def(n, "g", 1, [h.ref]);
  const f = def(m, "f", 3, [g.ref, h.ref]);
  const k = def(m, "k", 0);
  const z = def(n, "z", 4);
  const loaded = new Map([f, k, g, h, z].map((d) => [refKey(d.ref), d]));

  it("counts term nodes, set searches and the final restriction as Pact does", () => {
    const walk = walkDependencies([f, k], loaded);
    // m.f (before m.k): 3 nodes; n.g searched among 2 (⌈ln 2⌉ = 1 comparison) and new (found 2:
    // 1, work list [m.k]: 0); n.h among 3 (2) and new (found 3: 2, work list 2: 1). m.k has no
    // term. n.g: 1 node, n.h among 4 (2), known. n.h: 2 nodes. Restricting the 5 loaded to the
    // 4 found: ⌈4 · ln(5/4 + 1)⌉ = 4 comparisons. 200 milligas a comparison, 5 a node.
    const comparisons = 1 + (1 + 0) + 2 + (2 + 1) + 2 + 4;
    assert.equal(walk.milligas, 5 * (3 + 1 + 2) + 200 * comparisons);
    assert.deepEqual(
      walk.dependencies.map((d) => d.ref.name),
      ["g", "h"],
    );
  });

  it("skips a name nothing loaded defines", () => {
    const stray = def(m, "s", 1, [{ module: n, name: "missing" }]);
    const walk = walkDependencies([stray], new Map([[refKey(stray.ref), stray]]));
    // one node, one search among 1 (⌈ln 1⌉ = 0), the restriction of 1 to 1 (⌈ln 2⌉ = 1)
    assert.equal(walk.milligas, 5 + 200);
    assert.deepEqual(walk.dependencies, []);
  });
});

describe("fully qualified name order", () => {
  it("is by module, then name, then hash bytes", () => {
    const older = moduleInfo({ namespace: null, name: "n" }, hash(0));
    assert.ok(compareRefs({ module: m, name: "z" }, { module: n, name: "a" }) < 0);
    assert.ok(compareRefs({ module: n, name: "a" }, { module: n, name: "b" }) < 0);
    assert.ok(compareRefs({ module: n, name: "a" }, { module: older, name: "a" }) > 0);
  });
});
