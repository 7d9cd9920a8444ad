/**
 * Difficulty adjustment, epoch start and weight (chainweb-node's `powTarget`, `epochStart` and
 * `adjust`; chainweb-wire.md §2). Only the current rules are implemented: below a version's
 * `ruleHeights.currentDifficultyAdjustment` these functions throw UnsupportedRulesError.
 *
 * Epochs: a parent of height p ends an epoch when (p + 1) mod w = 0, where the effective window
 * w is max(1, W div 10) while p ≤ W and W afterwards. The block after an epoch's end gets the
 * mean of the adjusted targets of its parent and adjacent parents, each scaled by the time its
 * epoch took over the time it should have taken (w × block delay), rounded up; on a network
 * without proof of work, never below {@link NO_POW_MIN_TARGET}.
 */
import type { BlockHeader } from "../header/types.ts";
import { type ChainwebVersion, genesisHeight } from "../version/version.ts";
import { MAX_WORD256 } from "../word256.ts";

/**
 * The lowest target a network without proof of work adjusts to: 2^128, a difficulty of 2^128
 * (mainnet's is near 2^66). Chainweb's adjustment has no floor, and a development node that mines
 * on demand makes blocks milliseconds apart, so each epoch divides the target by up to 30,000:
 * within about 1,900 heights it would reach 1, whose difficulty of 2^256 − 1 makes block weights
 * wrap around 2^256 and a lighter-looking branch win. With the floor, weights grow by at most
 * 2^128 a block.
 */
export const NO_POW_MIN_TARGET = 1n << 128n;

export class UnsupportedRulesError extends Error {
  override name = "UnsupportedRulesError";
}

/** The difficulty a target stands for: (2^256 − 1) div target. */
export function targetToDifficulty(target: bigint): bigint {
  if (target <= 0n) throw new RangeError(`target ${target} has no difficulty; it must be positive`);
  return MAX_WORD256 / target;
}

/** The weight of a block: its parent's weight plus the block's difficulty (wrapping at 2^256). */
export function expectedWeight(parentWeight: bigint, target: bigint): bigint {
  return BigInt.asUintN(256, parentWeight + targetToDifficulty(target));
}

/** Blocks in the epoch that a block of height `height` belongs to, as seen by its child. */
export function effectiveWindow(version: ChainwebVersion, height: number): number {
  const w = version.windowWidth;
  return height <= w ? Math.max(1, Math.floor(w / 10)) : w;
}

/** Whether the block at `height` is the last of its difficulty epoch. */
export function isLastInEpoch(version: ChainwebVersion, height: number): boolean {
  return (height + 1) % effectiveWindow(version, height) === 0;
}

/**
 * `ceiling(elapsed / (window × blockDelay) × target)`, computed exactly. Like chainweb-node, the
 * result is reduced modulo 2^256 (its conversion to Word256 wraps before the cap at the
 * maximum target is applied, so the cap never takes effect).
 */
export function adjustTarget(
  blockDelayMicros: number,
  window: number,
  elapsedMicros: number,
  target: bigint,
): bigint {
  const numerator = BigInt(elapsedMicros) * target;
  const denominator = BigInt(window) * BigInt(blockDelayMicros);
  let quotient = numerator / denominator; // truncates toward zero
  if (numerator % denominator > 0n) quotient += 1n; // ceiling for positive fractions
  return BigInt.asUintN(256, quotient);
}

function requireCurrentRules(version: ChainwebVersion, parent: BlockHeader): void {
  const from = version.ruleHeights.currentDifficultyAdjustment;
  if (parent.height + 1 < from) {
    throw new UnsupportedRulesError(
      `difficulty rules of ${version.name} below height ${from} are not implemented (block height ${parent.height + 1})`,
    );
  }
}

/** The target of the child of `parent`, given the child's adjacent parents. */
export function expectedTarget(
  version: ChainwebVersion,
  parent: BlockHeader,
  adjacentParents: readonly BlockHeader[],
): bigint {
  requireCurrentRules(version, parent);
  if (!isLastInEpoch(version, parent.height)) return parent.target;
  const window = effectiveWindow(version, parent.height);
  let sum = 0n;
  for (const a of [parent, ...adjacentParents]) {
    sum += adjustTarget(version.blockDelayMicros, window, a.creationTime - a.epochStart, a.target);
  }
  const target = sum / BigInt(adjacentParents.length + 1);
  return version.cheats.disablePow && target < NO_POW_MIN_TARGET ? NO_POW_MIN_TARGET : target;
}

/** The epoch start of the child of `parent`. */
export function expectedEpochStart(version: ChainwebVersion, parent: BlockHeader): number {
  requireCurrentRules(version, parent);
  // Genesis times are arbitrary, so a development network's first epoch starts at block 1 ...
  if (version.cheats.fakeFirstEpochStart && parent.height === 1) return parent.creationTime;
  // ... and so does the first epoch of a chain that joins the graph later.
  const firstOnNewChain =
    parent.height > 1 && parent.height === genesisHeight(version, parent.chainId) + 1;
  if (firstOnNewChain || isLastInEpoch(version, parent.height)) return parent.creationTime;
  return parent.epochStart;
}
