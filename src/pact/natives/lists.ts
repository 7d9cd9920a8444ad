/**
 * List, object and higher-order natives: `at make-list enumerate sort distinct zip map filter
 * fold remove compose identity where and? or? not? bind`.
 *
 * Functions passed in are applied through `NativeContext.apply`; what they return must be a
 * Pact value (not a function), and a boolean where the native needs a condition.
 */

import { BASIC_WORK_GAS } from "../gas/costs.ts";
import { isPactValue } from "../runtime/kinds.ts";
import {
  argsError,
  arrayIndexError,
  boolResult,
  enumerationError,
  expectedPactValueError,
  missingFieldError,
  nativeFailure,
} from "../runtime/native-errors.ts";
import {
  type Callable,
  isCallable,
  type NativeContext,
  type NativeDef,
  type RuntimeValue,
} from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { compareForSort, pactValueEquals } from "../values/equality.ts";
import type { PactList, PactObject, PactValue } from "../values/types.ts";
import { introSort } from "./sorting.ts";

/**
 * The longest list `make-list` and `enumerate` build. The reference is bounded only by gas
 * (and memory); this keeps a single call from exhausting memory when gas is free.
 */
export const MAX_BUILT_LIST_LENGTH = 10_000_000;

/** Applies `fn` and requires a Pact value back (the reference's `enforcePactValue`). */
function applyForValue(ctx: NativeContext, fn: Callable, args: RuntimeValue[]): PactValue {
  const r = ctx.apply(fn, args);
  if (isCallable(r)) throw expectedPactValueError();
  return r;
}

/** Applies `fn` and requires a boolean back (the reference's `enforceBool`). */
function applyForBool(ctx: NativeContext, fn: Callable, args: RuntimeValue[]): boolean {
  return boolResult(ctx.apply(fn, args));
}

function checkLength(name: string, n: bigint): number {
  if (n > BigInt(MAX_BUILT_LIST_LENGTH)) {
    throw nativeFailure(name, `list length ${n} exceeds the limit of ${MAX_BUILT_LIST_LENGTH}`);
  }
  return Number(n);
}

/** Indices below this take the direct path in `at` (no 64-bit wrapping can apply). */
const SMALL_INDEX_LIMIT = 2n ** 32n;

const at: NativeDef = {
  name: "at",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const key = args[0]!;
    const from = args[1]!;
    if (typeof key === "bigint" && Array.isArray(from)) {
      if (key >= 0n && key < SMALL_INDEX_LIMIT) {
        const v = (from as PactList)[Number(key)];
        if (v !== undefined) return v;
      }
      // The index is converted to a 64-bit Int first, wrapping like Haskell's fromIntegral.
      const i = BigInt.asIntN(64, key);
      if (i >= 0n && i < BigInt(from.length)) return (from as PactList)[Number(i)]!;
      throw arrayIndexError(from.length, i);
    }
    if (typeof key === "string" && from instanceof Map) {
      const v = from.get(key);
      if (v === undefined) throw missingFieldError(key, from);
      return v;
    }
    throw argsError("at", args);
  },
};

const makeList: NativeDef = {
  name: "make-list",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const n = args[0]!;
    const v = args[1]!;
    if (typeof n !== "bigint" || !isPactValue(v)) throw argsError("make-list", args);
    const count = BigInt.asIntN(64, n);
    if (count <= 0n) return [];
    return new Array<PactValue>(checkLength("make-list", count)).fill(v);
  },
};

/** The reference's `createEnumerateList`: from, from+step, … up to and including `to`. */
/**
 * How many elements a native's loop makes or walks between two checks of the command's time
 * limit (`NativeContext.checkTime`): a few milliseconds of work at most.
 */
const ELEMENTS_PER_TIME_CHECK = 16_384;

function enumerateList(
  ctx: NativeContext,
  name: string,
  from: bigint,
  to: bigint,
  step: bigint,
): bigint[] {
  if (from === to) return [from];
  if (step === 0n) return [];
  if (from < to && from + step < from) {
    throw enumerationError("enumerate: increment diverges below from interval bounds.");
  }
  if (from > to && from + step > from) {
    throw enumerationError("enumerate: increment diverges above from interval bounds.");
  }
  const distance = from > to ? from - to : to - from;
  const length = checkLength(name, distance / (step < 0n ? -step : step) + 1n);
  const out = new Array<bigint>(length);
  let v = from;
  for (let i = 0; i < length; i++, v += step) {
    if (i % ELEMENTS_PER_TIME_CHECK === 0) ctx.checkTime();
    out[i] = v;
  }
  return out;
}

