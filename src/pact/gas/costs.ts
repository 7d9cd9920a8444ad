/**
 * The cost formulas of Pact 5's table gas model (`runTableModel`), as pure functions returning
 * milligas. Integer sizes are measured in bits as Pact does: `bitCount(0) = 1`.
 *
 * Pact's arithmetic on costs saturates in an unsigned 64-bit word; here results are clamped to
 * [0, {@link MAX_MILLIGAS}] (exact below 2^53, far above any gas limit).
 */
import type { GasCostConfig } from "./config.ts";

/** Flat cost of most natives in milligas (the table gas model's `nativeBasicWork`). */
export const BASIC_WORK_GAS = 100;

/** The largest cost Pact can express (2^64 − 1, its saturating word). */
export const MAX_MILLIGAS = 2 ** 64 - 1;

/**
 * Integer operations on numbers up to this many bits cost a flat amount; above it the cost
 * grows with the square of the size (Pact's `intCostUpperBound`, about 10^200).
 */
export const INT_COST_UPPER_BOUND_BITS = 664;

/** Flat cost of adding or subtracting integers up to {@link INT_COST_UPPER_BOUND_BITS} bits. */
export const INT_ADD_COST = 30;

/** Per-element cost of the text part of `concat` (on top of the per-character cost). */
export const TEXT_LIST_ELEMENT_COST = 40;

/** Milligas for one step of a principal or hash computation charged as a constant. */
export const PRINCIPAL_STEP_COST = 1000;

const TWO_POW_32 = 4294967296;

/** Clamps a cost into Pact's saturating range. */
export function saturate(mg: number): number {
  if (!(mg > 0)) return 0;
  return Math.min(mg, MAX_MILLIGAS);
}

/** Bits needed for |i|, at least 1 (Pact's `numberOfBits`). */
export function bitCount(i: bigint): number {
  const a = i < 0n ? -i : i;
  if (a < 9007199254740992n) {
    const n = Number(a);
    if (n < TWO_POW_32) return n === 0 ? 1 : 32 - Math.clz32(n);
    return 64 - Math.clz32(Math.floor(n / TWO_POW_32));
  }
  const hex = a.toString(16);
  return (hex.length - 1) * 4 + (32 - Math.clz32(Number.parseInt(hex[0]!, 16)));
}

/** How far the floating-point estimate of a logarithm may be from the true value (far above its error). */
const LOG_ESTIMATE_MARGIN = 1e-6;

/**
 * ⌊log_base v⌋ for v ≥ 1 and base ≥ 2, 0 for v < base (Haskell's `integerLogBase`, which
 * `int-to-str` is priced by), in time linear in v's size: from the bit count for bases that are
 * powers of two, otherwise from a floating-point estimate of the logarithm (v's top 64 bits and
 * its bit count), checked against one power of the base only when the estimate is within
 * {@link LOG_ESTIMATE_MARGIN} of a whole number.
 */
export function integerLogBase(base: bigint, v: bigint): number {
  if (v < base) return 0;
  const bits = bitCount(v);
  if ((base & (base - 1n)) === 0n) return Math.floor((bits - 1) / (bitCount(base) - 1));
  if (bits <= 53) {
    let k = 0;
    for (let p = base; p <= v; p *= base) k++;
    return k;
  }
  const shift = bits - 64;
  const top = Number(v >> BigInt(shift));
  const estimate = (shift + Math.log2(top)) / Math.log2(Number(base));
  const low = Math.floor(estimate - LOG_ESTIMATE_MARGIN);
  const high = Math.floor(estimate + LOG_ESTIMATE_MARGIN);
  if (low === high) return low;
  return v >= base ** BigInt(high) ? high : low;
}

/** Like {@link bitCount}, but a machine-word integer (−2^63 ≤ i < 2^63) counts as 64 bits. */
export function integerBits(i: bigint): number {
  if (i >= -9223372036854775808n && i < 9223372036854775808n) return 64;
  return bitCount(i);
}

