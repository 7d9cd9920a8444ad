/**
 * Poseidon hashing (`poseidon-hash-hack-a-chain`, and `hash-poseidon`, its later name): the
 * circomlib parameters over BN254's scalar field (x⁵ S-box, 8 full rounds, 56–64 partial rounds
 * by width), as implemented by the `poseidon-lite` package, for 1 to 8 integers. A direct call
 * passes its arguments as one list (`(hash-poseidon 1 2)` hashes `[1 2]`; see the compiler's
 * list-argument natives); as a function value, the native takes the list.
 */
import {
  poseidon1,
  poseidon2,
  poseidon3,
  poseidon4,
  poseidon5,
  poseidon6,
  poseidon7,
  poseidon8,
} from "poseidon-lite";
import { MAX_POSEIDON_INPUTS } from "../gas/costs.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef } from "../runtime/types.ts";
import { modCurveOrder } from "./zk.ts";

/** Flat cost of the Poseidon natives (the reference's table). */
export const POSEIDON_GAS = 124_000;

/** The hash of n inputs is `BY_INPUT_COUNT[n - 1]`. */
const BY_INPUT_COUNT = [
  poseidon1,
  poseidon2,
  poseidon3,
  poseidon4,
  poseidon5,
  poseidon6,
  poseidon7,
  poseidon8,
] as const;

/** The integers a Poseidon native hashes: a list of 1 to 8 integers, or null. */
export function poseidonInputs(v: unknown): bigint[] | null {
  if (!Array.isArray(v) || v.length === 0 || v.length > MAX_POSEIDON_INPUTS) return null;
  return v.every((x) => typeof x === "bigint") ? (v as bigint[]) : null;
}

/** Poseidon of 1 to 8 integers, each taken modulo the field's prime first. */
export function poseidonHash(inputs: readonly bigint[]): bigint {
  const hash = BY_INPUT_COUNT[inputs.length - 1];
  if (hash === undefined)
    throw new RangeError(`poseidon takes 1 to 8 inputs, not ${inputs.length}`);
  // The implementation expects field elements, in [0, r).
  return hash(inputs.map(modCurveOrder));
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
