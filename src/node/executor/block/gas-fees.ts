/**
 * What a command pays for gas, as Chainweb computes it: the size charge every command starts
 * with, the amount bought before it runs (gas limit × gas price) and the fee it ends up paying
 * (gas used × gas price), both amounts rounded to the coin's 12 decimal places.
 */
import type { PrivateMeta, PublicMeta } from "../../../command/index.ts";
import { Decimal } from "../../../pact/values/index.ts";

/** The coin's precision: amounts are rounded to this many decimal places. */
export const COIN_DECIMALS = 12;
/** Gas a command's gas purchase may use (Chainweb's limit for the `buy-gas` step). */
export const BUY_GAS_LIMIT = 1_500;

/**
 * The gas a command costs for its size before any code runs (Chainweb's `initialGasOf`):
 * ceil(c + (c/512)^7) with c = 0.01 gas per byte of `cmd` (a continuation proof excluded).
 */
export function sizeGas(cmdBytes: number): number {
  const c = cmdBytes * 0.01;
  return Math.ceil(c + (c / 512) ** 7);
}

/** `gas` × `price`, rounded to the coin's precision. */
export function gasAmount(gas: number, price: Decimal): Decimal {
  return Decimal.fromInteger(BigInt(gas)).mul(price).roundTo(COIN_DECIMALS, "round");
}

/**
 * The gas a command may use, which its block reserves for it: a public command's `gasLimit`; a
 * private command's own (Braid's field beside its address) or else as much as a block holds.
 */
export function commandGasLimit(meta: PublicMeta | PrivateMeta, blockGasLimit: number): number {
  return meta.gasLimit ?? blockGasLimit;
}
