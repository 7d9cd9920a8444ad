/**
 * What a native call costs beyond its flat table price, by native name (the charges Pact 5's
 * natives make from their arguments: `GIntegerOpCost`, `GConcat`, `GComparison`, `GStrOp`,
 * `GObjOp`, `GMakeList`, `GRead`/`GWrite`, …).
 *
 * A rule charges before the call from the arguments, or after it from the result when only the
 * result tells the size (`format`, `read`). Charges Pact makes inside a loop (one `uncons` per
 * element of `map`, `fold`, `filter`, `zip`) are made at once before the loop: the total is the
 * same; only a run that stops at the gas limit stops at another point.
 */
import type { NativeContext, NativeDef, RuntimeValue } from "../runtime/types.ts";
import { Decimal } from "../values/decimal.ts";
import { codePointLength, codePointOffset } from "../values/text.ts";
import type { KeySet, PactObject, PactValue, TableRef } from "../values/types.ts";
import {
  concatCost,
  expCost,
  fieldSearchCost,
  formatTimeCost,
  hashCost,
  intAddCost,
  integerLogBase,
  intMulCost,
  intPowCost,
  intShiftCost,
  keccakCost,
  lnCost,
  logBaseCost,
  MAX_POSEIDON_INPUTS,
  makeListCost,
  objectLookupCost,
  objectRemoveCost,
  POINT_ADD_COST,
  PRINCIPAL_STEP_COST,
  pairingCheckCost,
  parseTimeCost,
  poseidonCost,
  requireCapabilityCost,
  SCALAR_MULT_COST,
  sortCost,
  sqrtCost,
  stringExplodeCost,
  stringLengthCost,
  stringParseCost,
  stringToIntCost,
  substringSearchCost,
  textCompareCost,
  textListConcatCost,
  writeCost,
  zkGroup,
} from "./costs.ts";
import { chargedEquals, chargeLiteralComparison } from "./equality.ts";
import type { PactGasMeter } from "./meter.ts";
import { integerSize, objectSize, sizeOf } from "./size-of.ts";
import { typecheckObjectCost } from "./typecheck.ts";

type Args = readonly RuntimeValue[];

interface NativeGasRule {
  /** Charges from the arguments, before the native runs. */
  readonly before?: (meter: PactGasMeter, args: Args, ctx: NativeContext) => void;
  /** Charges from the arguments and the result, after the native ran. */
  readonly after?: (meter: PactGasMeter, args: Args, result: RuntimeValue) => void;
}

const RULES = new Map<string, NativeGasRule>();

function before(names: readonly string[], rule: NativeGasRule["before"]): void {
  for (const name of names) RULES.set(name, { before: rule });
}

function after(names: readonly string[], rule: NativeGasRule["after"]): void {
  for (const name of names) RULES.set(name, { after: rule });
}

/**
 * Runs a native under a counting meter: its flat price (when the model prices natives), the
 * charges of its rule, and the native itself.
 */
