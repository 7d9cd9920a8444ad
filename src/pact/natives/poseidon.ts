/**
 * Poseidon hashing (`poseidon-hash-hack-a-chain`, and `hash-poseidon`, its later name): the
 * circomlib parameters over BN254's scalar field (x⁵ S-box, 8 full rounds, 56–64 partial rounds
 * by width), as implemented by the `poseidon-lite` package, for 1 to 8 integers. A direct call
 * passes its arguments as one list (`(hash-poseidon 1 2)` hashes `[1 2]`; see the compiler's
 * list-argument natives); as a function value, the native takes the list.
 */
import { createRequire } from "node:module";
import { MAX_POSEIDON_INPUTS } from "../gas/costs.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { modCurveOrder } from "./zk.ts";

/** Flat cost of the Poseidon natives (the reference's table). */
export const POSEIDON_GAS = 124_000;

type PoseidonOfWidth = (inputs: readonly bigint[]) => bigint;

const requirePackage = createRequire(import.meta.url);
/** The hash of n inputs at `[n]`, once loaded. */
const byInputCount: (PoseidonOfWidth | undefined)[] = [];

/**
 * The package's hash of `n` inputs (1 to 8), loaded on first use: building one width's round
 * constants takes ~15 ms, and the package's index builds all 16 (~125 ms), which every thread and
 * every `braid` command paid as it started, for a native few contracts call.
 */
function poseidonOfWidth(n: number): PoseidonOfWidth {
  let hash = byInputCount[n];
  if (hash === undefined) {
    const module = requirePackage(`poseidon-lite/poseidon${n}`) as Record<string, PoseidonOfWidth>;
    hash = module[`poseidon${n}`]!;
    byInputCount[n] = hash;
  }
  return hash;
}

/** The integers a Poseidon native hashes: a list of 1 to 8 integers, or null. */
export function poseidonInputs(v: unknown): bigint[] | null {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_POSEIDON_INPUTS) return null;
  return v.every((x) => typeof x === "bigint") ? (v as bigint[]) : null;
}

/** Poseidon of 1 to 8 integers, each taken modulo the field's prime first. */
export function poseidonHash(inputs: readonly bigint[]): bigint {
  const n = inputs.length;
  if (!Number.isInteger(n) || n < 1 || n > MAX_POSEIDON_INPUTS) {
    throw new RangeError(`poseidon takes 1 to ${MAX_POSEIDON_INPUTS} inputs, not ${n}`);
  }
  // The implementation expects field elements, in [0, r).
  return poseidonOfWidth(n)(inputs.map(modCurveOrder));
}

function poseidonNative(name: string): NativeDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    gas: POSEIDON_GAS,
    impl(_ctx, args) {
      const inputs = poseidonInputs(args[0]);
      if (inputs === null) throw argsError(name, args);
      return poseidonHash(inputs);
    },
  };
}

export const POSEIDON_HASH_HACK_A_CHAIN = poseidonNative("poseidon-hash-hack-a-chain");
export const HASH_POSEIDON = poseidonNative("hash-poseidon");
