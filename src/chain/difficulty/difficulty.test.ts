import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { genesisHeader } from "../header/genesis.ts";
import type { BlockHeader } from "../header/types.ts";
import { DEVELOPMENT, MAINNET01 } from "../version/known-versions.ts";
import { MAX_WORD256 } from "../word256.ts";
import {
  adjustTarget,
  effectiveWindow,
  expectedEpochStart,
  expectedTarget,
  expectedWeight,
  isLastInEpoch,
  NO_POW_MIN_TARGET,
  targetToDifficulty,
  UnsupportedRulesError,
} from "./difficulty.ts";

const SECOND = 1_000_000;
const EPOCH_12 = 12 * 30 * SECOND; // the early development epoch: 12 blocks of 30 s

/** The development network's rules with proof of work on (its targets have no floor). */
const DEVELOPMENT_WITH_POW = {
  ...DEVELOPMENT,
  cheats: { ...DEVELOPMENT.cheats, disablePow: false },
};

/** A header with the fields difficulty reads; the rest comes from a development genesis. */
function at(height: number, fields: Partial<BlockHeader> = {}): BlockHeader {
  return { ...genesisHeader(DEVELOPMENT, 0), height, ...fields };
}

describe("epochs", () => {
  it("uses a tenth of the window up to the window's height", () => {
    assert.equal(effectiveWindow(DEVELOPMENT, 0), 12);
    assert.equal(effectiveWindow(DEVELOPMENT, 120), 12);
    assert.equal(effectiveWindow(DEVELOPMENT, 121), 120);
    assert.equal(effectiveWindow({ ...DEVELOPMENT, windowWidth: 5 }, 3), 1);
  });
  it("ends an epoch when the next height is a multiple of the window", () => {
    const last = [0, 10, 11, 12, 23, 119, 120, 121, 238, 239].filter((h) =>
      isLastInEpoch(DEVELOPMENT, h),
    );
    assert.deepEqual(last, [11, 23, 119, 239]);
  });
});

describe("target adjustment", () => {
  it("scales the target by actual over expected epoch time, rounding up", () => {
    assert.equal(adjustTarget(30 * SECOND, 12, EPOCH_12, 1000n), 1000n);
    assert.equal(adjustTarget(30 * SECOND, 12, 2 * EPOCH_12, 1000n), 2000n);
    assert.equal(adjustTarget(30 * SECOND, 12, EPOCH_12 / 3, 1000n), 334n);
    assert.equal(adjustTarget(30 * SECOND, 12, 1, 3n), 1n);
    assert.equal(adjustTarget(30 * SECOND, 12, 0, 3n), 0n);
  });
  it("wraps modulo 2^256 like chainweb-node's Word256 conversion", () => {
    assert.equal(adjustTarget(30 * SECOND, 12, 2 * EPOCH_12, MAX_WORD256), MAX_WORD256 - 1n);
  });
  it("keeps the parent's target inside an epoch", () => {
    const parent = at(5, { target: 777n });
    assert.equal(expectedTarget(DEVELOPMENT, parent, [at(5, { target: 1n })]), 777n);
  });
  it("averages the adjusted targets of the parent and adjacent parents at an epoch's end", () => {
    const t0 = 1_600_000_000 * SECOND;
    const block = (elapsed: number) =>
      at(11, { target: 1000n, epochStart: t0, creationTime: t0 + elapsed });
    const parent = block(EPOCH_12); // 1000
    const adjacents = [block(2 * EPOCH_12), block(EPOCH_12 / 2), block(EPOCH_12)]; // 2000, 500, 1000
    assert.equal(expectedTarget(DEVELOPMENT_WITH_POW, parent, adjacents), 1125n);
    assert.equal(expectedTarget(DEVELOPMENT_WITH_POW, parent, [block(EPOCH_12 + 1)]), 1000n);
  });
  it("never goes below 2^128 without proof of work, however fast blocks come", () => {
    const t0 = 1_600_000_000 * SECOND;
    const fast = at(11, { target: NO_POW_MIN_TARGET * 3n, epochStart: t0, creationTime: t0 + 12 });
    assert.equal(NO_POW_MIN_TARGET, 2n ** 128n);
    assert.equal(expectedTarget(DEVELOPMENT, fast, [fast]), NO_POW_MIN_TARGET);
    // With proof of work: ⌈3 · 2^128 · 12 µs / (12 × 30 s)⌉, far below the floor.
    const adjusted = (3n * 2n ** 128n * 12n + 359_999_999n) / 360_000_000n;
    assert.equal(expectedTarget(DEVELOPMENT_WITH_POW, fast, [fast]), adjusted);
    const slow = at(11, {
      target: NO_POW_MIN_TARGET * 3n,
      epochStart: t0,
      creationTime: t0 + EPOCH_12,
    });
    assert.equal(expectedTarget(DEVELOPMENT, slow, [slow]), NO_POW_MIN_TARGET * 3n);
  });
});

describe("epoch start", () => {
  const parent = (height: number) =>
    at(height, { creationTime: 5_000 * SECOND, epochStart: 1_000 * SECOND });
  it("starts development's first epoch at block 1", () => {
    assert.equal(expectedEpochStart(DEVELOPMENT, parent(1)), 5_000 * SECOND);
    assert.equal(
      expectedEpochStart(
        { ...DEVELOPMENT, cheats: { disablePow: true, fakeFirstEpochStart: false } },
        parent(1),
      ),
      1_000 * SECOND,
    );
  });
  it("starts a new epoch after an epoch's last block, else keeps the parent's", () => {
    assert.equal(expectedEpochStart(DEVELOPMENT, parent(11)), 5_000 * SECOND);
    assert.equal(expectedEpochStart(DEVELOPMENT, parent(12)), 1_000 * SECOND);
    assert.equal(expectedEpochStart(DEVELOPMENT, parent(0)), 1_000 * SECOND);
  });
  it("starts a chain that joins the graph late at its first block", () => {
    const first = { ...genesisHeader(MAINNET01, 10), height: 852_055, creationTime: 9 * SECOND };
    assert.equal(expectedEpochStart(MAINNET01, first), 9 * SECOND);
    assert.equal(expectedEpochStart(MAINNET01, { ...first, chainId: 0 }), first.epochStart);
  });
  it("refuses heights that ran older rules", () => {
    const old = { ...genesisHeader(MAINNET01, 0), height: 771_412 };
    assert.throws(
      () => expectedEpochStart(MAINNET01, old),
      (e: unknown) =>
        e instanceof UnsupportedRulesError &&
        e.message ===
          "difficulty rules of mainnet01 below height 771414 are not implemented (block height 771413)",
    );
    assert.equal(expectedTarget(MAINNET01, { ...old, height: 771_413 }, []), old.target);
  });
});

describe("weight", () => {
  it("adds the target's difficulty to the parent's weight", () => {
    assert.equal(targetToDifficulty(MAX_WORD256), 1n);
    assert.equal(targetToDifficulty(MAX_WORD256 / 100_000n), 100_000n);
    assert.equal(expectedWeight(7n, MAX_WORD256 / 100_000n), 100_007n);
    assert.equal(expectedWeight(MAX_WORD256, MAX_WORD256), 0n);
  });
  it("refuses a zero target", () => {
    assert.throws(() => targetToDifficulty(0n), /target 0 has no difficulty/);
  });
});