export function chargedNativeCall(
  meter: PactGasMeter,
  native: NativeDef,
  ctx: NativeContext,
  args: Args,
): RuntimeValue {
  if (native.gas !== 0 && meter.model.nativeCosts) meter.charge(native.gas, native.name);
  const rule = RULES.get(native.name);
  if (rule === undefined) return native.impl(ctx, args);
  rule.before?.(meter, args, ctx);
  const result = native.impl(ctx, args);
  rule.after?.(meter, args, result);
  return result;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isObject(v: RuntimeValue | undefined): v is PactObject {
  return v instanceof Map;
}

function isList(v: RuntimeValue | undefined): v is readonly PactValue[] {
  return Array.isArray(v);
}

/** A number's mantissa as Pact charges decimal arithmetic (an integer is its own mantissa). */
function mantissa(v: RuntimeValue | undefined): bigint | null {
  if (typeof v === "bigint") return v;
  if (v instanceof Decimal) return v.mantissa;
  return null;
}

/** Prices a size estimate (Pact's `sizeOf`, which fails once the bytes would exhaust the gas). */
function measured(meter: PactGasMeter, v: PactValue): number {
  const bytes = sizeOf(v);
  meter.checkSize(bytes);
  return bytes;
}

function concat(meter: PactGasMeter, length: number): void {
  meter.charge(concatCost(meter.config, length), "GConcat");
}

function lookup(meter: PactGasMeter, key: string, fields: number): void {
  meter.charge(objectLookupCost(codePointLength(key), fields), "GObjOp ObjOpLookup");
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

before(["+"], (meter, [a, b]) => {
  if (typeof a === "string" && typeof b === "string") {
    concat(meter, codePointLength(a) + codePointLength(b));
  } else if (isObject(a) && isObject(b)) {
    concat(meter, a.size + b.size);
  } else if (isList(a) && isList(b)) {
    concat(meter, a.length + b.length);
  } else {
    const x = mantissa(a);
    const y = mantissa(b);
    if (x !== null && y !== null) meter.charge(intAddCost(x, y), "GIntegerOpCost PrimOpAdd");
  }
});

before(["-"], (meter, args) => {
  if (args.length !== 2) {
    countWords(meter, "negation", args[0]); // negation costs nothing more
    return;
  }
  const x = mantissa(args[0]);
  const y = mantissa(args[1]);
  if (x !== null && y !== null) meter.charge(intAddCost(x, y), "GIntegerOpCost PrimOpSub");
});

before(["*"], (meter, [a, b]) => {
  const x = mantissa(a);
  const y = mantissa(b);
  if (x !== null && y !== null) meter.charge(intMulCost(x, y), "GIntegerOpCost PrimOpMul");
});

before(["/"], (meter, [a, b]) => {
  const x = mantissa(a);
  const y = mantissa(b);
  // Division by zero fails before any charge.
  if (x !== null && y !== null && y !== 0n) {
    meter.charge(intMulCost(x, y), "GIntegerOpCost PrimOpDiv");
  }
});

before(["^"], (meter, [a, b]) => {
  if (typeof a === "bigint" && typeof b === "bigint") {
    meter.charge(intPowCost(a, b), "GIntegerOpCost PrimOpPow");
    return;
  }
  const base = a instanceof Decimal ? a : typeof a === "bigint" ? Decimal.fromInteger(a) : null;
  const power = b instanceof Decimal ? b : typeof b === "bigint" ? Decimal.fromInteger(b) : null;
  if (base === null || power === null) return;
  if (base.isZero() && power.sign() < 0) return; // fails first
  meter.charge(
    intPowCost(base.toInteger("ceiling"), power.toInteger("ceiling")),
    "GIntegerOpCost PrimOpPow",
  );
});

/** Sizes up to 2^(2^25) bits are told apart (products of the largest integers `^` builds). */
const LARGEST_POWER = 25;
/** 2^(2^i), made when first needed: comparing with them sizes an integer without reading it. */
const powersOfTwo: bigint[] = [];

function powerOfTwo(i: number): bigint {
  powersOfTwo[i] ??= 1n << (1n << BigInt(i));
  return powersOfTwo[i]!;
}

/** An upper bound (within twice) of the 64-bit words of |v|, in time independent of its size. */
function wordsAtMost(v: bigint): number {
  let i = 6;
  while (i <= LARGEST_POWER && (v >= powerOfTwo(i) || v <= -powerOfTwo(i))) i++;
  return 2 ** (i - 6);
}

// Integer work Pact prices at a flat cost (`mod`, `abs`, `negate`, the bitwise natives, `dec`):
// steps per 64-bit word read or written, and per pair of words a division multiplies.
const STEPS_PER_WORD = 40;
const STEPS_PER_WORD_PAIR = 3;

function countWords(
  meter: PactGasMeter,
  what: string,
  ...values: (RuntimeValue | undefined)[]
): void {
  let words = 0;
  for (const v of values) if (typeof v === "bigint") words = Math.max(words, wordsAtMost(v));
  if (words > 1) meter.unpriced(words * STEPS_PER_WORD, `${what} of ${words} words`);
}

before(["mod"], (meter, [a, b]) => {
  if (typeof a !== "bigint" || typeof b !== "bigint") return;
  const words = wordsAtMost(a);
  if (words > 1) {
    const steps = words * STEPS_PER_WORD + words * wordsAtMost(b) * STEPS_PER_WORD_PAIR;
    meter.unpriced(steps, `mod of ${words} words`);
  }
});
before(["abs", "negate", "~", "dec"], (meter, [a]) => countWords(meter, "an integer operation", a));
before(["&", "|", "xor"], (meter, [a, b]) => countWords(meter, "a bitwise operation", a, b));
before(["round", "floor", "ceiling"], (meter, [a]) => {
  if (a instanceof Decimal) countWords(meter, "rounding", a.mantissa);
});

before(["shift"], (meter, [a, b]) => {
  if (typeof a === "bigint" && typeof b === "bigint") {
    meter.charge(intShiftCost(a, b), "GIntegerOpCost PrimOpShift");
  }
});

before(["exp"], (meter, [a]) => {
  const m = mantissa(a);
  if (m !== null) meter.charge(expCost(m), "GTranscendental TransExp");
});

before(["ln"], (meter, [a]) => {
  const p = typeof a === "bigint" ? a : a instanceof Decimal ? a.toInteger("ceiling") : null;
  if (p !== null) meter.charge(lnCost(p), "GTranscendental TransLn");
});

before(["sqrt"], (meter, [a]) => {
  const m = mantissa(a);
  // A negative argument fails before any charge.
  if (m !== null && m >= 0n) meter.charge(sqrtCost(m), "GTranscendental TransSqrt");
});

before(["log"], (meter, [a, b]) => {
  const base = typeof a === "bigint" ? a : a instanceof Decimal ? a.toInteger("ceiling") : null;
  const n = typeof b === "bigint" ? b : b instanceof Decimal ? b.toInteger("ceiling") : null;
  if (base === null || n === null) return;
  const invalid =
    (a instanceof Decimal ? a.compare(Decimal.ONE) === 0 : a === 1n) ||
    (a instanceof Decimal ? a.sign() < 0 : (a as bigint) < 0n) ||
    (b instanceof Decimal ? b.sign() <= 0 : (b as bigint) <= 0n);
  if (!invalid) meter.charge(logBaseCost(base, n), "GTranscendental TransLogBase");
});

function timeUnit(seconds: bigint) {
  return (meter: PactGasMeter, [a]: Args) => {
    const m = mantissa(a);
    if (m !== null) meter.charge(intMulCost(m, seconds), "GIntegerOpCost PrimOpMul");
  };
}
before(["minutes"], timeUnit(60n));
before(["hours"], timeUnit(3600n));
before(["days"], timeUnit(86400n));

// ---------------------------------------------------------------------------------------------
// Comparisons

before(["=", "!="], (meter, [a, b]) => {
  chargedEquals(meter, a as PactValue, b as PactValue);
});

before([">", "<", ">=", "<="], (meter, [a, b]) => {
  chargeLiteralComparison(meter, a as PactValue, b as PactValue);
});

// ---------------------------------------------------------------------------------------------
// Strings, lists and objects

// Work Pact's table does not price (counted with `meter.unpriced`, in steps of about a
// nanosecond): counting the code points of a long string (`length` charges one milligas per 100),
// walking the code points `drop` skips, copying the list `drop` returns (Pact's vectors share it).
const STEPS_PER_UNIT_WALKED = 2;
const STEPS_PER_ELEMENT_COPIED = 4;
/** Shorter strings are counted at the flat price. */
const COUNTED_STRING_MIN = 1024;

before(["length"], (meter, [a]) => {
  if (typeof a === "string") {
    if (a.length >= COUNTED_STRING_MIN) {
      const steps = a.length * STEPS_PER_UNIT_WALKED;
      meter.unpriced(steps, `counting the code points of ${a.length} UTF-16 units`);
    }
    meter.charge(stringLengthCost(codePointLength(a)), "GStrOp StrOpLength");
  }
});

/** min(n, code points of s), walking at most about n code points. */
function codePointsUpTo(s: string, n: number): number {
  if (n < s.length && codePointOffset(s, n) < s.length) return n;
  return codePointLength(s.length <= 2 * n ? s : s.slice(0, codePointOffset(s, n)));
}

before(["drop"], (meter, [n, seq]) => {
  if (typeof n !== "bigint") return;
  const count = n < 0n ? -n : n;
  if (typeof seq === "string") {
    const walked = count < BigInt(seq.length) ? Number(count) : seq.length;
    meter.unpriced(walked * STEPS_PER_UNIT_WALKED, `walking ${walked} code points drop skips`);
  } else if (isList(seq)) {
    const dropped = count < BigInt(seq.length) ? Number(count) : seq.length;
    const kept = seq.length - dropped;
    meter.unpriced(kept * STEPS_PER_ELEMENT_COPIED, `copying the ${kept} elements drop keeps`);
  }
});

before(["take"], (meter, [n, seq]) => {
  if (typeof n === "bigint") {
    if (typeof seq === "string") {
      if (n >= 0n)
        concat(meter, codePointsUpTo(seq, n < BigInt(seq.length) ? Number(n) : seq.length));
      else concat(meter, Number(-n));
    } else if (isList(seq)) {
      if (n >= 0n) concat(meter, n < BigInt(seq.length) ? Number(n) : seq.length);
      else concat(meter, Number(-n));
    }
  } else if (isList(n) && isObject(seq)) {
    concat(meter, n.length);
  }
});

before(["reverse"], (meter, [a]) => {
  if (isList(a)) concat(meter, a.length);
  else if (typeof a === "string") concat(meter, codePointLength(a));
});

before(["concat"], (meter, [a]) => {
  if (!isList(a) || a.length === 0 || !a.every((s) => typeof s === "string")) return;
  let characters = 0;
  for (const s of a) characters += codePointLength(s as string);
  meter.charge(textListConcatCost(meter.config, characters, a.length), "GConcat TextListConcat");
});

before(["str-to-list"], (meter, [a]) => {
  if (typeof a === "string") meter.charge(stringExplodeCost(codePointLength(a)), "GStrOp");
});

/** Steps of comparing one list element (twice: for its charge and in the native). */
const STEPS_PER_ELEMENT_COMPARED = 40;

before(["contains"], (meter, [needle, hay]) => {
  const cfg = meter.config;
  if (typeof needle === "string" && isObject(hay)) {
    meter.charge(fieldSearchCost(cfg, hay.size), "GSearch FieldSearch");
  } else if (typeof needle === "string" && typeof hay === "string") {
    const cost = substringSearchCost(cfg, codePointLength(needle), codePointLength(hay));
    meter.charge(cost, "GSearch SubstringSearch");
  } else if (isList(hay)) {
    // Values of different kinds compare unequal for nothing (as in Pact): the walk is unpriced.
    const steps = hay.length * STEPS_PER_ELEMENT_COMPARED;
    meter.unpriced(steps, `comparing ${hay.length} elements`);
    for (const v of hay) if (chargedEquals(meter, needle as PactValue, v)) break;
  }
});

before(["distinct"], (meter, [a]) => {
  if (!isList(a)) return;
  // Pact keeps the first of each run of equal values, comparing it with every later value.
  let rest: readonly PactValue[] = a;
  while (rest.length > 0) {
    meter.unpriced(rest.length * STEPS_PER_ELEMENT_COMPARED, `comparing ${rest.length} elements`);
    const [first, ...others] = rest;
    rest = others.filter((v) => !chargedEquals(meter, first!, v));
  }
});

/** Steps of walking a value for its size estimate, per byte estimated. */
const STEPS_PER_BYTE_SIZED = 2;
/** Steps of one comparison of objects by one field. */
const STEPS_PER_FIELD_COMPARISON = 40;

before(["sort"], (meter, args) => {
  if (args.length !== 1) {
    // Sorting objects by fields costs only the flat price: n·⌈log₂ n⌉ comparisons are unpriced.
    const [fields, objects] = args;
    if (isList(fields) && isList(objects) && objects.length > 1) {
      const n = objects.length;
      const comparisons = n * Math.ceil(Math.log2(n)) * fields.length;
      meter.unpriced(comparisons * STEPS_PER_FIELD_COMPARISON, `sorting ${n} objects by fields`);
    }
    return;
  }
  const list = args[0];
  if (!isList(list) || list.length === 0) return;
  let largest = 0;
  let total = 0;
  for (const v of list) {
    const bytes = measured(meter, v);
    largest = Math.max(largest, bytes);
    total += bytes;
  }
  meter.charge(sortCost(meter.config, largest, list.length), "GComparison SortComparisons");
  // Pact charges a thousandth of a milligas per byte measured (one element): the walk is unpriced.
  meter.unpriced(total * STEPS_PER_BYTE_SIZED, `measuring ${total} bytes to sort`);
});

before(["remove"], (meter, [key, o]) => {
  if (typeof key === "string" && isObject(o)) {
    meter.charge(objectRemoveCost(codePointLength(key), o.size), "GObjOp ObjOpRemove");
  }
});

before(["at"], (meter, [key, o]) => {
  if (typeof key === "string" && isObject(o)) lookup(meter, key, o.size);
});

before(["where"], (meter, [field, _fn, o]) => {
  if (typeof field === "string" && isObject(o)) lookup(meter, field, o.size);
});

before(["make-list"], (meter, [n, v]) => {
  if (typeof n !== "bigint" || v === undefined) return;
  meter.charge(makeListCost(n, measured(meter, v as PactValue)), "GMakeList");
});

before(["enumerate"], (meter, [from, to, step]) => {
  if (typeof from !== "bigint" || typeof to !== "bigint") return;
  const inc = typeof step === "bigint" ? step : from > to ? -1n : 1n;
  if (from === to) {
    meter.charge(makeListCost(1n, integerSize(from)), "GMakeList");
    return;
  }
  if (inc === 0n) return;
  // Steps moving away from `to` fail before any charge.
  if ((from < to && inc < 0n) || (from > to && inc > 0n)) return;
  const span = from > to ? from - to : to - from;
  const length = 1n + span / (inc < 0n ? -inc : inc);
  const largest = (from < 0n ? -from : from) > (to < 0n ? -to : to) ? from : to;
  meter.charge(makeListCost(length, integerSize(largest)), "GMakeList");
});

/** Each element `map`, `filter`, `fold` and `zip` take costs one `uncons`. */
function unconsEach(count: (args: Args) => number) {
  return (meter: PactGasMeter, args: Args) => {
    meter.charge(count(args) * meter.config.unconsWork, "GAConstant uncons");
  };
}
before(
  ["map", "filter"],
  unconsEach(([, list]) => (isList(list) ? list.length : 0)),
);
before(
  ["fold"],
  unconsEach(([, , list]) => (isList(list) ? list.length : 0)),
);
before(
  ["zip"],
  unconsEach(([, a, b]) => (isList(a) && isList(b) ? Math.min(a.length, b.length) : 0)),
);

// ---------------------------------------------------------------------------------------------
// Text conversions, formatting and hashing

before(["str-to-int"], (meter, args) => {
  const text = args[args.length - 1];
  if (typeof text !== "string") return;
  if (args.length === 2) {
    const base = args[0];
    if (typeof base !== "bigint" || !(base === 64n || (base >= 2n && base <= 16n))) return;
  }
  meter.charge(stringParseCost(codePointLength(text)), "GStrOp StrOpParse");
});

before(["int-to-str"], (meter, [base, v]) => {
  if (typeof base !== "bigint" || typeof v !== "bigint" || v < 0n) return;
  if (base >= 2n && base <= 16n) concat(meter, 1 + integerLogBase(base, v));
  else if (base === 64n) concat(meter, Math.floor(((1 + integerLogBase(256n, v)) * 4) / 3));
});

before(["base64-encode", "base64-decode", "is-principal", "typeof-principal"], (meter, args) => {
  const text = args[args.length - 1];
  if (typeof text === "string") {
    meter.charge(stringParseCost(codePointLength(text)), "GStrOp StrOpParse");
  }
});

before(["is-charset"], (meter, [, text]) => {
  if (typeof text === "string") {
    meter.charge(stringParseCost(codePointLength(text)), "GStrOp StrOpParse");
  }
});

before(["parse-time"], (meter, [format, text]) => {
  if (typeof format === "string" && typeof text === "string") {
    const cost = parseTimeCost(codePointLength(format), codePointLength(text));
    meter.charge(cost, "GStrOp StrOpParseTime");
  }
});

before(["format-time"], (meter, [format]) => {
  if (typeof format === "string") {
    meter.charge(formatTimeCost(codePointLength(format)), "GStrOp StrOpFormatTime");
  }
});

/** Rendering a value as text (`show`, and `format` of a non-string) costs its size. */
function chargeRender(meter: PactGasMeter, v: PactValue): void {
  concat(meter, measured(meter, v));
}

before(["show"], (meter, [v]) => {
  if (v !== undefined) chargeRender(meter, v as PactValue);
});

after(["format"], (meter, [template, values], result) => {
  if (typeof template !== "string" || !isList(values) || typeof result !== "string") return;
  const holes = template.split("{}").length - 1;
  if (holes === 0) {
    meter.charge(stringParseCost(codePointLength(template)), "GStrOp StrOpParse");
    return;
  }
  for (let i = 0; i < holes && i < values.length; i++) {
    const v = values[i]!;
    if (typeof v !== "string") chargeRender(meter, v);
  }
  concat(meter, codePointLength(result));
});

before(["hash"], (meter, [v]) => {
  if (v === undefined) return;
  const bytes =
    typeof v === "string" ? Buffer.byteLength(v, "utf8") : measured(meter, v as PactValue);
  meter.charge(hashCost(meter.config, bytes), "GHash");
});

/** Keccak-256 of texts: by their UTF-8 bytes (the base64 text, not the bytes it encodes). */
before(["hash-keccak256"], (meter, [chunks]) => {
  if (!isList(chunks) || !chunks.every((c) => typeof c === "string")) return;
  const lengths = chunks.map((c) => Buffer.byteLength(c as string, "utf8"));
  meter.charge(keccakCost(meter.config, lengths), "GHashOp GHashKeccak");
});

/** Poseidon of 1 to 8 integers (other arguments fail before any charge). */
before(["poseidon-hash-hack-a-chain", "hash-poseidon"], (meter, [inputs]) => {
  if (!isList(inputs) || inputs.length === 0 || inputs.length > MAX_POSEIDON_INPUTS) return;
  if (!inputs.every((x) => typeof x === "bigint")) return;
  meter.charge(poseidonCost(meter.config, inputs.length), "GHashOp GHashPoseidon");
});

// ---------------------------------------------------------------------------------------------
// BN254 (charged once the group and the argument types are right, before the points are read)

before(["point-add"], (meter, [group, p1, p2]) => {
  const g = zkGroup(group);
  if (g !== null && isObject(p1) && isObject(p2)) {
    meter.charge(POINT_ADD_COST[g], "GAZKArgs PointAdd");
  }
});

before(["scalar-mult"], (meter, [group, point, scalar]) => {
  const g = zkGroup(group);
  if (g !== null && isObject(point) && typeof scalar === "bigint") {
    meter.charge(SCALAR_MULT_COST[g], "GAZKArgs ScalarMult");
  }
});

before(["pairing-check"], (meter, [g1s, g2s]) => {
  if (isList(g1s) && isList(g2s)) {
    meter.charge(pairingCheckCost(Math.max(g1s.length, g2s.length)), "GAZKArgs Pairing");
  }
});

/**
 * Hyperlane natives cost one milligas per character of the text they read (a token message to
 * decode) or write (a message id, an encoded token message).
 */
before(["hyperlane-decode-token-message"], (meter, [text]) => {
  if (typeof text === "string")
    meter.charge(codePointLength(text), "GHyperlaneEncodeDecodeTokenMessage");
});

after(["hyperlane-message-id"], (meter, _args, id) => {
  if (typeof id === "string") meter.charge(codePointLength(id), "GHyperlaneMessageId");
});

after(["hyperlane-encode-token-message"], (meter, _args, encoded) => {
  if (typeof encoded === "string") {
    meter.charge(codePointLength(encoded), "GHyperlaneEncodeDecodeTokenMessage");
  }
});

// ---------------------------------------------------------------------------------------------
// Transaction data

/** The environment's transaction data (the part of `ExecutionEnv` these rules read). */
interface WithData {
  readonly env: { readonly data: PactValue };
}

function dataObject(ctx: NativeContext): PactObject | null {
  const data = (ctx as unknown as WithData).env.data;
  return data instanceof Map ? data : null;
}

before(["read-msg", "read-string"], (meter, args, ctx) => {
  const key = args[0];
  const data = dataObject(ctx);
  if (typeof key === "string" && data !== null) lookup(meter, key, data.size);
});

before(["read-integer", "read-decimal"], (meter, [key], ctx) => {
  const data = dataObject(ctx);
  if (typeof key !== "string" || data === null) return;
  lookup(meter, key, data.size);
  const raw = data.get(key);
  if (typeof raw === "string") {
    meter.charge(stringToIntCost(codePointLength(raw)), "GStrOp StrOpConvToInt");
  }
});

/** Charges reading the keyset `name` from the transaction data (Pact's `readKeyset'`). */
function chargeKeysetRead(meter: PactGasMeter, name: string, ctx: NativeContext): void {
  const data = dataObject(ctx);
  if (data === null) return;
  lookup(meter, name, data.size);
  const raw = data.get(name);
  if (!isObject(raw)) return;
  lookup(meter, "keys", raw.size);
  lookup(meter, "pred", raw.size);
  const keys = raw.get("keys");
  const pred = raw.get("pred") ?? "keys-all";
  if (isList(keys) && keys.every((k) => typeof k === "string") && typeof pred === "string") {
    meter.charge(stringParseCost(codePointLength(pred)), "GStrOp StrOpParse");
  }
}

before(["read-keyset"], (meter, [name], ctx) => {
  if (typeof name === "string") chargeKeysetRead(meter, name, ctx);
});

// ---------------------------------------------------------------------------------------------
// Keysets, guards and principals

/** `define-keyset` with only a name reads the keyset from the data (its write is charged when made). */
before(["define-keyset"], (meter, args, ctx) => {
  const name = args[0];
  if (args.length === 1 && typeof name === "string") chargeKeysetRead(meter, name, ctx);
});

before(["enforce-guard", "enforce-keyset", "keyset-ref-guard"], (meter, [g]) => {
  if (typeof g === "string") meter.charge(stringParseCost(codePointLength(g)), "GStrOp StrOpParse");
});

/** Pact's `createPrincipalForGuard`: a constant per step, plus hashing for user and cap guards. */
function chargePrincipal(meter: PactGasMeter, g: RuntimeValue | undefined): void {
  if (typeof g !== "object" || g === null) return;
  const guard = g as { kind?: string };
  switch (guard.kind) {
    case "keyset": {
      const ks = g as KeySet;
      const single =
        ks.keys.length === 1 && ks.pred === "keys-all" && /^[0-9a-fA-F]{64}$/.test(ks.keys[0]!);
      meter.charge(PRINCIPAL_STEP_COST, "GAConstant");
      if (single) return;
      if (ks.pred.includes(".")) concat(meter, codePointLength(ks.pred.replaceAll(".", "")));
      return;
    }
    case "user-guard":
    case "capability-guard":
      // The guard itself, without the two variant tags of a guard value.
      meter.charge(hashCost(meter.config, measured(meter, g as PactValue) - 4), "GHash");
      meter.charge(PRINCIPAL_STEP_COST, "GAConstant");
      return;
    default:
      meter.charge(PRINCIPAL_STEP_COST, "GAConstant");
  }
}

before(["create-principal"], (meter, [g]) => chargePrincipal(meter, g));

before(["validate-principal"], (meter, [g, s]) => {
  chargePrincipal(meter, g);
  if (typeof s === "string") {
    meter.charge(textCompareCost(meter.config, codePointLength(s)), "GComparison TextComparison");
  }
});

// ---------------------------------------------------------------------------------------------
// Capabilities

/** The capability state reachable from a call site (the part of the runtime this rule reads). */
interface WithCaps {
  readonly rt: {
    readonly caps: { readonly slots: readonly { readonly composed: readonly unknown[] }[] };
  };
}

before(["require-capability"], (meter, _args, ctx) => {
  let granted = 0;
  for (const slot of (ctx as unknown as WithCaps).rt.caps.slots)
    granted += 1 + slot.composed.length;
  meter.charge(requireCapabilityCost(granted), "GCapOp CapOpRequire");
});

// ---------------------------------------------------------------------------------------------
// Database

function isTable(v: RuntimeValue | undefined): v is TableRef {
  return typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "table";
}

/** `insert`, `write`: the schema check, then the row's size. */
before(["insert", "write"], (meter, [table, , row]) => {
  if (!isTable(table) || !isObject(row)) return;
  meter.charge(typecheckObjectCost(meter.config, row, table.schema), "GAConstant typecheck");
  meter.charge(writeCost(meter.config, measuredObject(meter, row)), "GWrite");
});

/** `update` checks the fields given against the schema twice (a partial check, then a full one). */
before(["update"], (meter, [table, , row]) => {
  if (!isTable(table) || !isObject(row)) return;
  meter.charge(row.size * meter.config.machineTickCost, "GAConstant typecheck");
  meter.charge(typecheckObjectCost(meter.config, row, table.schema, true), "GAConstant typecheck");
  meter.charge(writeCost(meter.config, measuredObject(meter, row)), "GWrite");
});

function measuredObject(meter: PactGasMeter, row: PactObject): number {
  const bytes = objectSize(row);
  meter.checkSize(bytes);
  return bytes;
}
