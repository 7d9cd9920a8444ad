/**
 * The parts of a transaction's gas profile the node adds around its code's frames: what its
 * size costs, what buying its gas cost (both charged to the command's meter before its code
 * runs), and what settles the total to the `gas` of its result — the milligas rounded up to
 * whole gas after a success, the rest of the gas limit after a failure (a failed command pays
 * all of it), or, when the charge that failed went past the limit, the part of it not paid.
 */
import type { ParsedCommand } from "../../../command/index.ts";
import { type GasProfiler, MILLIGAS_PER_GAS } from "../../../pact/index.ts";

/** The charge for the command's size (Chainweb's initial gas). */
export const SIZE_CHARGE = "the command's size";
/** The gas `coin.buy-gas` used, charged to the command. */
export const PURCHASE_CHARGE = "buying gas (coin.buy-gas)";

/** The name of the frame of the command's own code. */
export function topLevelName(command: ParsedCommand): string {
  return command.payload.payload.kind === "exec" ? "exec code" : "continuation";
}

/** Adds the charge that brings the profile to `gas`, the command's result's. */
export function settleProfile(profiler: GasProfiler, gas: number, succeeded: boolean): void {
  const rest = gas * MILLIGAS_PER_GAS - profiler.totalMilligas();
  if (rest === 0) return;
  const name = succeeded
    ? "rounded up to whole gas"
    : rest > 0
      ? "the rest of the gas limit (a failure pays all of it)"
      : "charged past the gas limit, not paid";
  profiler.add("charge", name, rest);
}
