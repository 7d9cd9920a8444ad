/**
 * Pact integer operations whose semantics differ from JavaScript's bigint operators
 * (Pact integers are Haskell `Integer`s). `&`, `|`, `xor` and `~` need no helper: bigint's
 * two's-complement operators already match Haskell's.
 */

/** Haskell `div`: the quotient rounded toward negative infinity. Throws on a zero divisor. */
export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError("integer division by zero");
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Haskell `mod`: the remainder takes the sign of the divisor. Throws on a zero divisor. */
export function floorMod(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new RangeError("integer modulo by zero");
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

/** `base ^ exponent` on integers; a negative exponent is an error, 0 ^ 0 is 1. */
export function integerPow(base: bigint, exponent: bigint): bigint {
  if (exponent < 0n) throw new RangeError("negative exponent in integer power");
  return base ** exponent;
}

/**
 * Haskell `shift i n` as Pact's `shift` uses it: left for positive n, arithmetic right for
 * negative n. The amount is first converted to a 64-bit Int, wrapping like `fromIntegral`.
 */
export function integerShift(i: bigint, amount: bigint): bigint {
  const n = BigInt.asIntN(64, amount);
  return n >= 0n ? i << n : i >> -n;
}

/** ⌊√n⌋ for n ≥ 0 (Newton's method from a floating-point first guess). */
export function integerSqrt(n: bigint): bigint {
  if (n < 0n) throw new RangeError(`square root of a negative integer: ${n}`);
  if (n < 4503599627370496n) {
    // The float root can be off by one near perfect squares; correct it.
    let r = BigInt(Math.floor(Math.sqrt(Number(n))));
    while (r * r > n) r--;
    while ((r + 1n) * (r + 1n) <= n) r++;
    return r;
  }
  const bits = n.toString(2).length;
  // Start above the root so that the iteration decreases monotonically to it.
  let x = 1n << BigInt(Math.ceil(bits / 2) + 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}