const enumerate: NativeDef = {
  name: "enumerate",
  minArgs: 2,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const from = args[0]!;
    const to = args[1]!;
    if (args.length === 2) {
      if (typeof from !== "bigint" || typeof to !== "bigint") throw argsError("enumerate", args);
      return enumerateList(ctx, "enumerate", from, to, from > to ? -1n : 1n);
    }
    const step = args[2]!;
    if (typeof from !== "bigint" || typeof to !== "bigint" || typeof step !== "bigint") {
      throw argsError("enumerate-step", args);
    }
    return enumerateList(ctx, "enumerate-step", from, to, step);
  },
};

/** Literals: the values the reference's `PLiteral` covers. */
function isLiteral(v: PactValue): boolean {
  switch (typeof v) {
    case "string":
    case "bigint":
    case "boolean":
      return true;
  }
  return v instanceof Decimal || (v as { kind?: unknown }).kind === "unit";
}

function sortObjects(fields: PactList, objects: PactList): PactList {
  if (fields.length === 0 || objects.length === 0) return objects;
  const objs: PactObject[] = [];
  for (const o of objects) {
    if (!(o instanceof Map)) throw argsError("sort-object", [o]);
    objs.push(o);
  }
  const names: string[] = [];
  for (const f of fields) {
    if (typeof f !== "string") throw argsError("sort-object", [f]);
    names.push(f);
  }
  // The reference folds the fields from the right: the last field decides first, and each
  // earlier one only breaks ties. Fields missing from either object compare equal.
  introSort(objs, (a, b) => {
    for (let i = names.length - 1; i >= 0; i--) {
      const x = a.get(names[i]!);
      const y = b.get(names[i]!);
      if (x === undefined || y === undefined || !isLiteral(x) || !isLiteral(y)) continue;
      const c = compareForSort(x, y);
      if (c !== 0) return c;
    }
    return 0;
  });
  return objs;
}

const sort: NativeDef = {
  name: "sort",
  minArgs: 1,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const first = args[0]!;
    if (args.length === 1) {
      if (!Array.isArray(first)) throw argsError("sort", args);
      const out = (first as PactList).slice();
      introSort(out, compareForSort);
      return out;
    }
    const second = args[1]!;
    if (!Array.isArray(first) || !Array.isArray(second)) throw argsError("sort-object", args);
    return sortObjects(first, second);
  },
};

/** Keeps the first of each run of equal values, in order (`nubBy` with Pact equality). */
function distinctValues(ctx: NativeContext, list: PactList): PactList {
  let primitive = true;
  for (const v of list) {
    if (typeof v !== "string" && typeof v !== "bigint" && typeof v !== "boolean") {
      primitive = false;
      break;
    }
  }
  if (primitive) return [...new Set(list)];
  const out: PactValue[] = [];
  let compared = 0;
  for (const v of list) {
    let seen = false;
    for (const u of out) {
      if (++compared % ELEMENTS_PER_TIME_CHECK === 0) ctx.checkTime();
      if (pactValueEquals(u, v)) {
        seen = true;
        break;
      }
    }
    if (!seen) out.push(v);
  }
  return out;
}

const distinct: NativeDef = {
  name: "distinct",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const list = args[0]!;
    if (!Array.isArray(list)) throw argsError("distinct", args);
    return distinctValues(ctx, list);
  },
};

const zip: NativeDef = {
  name: "zip",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const fn = args[0]!;
    const l = args[1]!;
    const r = args[2]!;
    if (!isCallable(fn) || !Array.isArray(l) || !Array.isArray(r)) throw argsError("zip", args);
    const n = Math.min(l.length, r.length);
    const out = new Array<PactValue>(n);
    for (let i = 0; i < n; i++) out[i] = applyForValue(ctx, fn, [l[i]!, r[i]!]);
    return out;
  },
};

