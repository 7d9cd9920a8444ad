import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { testRuntime } from "../test-support/test-runtime.ts";
import { poseidonHash } from "./poseidon.ts";

// circomlib's Poseidon of [1], [1 2] and [1 … 8] (the values Pact 5's tests expect).
const HASH_1 = 18586133768512220936620570745912940619677854269274689475585506675881198879027n;
const HASH_1_2 = 7853200120776062878684798364095072458815029376092732009249414926327459813530n;
const HASH_1_TO_8 = 18604317144381847857886385684060986177838410221561136253933256952257712543953n;
const R = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

describe("Poseidon natives", () => {
  it("hash their arguments, given directly, as circomlib's Poseidon", () => {
    const t = testRuntime();
    assert.equal(t.run("(poseidon-hash-hack-a-chain 1)"), HASH_1);
    assert.equal(t.run("(hash-poseidon 1 2)"), HASH_1_2);
    assert.equal(t.run("(hash-poseidon 1 2 3 4 5 6 7 8)"), HASH_1_TO_8);
  });
  it("take one list as a function value", () => {
    const t = testRuntime();
    assert.deepEqual(t.run("(map hash-poseidon [[1] [1 2]])"), [HASH_1, HASH_1_2]);
    assert.equal(t.run("(let ((h poseidon-hash-hack-a-chain)) (h [1 2]))"), HASH_1_2);
  });
  it("take each input modulo the scalar field's prime", () => {
    assert.equal(poseidonHash([1n + R, 2n - R]), HASH_1_2);
    const t = testRuntime();
    assert.equal(t.run(`(hash-poseidon ${1n - 3n * R} 2)`), HASH_1_2);
  });
  it("refuse no inputs, more than eight, and non-integers", () => {
    const t = testRuntime();
    for (const [name, args] of [
      ["hash-poseidon", ""],
      ["hash-poseidon", " 1 2 3 4 5 6 7 8 9"],
      ["poseidon-hash-hack-a-chain", " 1 2.0"],
      ["hash-poseidon", " [1 2]"],
    ] as const) {
      assert.equal(
        t.fail(`(${name}${args})`).message,
        `Type error: failed to call native function ${name} with argument(s) of type(s): list`,
      );
    }
  });
});
