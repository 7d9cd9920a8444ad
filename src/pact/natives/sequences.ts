/**
 * Natives that work alike on strings (by code point), lists and objects:
 * `length take drop reverse contains`.
 */

import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { isPactValue } from "../runtime/kinds.ts";
import { argsError } from "../runtime/native-errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { pactValueEquals } from "../values/equality.ts";
import { codePointLength, codePointOffset, codePointOffsetFromEnd } from "../values/text.ts";
import type { PactList, PactObject, PactValue } from "../values/types.ts";

/**
 * The split point for `take`/`drop` with count `i` on a sequence of `length` elements: a
 * non-negative count is clamped to the length, a negative one counts from the end (clamped to 0).
 */
function splitPoint(i: bigint, length: number): number {
  if (i >= 0n) return i > BigInt(length) ? length : Number(i);
  const fromEnd = BigInt(length) + i;
  return fromEnd < 0n ? 0 : Number(fromEnd);
}

/** A count of code points, at most the string's UTF-16 length (it has no more code points). */
function clampCount(n: bigint, units: number): number {
  return n > BigInt(units) ? units : Number(n);
}

/** The field names of a `take`/`drop` field list; a non-string element is a type error. */
function fieldNames(name: string, fields: PactList): Set<string> {
  const names = new Set<string>();
  for (const f of fields) {
    if (typeof f !== "string") throw argsError(name, [f]);
    names.add(f);
  }
  return names;
}

function restrictKeys(o: PactObject, keep: Set<string>, wanted: boolean): PactObject {
  const out = new Map<string, PactValue>();
  for (const [k, v] of o) if (keep.has(k) === wanted) out.set(k, v);
  return out;
}

const length: NativeDef = {
  name: "length",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (typeof a === "string") return BigInt(codePointLength(a));
    if (Array.isArray(a)) return BigInt(a.length);
    if (a instanceof Map) return BigInt(a.size);
    throw argsError("length", args);
  },
};

/** `take` or `drop`: each keeps one side of the split point. */
function takeOrDrop(name: "take" | "drop"): NativeDef {
  const take = name === "take";
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    gas: BASIC_WORK_GAS,
    impl(_ctx, args) {
      const i = args[0]!;
      const seq = args[1]!;
      if (typeof i === "bigint") {
        if (typeof seq === "string") {
          // Walk |i| code points from the front (or back for a negative count), not the whole
          // string: the split point is clamped by running out of string.
          const count = clampCount(i >= 0n ? i : -i, seq.length);
          const at = i >= 0n ? codePointOffset(seq, count) : codePointOffsetFromEnd(seq, count);
          // take keeps the front for a non-negative count and the back for a negative one.
          const front = take === i >= 0n;
          return front ? seq.slice(0, at) : seq.slice(at);
        }
        if (Array.isArray(seq)) {
          const at = splitPoint(i, seq.length);
          const front = take === i >= 0n;
          return front ? seq.slice(0, at) : seq.slice(at);
        }
      } else if (Array.isArray(i) && seq instanceof Map) {
        return restrictKeys(seq, fieldNames(name, i), take);
      }
      throw argsError(name, args);
    },
  };
}

const reverse: NativeDef = {
  name: "reverse",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const a = args[0]!;
    if (Array.isArray(a)) return a.slice().reverse();
    if (typeof a === "string") return Array.from(a).reverse().join("");
    throw argsError("reverse", args);
  },
};

function listContains(list: PactList, v: PactValue): boolean {
  for (const e of list) if (pactValueEquals(v, e)) return true;
  return false;
}

const contains: NativeDef = {
  name: "contains",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const needle: RuntimeValue = args[0]!;
    const hay = args[1]!;
    if (typeof needle === "string") {
      if (hay instanceof Map) return hay.has(needle);
      if (typeof hay === "string") return hay.includes(needle);
    }
    if (Array.isArray(hay) && isPactValue(needle)) return listContains(hay, needle);
    throw argsError("contains", args);
  },
};

export const LENGTH = length;
export const TAKE = takeOrDrop("take");
export const DROP = takeOrDrop("drop");
export const REVERSE = reverse;
export const CONTAINS = contains;