const map: NativeDef = {
  name: "map",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const fn = args[0]!;
    const list = args[1]!;
    if (!isCallable(fn) || !Array.isArray(list)) throw argsError("map", args);
    const n = list.length;
    const out = new Array<PactValue>(n);
    for (let i = 0; i < n; i++) out[i] = applyForValue(ctx, fn, [list[i]!]);
    return out;
  },
};

const filter: NativeDef = {
  name: "filter",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const fn = args[0]!;
    const list = args[1]!;
    if (!isCallable(fn) || !Array.isArray(list)) throw argsError("filter", args);
    const out: PactValue[] = [];
    for (const v of list as PactList) if (applyForBool(ctx, fn, [v])) out.push(v);
    return out;
  },
};

const fold: NativeDef = {
  name: "fold",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const fn = args[0]!;
    const init = args[1]!;
    const list = args[2]!;
    if (!isCallable(fn) || !isPactValue(init) || !Array.isArray(list)) {
      throw argsError("fold", args);
    }
    let acc: PactValue = init;
    for (const v of list as PactList) acc = applyForValue(ctx, fn, [acc, v]);
    return acc;
  },
};

const remove: NativeDef = {
  name: "remove",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const key = args[0]!;
    const o = args[1]!;
    if (typeof key !== "string" || !(o instanceof Map)) throw argsError("remove", args);
    if (!o.has(key)) return o;
    const out = new Map(o);
    out.delete(key);
    return out;
  },
};

const compose: NativeDef = {
  name: "compose",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const f = args[0]!;
    const g = args[1]!;
    if (!isCallable(f) || !isCallable(g)) throw argsError("compose", args);
    const mid = applyForValue(ctx, f, [args[2]!]);
    return applyForValue(ctx, g, [mid]);
  },
};

const identity: NativeDef = {
  name: "identity",
  minArgs: 1,
  maxArgs: 1,
  gas: BASIC_WORK_GAS,
  impl(_ctx, args) {
    const v = args[0]!;
    if (!isPactValue(v)) throw argsError("identity", args);
    return v;
  },
};

const where: NativeDef = {
  name: "where",
  minArgs: 3,
  maxArgs: 3,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const field = args[0]!;
    const fn = args[1]!;
    const o = args[2]!;
    if (typeof field !== "string" || !isCallable(fn) || !(o instanceof Map)) {
      throw argsError("where", args);
    }
    const v = o.get(field);
    if (v === undefined) throw missingFieldError(field, o);
    return applyForBool(ctx, fn, [v]);
  },
};

/**
 * `and?` and `or?`: the second predicate runs only when the first does not already decide
 * (false for `and?`, true for `or?`).
 */
function combinedPredicate(name: "and?" | "or?"): NativeDef {
  const shortCircuitOn = name === "or?";
  return {
    name,
    minArgs: 3,
    maxArgs: 3,
    gas: BASIC_WORK_GAS,
    impl(ctx, args) {
      const l = args[0]!;
      const r = args[1]!;
      const v = args[2]!;
      if (!isCallable(l) || !isCallable(r) || !isPactValue(v)) throw argsError(name, args);
      if (applyForBool(ctx, l, [v]) === shortCircuitOn) return shortCircuitOn;
      return applyForBool(ctx, r, [v]);
    },
  };
}

const notQ: NativeDef = {
  name: "not?",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const fn = args[0]!;
    const v = args[1]!;
    if (!isCallable(fn) || !isPactValue(v)) throw argsError("not?", args);
    return !applyForBool(ctx, fn, [v]);
  },
};

const bind: NativeDef = {
  name: "bind",
  minArgs: 2,
  maxArgs: 2,
  gas: BASIC_WORK_GAS,
  impl(ctx, args) {
    const o = args[0]!;
    const fn = args[1]!;
    if (!(o instanceof Map) || !isCallable(fn)) throw argsError("bind", args);
    return applyForValue(ctx, fn, [o]);
  },
};

export const AT = at;
export const MAKE_LIST = makeList;
export const ENUMERATE = enumerate;
export const SORT = sort;
export const DISTINCT = distinct;
export const ZIP = zip;
export const MAP = map;
export const FILTER = filter;
export const FOLD = fold;
export const REMOVE = remove;
export const COMPOSE = compose;
export const IDENTITY = identity;
export const WHERE = where;
export const AND_Q = combinedPredicate("and?");
export const OR_Q = combinedPredicate("or?");
export const NOT_Q = notQ;
export const BIND = bind;
