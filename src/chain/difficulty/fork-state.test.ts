import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { genesisHeader } from "../header/genesis.ts";
import type { BlockHeader } from "../header/types.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import {
  countVotes,
  decideVotes,
  forkChainStepProblems,
  forkNumberOf,
  forkVoteCountProblem,
  forkVotesOf,
  makeForkState,
  newForkState,
} from "./fork-state.ts";

const block = (height: number, forkNumber: number, votes: number): BlockHeader => ({
  ...genesisHeader(DEVELOPMENT, 0),
  height,
  featureFlags: makeForkState(forkNumber, votes),
});

describe("fork state word", () => {
  it("keeps the fork number low and the votes high", () => {
    const flags = makeForkState(3, 2000);
    assert.equal(flags, (2000n << 32n) | 3n);
    assert.equal(forkNumberOf(flags), 3);
    assert.equal(forkVotesOf(flags), 2000);
  });
  it("averages votes rounding down", () => {
    assert.equal(countVotes([1000, 2000, 2000, 0]), 1250);
    assert.equal(countVotes([1, 1, 0]), 0);
  });
  it("decides at two thirds of the voting blocks, rounding halves to even", () => {
    assert.equal(decideVotes(9_520_000), true);
    assert.equal(decideVotes(9_519_500), true); // 9519.5 rounds to 9520
    assert.equal(decideVotes(9_518_500), false); // 9518.5 rounds to 9518
    assert.equal(decideVotes(9_519_499), false);
  });
});

describe("new fork state", () => {
  it("stays 0 with no fork pending", () => {
    assert.equal(newForkState(block(5, 0, 0), [block(5, 0, 0)], 0), 0n);
  });
  it("adds a vote in voting blocks when a higher fork is wanted", () => {
    assert.equal(newForkState(block(5, 0, 3000), [], 1), makeForkState(0, 4000));
  });
  it("averages in counting blocks", () => {
    const parent = block(14_300, 0, 3000);
    assert.equal(newForkState(parent, [block(14_300, 0, 1000)], 1), makeForkState(0, 2000));
  });
  it("moves to the next fork number at an epoch start when the votes carried", () => {
    assert.equal(newForkState(block(14_399, 0, 9_600_000), [], 0), makeForkState(1, 0));
    assert.equal(newForkState(block(14_399, 0, 100), [], 1), makeForkState(0, 1000));
  });
});

describe("fork state checks", () => {
  it("accepts a state that follows the rules", () => {
    assert.deepEqual(forkChainStepProblems(block(6, 0, 1000), block(5, 0, 0)), []);
    assert.equal(
      forkVoteCountProblem(block(14_301, 0, 500), block(14_300, 0, 1000), [block(14_300, 0, 0)]),
      undefined,
    );
  });
  it("names votes that jump, reset wrongly or miss the mean, and a wrong fork number", () => {
    assert.deepEqual(forkChainStepProblems(block(6, 1, 3000), block(5, 0, 0)), [
      ["InvalidForkVotes", "fork votes 3000 must equal the parent's 0 or add 1000"],
      ["IncorrectForkNumber", "fork number 1 should be 0"],
    ]);
    assert.deepEqual(forkChainStepProblems(block(14_400, 0, 5), block(14_399, 0, 0)), [
      ["InvalidForkVotes", "fork votes 5 at fork epoch start 14400 must be 0 or 1000"],
    ]);
    assert.equal(
      forkVoteCountProblem(block(14_301, 0, 700), block(14_300, 0, 1000), [block(14_300, 0, 0)]),
      "fork votes 700 must be the mean 500 of the parent's and adjacent parents' votes",
    );
  });
});
