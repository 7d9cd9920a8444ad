/**
 * The feature flags word of a header is Chainweb's fork state (`ForkState.hs`): the low 32 bits
 * are the fork number, the high 32 bits the fork votes. Fork epochs are 14400 blocks; in the
 * first 14280 blocks miners may add 1000 votes each for a higher fork number, in the last 120
 * the votes of the parent and adjacent parents are averaged, and at the next epoch start the fork
 * number increases when the count reached two thirds. With no fork pending all of it stays 0.
 */
import type { BlockHeader } from "../header/types.ts";

export const FORK_EPOCH_LENGTH = 120 * 120;
export const VOTE_COUNT_LENGTH = 120;
export const VOTE_STEP = 1000;

const U32 = 0xffff_ffffn;

export function forkNumberOf(featureFlags: bigint): number {
  return Number(featureFlags & U32);
}

export function forkVotesOf(featureFlags: bigint): number {
  return Number((featureFlags >> 32n) & U32);
}

export function makeForkState(forkNumber: number, forkVotes: number): bigint {
  return (BigInt(forkVotes >>> 0) << 32n) | BigInt(forkNumber >>> 0);
}

export const isForkEpochStart = (height: number) => height % FORK_EPOCH_LENGTH === 0;
export const isLastForkEpochBlock = (height: number) => (height + 1) % FORK_EPOCH_LENGTH === 0;
/** Blocks in which miners vote; the rest of the fork epoch counts the votes. */
export const isForkVoteBlock = (height: number) =>
  height % FORK_EPOCH_LENGTH < FORK_EPOCH_LENGTH - VOTE_COUNT_LENGTH;

/** The mean of some vote counts, rounded down (u32 arithmetic, as in Chainweb). */
export function countVotes(votes: readonly number[]): number {
  const sum = votes.reduce((a, b) => (a + b) >>> 0, 0);
  return Math.floor(sum / votes.length);
}

/** Whether a vote count carries the fork: round(votes / 1000) × 3 ≥ 2 × 14280. */
export function decideVotes(votes: number): boolean {
  return roundHalfEven(votes / VOTE_STEP) * 3 >= (FORK_EPOCH_LENGTH - VOTE_COUNT_LENGTH) * 2;
}

/** Haskell's `round`: to the nearest integer, halves to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** The fork state of a new child of `parent`, voting for `targetForkNumber`. */
export function newForkState(
  parent: BlockHeader,
  adjacentParents: readonly BlockHeader[],
  targetForkNumber: number,
): bigint {
  const number = forkNumberOf(parent.featureFlags);
  const votes = forkVotesOf(parent.featureFlags);
  const vote = number < targetForkNumber;
  if (isLastForkEpochBlock(parent.height)) {
    return makeForkState(decideVotes(votes) ? number + 1 : number, vote ? VOTE_STEP : 0);
  }
  if (isForkVoteBlock(parent.height)) {
    return makeForkState(number, vote ? votes + VOTE_STEP : votes);
  }
  const all = [parent, ...adjacentParents].map((h) => forkVotesOf(h.featureFlags));
  return makeForkState(number, countVotes(all));
}

export type ForkFailureKind = "InvalidForkVotes" | "IncorrectForkNumber";

/**
 * What is wrong with a header's fork state given its parent (Chainweb's
 * prop_block_forkVotesReset, prop_block_forkVote and prop_block_forkNumber).
 */
export function forkChainStepProblems(
  header: BlockHeader,
  parent: BlockHeader,
): [ForkFailureKind, string][] {
  const problems: [ForkFailureKind, string][] = [];
  const votes = forkVotesOf(header.featureFlags);
  const parentVotes = forkVotesOf(parent.featureFlags);
  const h = header.height;
  if (isForkEpochStart(h)) {
    if (votes !== 0 && votes !== VOTE_STEP) {
      problems.push([
        "InvalidForkVotes",
        `fork votes ${votes} at fork epoch start ${h} must be 0 or ${VOTE_STEP}`,
      ]);
    }
  } else if (isForkVoteBlock(h) && votes !== parentVotes && votes !== parentVotes + VOTE_STEP) {
    problems.push([
      "InvalidForkVotes",
      `fork votes ${votes} must equal the parent's ${parentVotes} or add ${VOTE_STEP}`,
    ]);
  }
  const parentNumber = forkNumberOf(parent.featureFlags);
  const expected =
    isForkEpochStart(h) && decideVotes(parentVotes) ? parentNumber + 1 : parentNumber;
  const number = forkNumberOf(header.featureFlags);
  if (number !== expected) {
    problems.push(["IncorrectForkNumber", `fork number ${number} should be ${expected}`]);
  }
  return problems;
}

/**
 * In the counting blocks at the end of a fork epoch the votes must be the mean of the parent's
 * and the adjacent parents' votes (Chainweb's prop_block_forkVoteCount). A message, or undefined.
 */
export function forkVoteCountProblem(
  header: BlockHeader,
  parent: BlockHeader,
  adjacentParents: readonly BlockHeader[],
): string | undefined {
  if (isForkEpochStart(header.height) || isForkVoteBlock(header.height)) return undefined;
  const votes = forkVotesOf(header.featureFlags);
  const expected = countVotes([parent, ...adjacentParents].map((p) => forkVotesOf(p.featureFlags)));
  return votes === expected
    ? undefined
    : `fork votes ${votes} must be the mean ${expected} of the parent's and adjacent parents' votes`;
}