/** Pact charges integer operations by the size of the (signed) larger operand. */
function larger(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

function squaredBitsCost(bits: number): number {
  return saturate(Math.floor((bits * bits) / 6400));
}

/** `+` and `-` on integers (and on decimal mantissas). */
export function intAddCost(a: bigint, b: bigint): number {
  const m = larger(a, b);
  if (m > -9007199254740992n && m < 9007199254740992n) return INT_ADD_COST;
  const bits = bitCount(m);
  return bits <= INT_COST_UPPER_BOUND_BITS ? INT_ADD_COST : squaredBitsCost(bits);
}

/** `*` and `/` on integers (and on decimal mantissas); division is charged as multiplication. */
export function intMulCost(a: bigint, b: bigint): number {
  const bits = bitCount(larger(a, b));
  if (bits <= INT_COST_UPPER_BOUND_BITS) return Math.floor((3 * bits) / 20) + 26;
  return squaredBitsCost(bits);
}

/** Haskell's `ceiling` into a saturating word: negative results (and −∞) become 0. */
function ceilWord(x: number): number {
  return x > 0 ? Math.ceil(x) : 0;
}

/** Exponentiation by squaring: (2L − 2) multiplications of operands averaging n0·2^((L−1)/2) bits. */
function powByBits(baseBits: number, powerBits: number, alpha: number): number {
  const mults = Math.max(0, 2 * powerBits - 2);
  const average = saturate(baseBits * ceilWord(2 ** ((powerBits - 1) / 2)));
  return saturate(mults * ceilWord(average ** alpha));
}

/** `^` on integers (`base^power`), also used for decimals with both sides rounded up. */
export function intPowCost(base: bigint, power: bigint): number {
  return powByBits(bitCount(base), bitCount(power), 2);
}

/** `shift`: a left shift by n is charged as 2^n plus a multiplication; right shifts are free. */
export function intShiftCost(value: bigint, amount: bigint): number {
  if (amount <= 0n) return 0;
  const size = Math.max(bitCount(value), saturate(Number(amount)));
  return saturate(intPowCost(2n, amount) + Math.floor((3 * size) / 20) + 26);
}

/** `exp` of a number whose integer part (or decimal mantissa) is `power`. */
export function expCost(power: bigint): number {
  return powByBits(bitCount(3n), bitCount(power), 2.5);
}

/** The cost of a natural logarithm of `p` (a number with n bits: n·⌈ln²n⌉·⌈ln ln n⌉). */
export function lnCost(p: bigint): number {
  const n = bitCount(p);
  const ln = Math.log(n);
  return saturate(n * ceilWord(ln ** 2) * ceilWord(Math.log(ln)));
}

/** `log base n`: two logarithms. */
export function logBaseCost(base: bigint, n: bigint): number {
  return saturate(lnCost(base) + lnCost(n));
}

/** `sqrt` of a number whose integer part (or decimal mantissa) is `p`: n·⌈ln n⌉·⌈ln ln n⌉. */
export function sqrtCost(p: bigint): number {
  if (p <= 0n) return 0;
  const n = bitCount(p);
  const ln = Math.log(n);
  return saturate(n * ceilWord(ln) * ceilWord(Math.log(ln)));
}

/** Building text or lists of `length` characters or elements (Pact's `GConcat`). */
export function concatCost(cfg: GasCostConfig, length: number): number {
  return saturate(length * cfg.concatFactor);
}

/** `concat` of `elements` strings with `characters` characters in all. */
export function textListConcatCost(
  cfg: GasCostConfig,
  characters: number,
  elements: number,
): number {
  return saturate(characters * cfg.concatFactor + elements * TEXT_LIST_ELEMENT_COST);
}

/** Comparing integers `a` and `b` (`<`, `=`, …). */
export function intCompareCost(cfg: GasCostConfig, a: bigint, b: bigint): number {
  return Math.max(integerBits(a), integerBits(b)) + cfg.nativeBasicWork;
}

/** Comparing decimals by mantissa: a rescaling (charged as a division) and an integer comparison. */
export function decimalCompareCost(cfg: GasCostConfig, a: bigint, b: bigint): number {
  return saturate(intMulCost(a, b) + intCompareCost(cfg, a, b));
}

/** Comparing strings, by the length (in characters) of the first. */
export function textCompareCost(cfg: GasCostConfig, length: number): number {
  return length + cfg.nativeBasicWork;
}

/** Comparing lists (or capability/guard arguments) of `n` elements, or objects of `n` fields. */
export function sizedCompareCost(cfg: GasCostConfig, n: number): number {
  return saturate(n * cfg.nativeBasicWork);
}

/** `sort`: the worst case n² comparisons of values of `size` bytes. */
export function sortCost(cfg: GasCostConfig, size: number, n: number): number {
  return saturate(Math.floor((size * n * n) / cfg.sortBytePenaltyReduction));
}

/** Searching `needleLength` characters in `hayLength` characters (`contains` on strings). */
export function substringSearchCost(
  cfg: GasCostConfig,
  needleLength: number,
  hayLength: number,
): number {
  return needleLength + hayLength + cfg.nativeBasicWork;
}

/** Looking a field up in an object of `fields` fields (`contains` on objects). */
export function fieldSearchCost(cfg: GasCostConfig, fields: number): number {
  return fields + cfg.nativeBasicWork;
}

/** Looking a key of `keyLength` characters up in an object of `fields` fields. */
export function objectLookupCost(keyLength: number, fields: number): number {
  return saturate(bitCount(BigInt(fields)) * keyLength);
}

/** Removing a key of `keyLength` characters from an object of `fields` fields. */
export function objectRemoveCost(keyLength: number, fields: number): number {
  return saturate(fields * keyLength * 10);
}

/** The length of a string of `length` characters. */
export function stringLengthCost(length: number): number {
  return Math.floor(length / 100) + 1;
}

/** Reading an integer from `length` characters. */
export function stringToIntCost(length: number): number {
  return saturate(length * 20 + 1);
}

/** A scanning parse of `length` characters (base64, `str-to-int`, keyset names, principals). */
export function stringParseCost(length: number): number {
  return saturate(length * 5 + 1);
}

/** Splitting `length` characters into a list (`str-to-list`). */
export function stringExplodeCost(length: number): number {
  return saturate(length * 100 + 1);
}

/** `parse-time` with a format of `formatLength` and a text of `textLength` characters. */
export function parseTimeCost(formatLength: number, textLength: number): number {
  return saturate(Math.floor((formatLength * formatLength) / 4) + 10 * textLength + 1);
}

/** `format-time` with a format of `formatLength` characters. */
export function formatTimeCost(formatLength: number): number {
  return saturate(formatLength * 20 + 1);
}

/** A list of `length` elements of `size` bytes each (`make-list`, `enumerate`). */
export function makeListCost(length: bigint, size: number): number {
  if (length <= 0n) return 0;
  return saturate(Number(length) * size);
}

/** Function application with `args` arguments. */
export function applyLambdaCost(cfg: GasCostConfig, args: number): number {
  return args * cfg.functionArgumentCost + 50;
}

/** Writing `bytes` (Pact's size estimate) to the database. */
export function writeCost(cfg: GasCostConfig, bytes: number): number {
  return saturate(bytes * cfg.perByteWriteCost);
}

/** Reading `bytes` (Pact's size estimate) from the database. */
export function readCost(cfg: GasCostConfig, bytes: number): number {
  return saturate(bytes * cfg.perByteReadCost);
}

/** Blake2b hashing of `bytes`. */
export function hashCost(cfg: GasCostConfig, bytes: number): number {
  return saturate(bytes * cfg.mhashBytePenalty);
}

/** Keccak-256 of chunks of the given byte lengths. */
export function keccakCost(cfg: GasCostConfig, chunkLengths: readonly number[]): number {
  let total = 0;
  for (const n of chunkLengths) total += n;
  const hundreds = Math.ceil(total / 100);
  return saturate(
    cfg.keccak256GasPerOneHundredBytes * hundreds + cfg.keccak256GasPerChunk * chunkLengths.length,
  );
}

/** The most inputs one Poseidon hash takes (the widest circomlib parameter set Pact includes). */
export const MAX_POSEIDON_INPUTS = 8;

/** Poseidon hashing of `n` field elements. */
export function poseidonCost(cfg: GasCostConfig, n: number): number {
  return saturate(n * n * cfg.poseidonQuadraticGasFactor + n * cfg.poseidonLinearGasFactor);
}

/** The BN254 groups the ZK natives take: `"g1"` or `"g2"` in any letter case. */
export type ZkGroup = "g1" | "g2";

/** The group a ZK native's first argument names, or null. */
export function zkGroup(v: unknown): ZkGroup | null {
  if (typeof v !== "string") return null;
  const lower = v.toLowerCase();
  return lower === "g1" || lower === "g2" ? lower : null;
}

/** `point-add` (Pact's `pointAddGas`, a constant of its table model whatever the gas model). */
export const POINT_ADD_COST: Readonly<Record<ZkGroup, number>> = { g1: 5_000, g2: 30_000 };

/** `scalar-mult` (Pact's `scalarMulGas`). */
export const SCALAR_MULT_COST: Readonly<Record<ZkGroup, number>> = { g1: 360_000, g2: 1_450_000 };

/** Per pair and fixed part of a `pairing-check`; the cost of a check without pairs. */
const PAIRING_SLOPE = 3_760;
const PAIRING_INTERCEPT = 11_600;
const PAIRING_WITHOUT_PAIRS = 100_000;

/** `pairing-check` of `pairs` pairs (the longer of its two lists). */
export function pairingCheckCost(pairs: number): number {
  return pairs > 0 ? saturate(pairs * PAIRING_SLOPE + PAIRING_INTERCEPT) : PAIRING_WITHOUT_PAIRS;
}

/** `require-capability` with `granted` capabilities in scope (slots and their composed caps). */
export function requireCapabilityCost(granted: number): number {
  return saturate(granted * 100);
}

/** Loading a stored module of `bytes` serialized bytes. */
export function moduleLoadCost(cfg: GasCostConfig, bytes: number): number {
  return Math.floor(bytes / cfg.moduleLoadSlope) + cfg.moduleLoadIntercept;
}

/** Merging `loaded` names with `added` new ones when a module's dependencies are loaded. */
export function mergeDepsCost(loaded: number, added: number): number {
  return saturate(loaded * added * 10);
}

/** Desugaring (compiling) a module of `size` bytes. */
export function desugarCost(cfg: GasCostConfig, size: number): number {
  return saturate(size * cfg.desugarBytePenalty);
}
