import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../../crypto/index.ts";
import { expectedWeight } from "../difficulty/difficulty.ts";
import { makeForkState } from "../difficulty/fork-state.ts";
import { genesisHeader, genesisParentHash } from "../header/genesis.ts";
import { computeBlockHash, computePowHash, meetsTarget } from "../header/hash.ts";
import type { BlockHeader } from "../header/types.ts";
import { type ChainwebHistory, makeChainwebHistory } from "../test-support/chainweb-history.ts";
import { Random } from "../test-support/random.ts";
import { TRANSITION_TEST_VERSION } from "../test-support/test-versions.ts";
import { DEVELOPMENT } from "../version/known-versions.ts";
import type { ChainwebVersion } from "../version/version.ts";
import {
  BLOCK_TIME_ALLOWANCE_MICROS,
  type HeaderValidationInput,
  validateHeader,
} from "./validate.ts";

const b64 = encodeBase64Url;
const rehash = (h: BlockHeader): BlockHeader => ({ ...h, hash: computeBlockHash(h) });

function inputFor(history: ChainwebHistory, header: BlockHeader): HeaderValidationInput {
  const adjacentParents = new Map<number, BlockHeader>();
  for (const [chain, hash] of header.adjacents) {
    const found = history.lookup(chain, hash);
    if (found !== undefined) adjacentParents.set(chain, found);
  }
  return {
    version: history.version,
    header,
    parent: history.lookup(header.chainId, header.parent),
    adjacentParents,
  };
}

function kinds(input: HeaderValidationInput): string[] {
  const result = validateHeader(input);
  return result.ok ? [] : result.failures.map((f) => f.kind);
}

function messages(input: HeaderValidationInput): string[] {
  const result = validateHeader(input);
  return result.ok ? [] : result.failures.map((f) => f.message);
}

describe("valid histories", () => {
  for (const [version, blocks] of [
    [DEVELOPMENT, 500],
    [TRANSITION_TEST_VERSION, 500],
  ] as [ChainwebVersion, number][]) {
    it(`accepts every header of a generated ${version.name} history`, () => {
      const history = makeChainwebHistory(new Random(17), version, blocks);
      for (const header of history.headers) {
        assert.deepEqual(validateHeader(inputFor(history, header)), { ok: true });
      }
    });
  }
  it("accepts the mainnet-style graph change at height 6 and the new chains' first blocks", () => {
    const history = makeChainwebHistory(new Random(17), TRANSITION_TEST_VERSION, 500);
    assert.equal(history.chains[10]![0]!.height, 6);
    assert.ok(history.chains[10]!.length > 5);
    assert.deepEqual([...history.at(0, 7)!.adjacents.keys()], [5, 10, 15]);
    assert.deepEqual([...history.at(0, 6)!.adjacents.keys()], [2, 3, 5]);
  });
});

describe("each validation failure", () => {
  const history = makeChainwebHistory(new Random(23), DEVELOPMENT, 400);
  // A block well inside the history: parent and adjacent parents are ordinary blocks.
  const header = history.at(0, 10)!;
  const base = inputFor(history, header);
  const parent = base.parent!;
  const adjacent5 = base.adjacentParents.get(5)!;
  const withHeader = (h: BlockHeader) => ({ ...base, header: rehash(h) });
  const withAdjacent = (chain: number, a: BlockHeader) => ({
    ...base,
    adjacentParents: new Map([...base.adjacentParents, [chain, a]]),
  });

  it("starts from a valid header", () => {
    assert.deepEqual(kinds(base), []);
  });
  it("IncorrectHash", () => {
    const bad = { ...header, hash: new Uint8Array(32) };
    assert.deepEqual(messages({ ...base, header: bad }), [
      `header hash AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA should be ${b64(header.hash)}`,
    ]);
  });
  it("does not compute the hash again when the caller computed it (every other check holds)", () => {
    const bad = { ...header, hash: new Uint8Array(32) };
    assert.deepEqual(kinds({ ...base, header: bad, hashComputedHere: true }), []);
    const late = { ...bad, height: header.height + 1 };
    assert.deepEqual(kinds({ ...base, header: late, hashComputedHere: true }), ["IncorrectHeight"]);
  });
  it("WrongVersion", () => {
    const input = withHeader({ ...header, versionCode: 5 });
    assert.deepEqual(kinds(input), [
      "WrongVersion",
      "VersionMismatch",
      "InvalidAdjacentVersion",
      "InvalidAdjacentVersion",
      "InvalidAdjacentVersion",
    ]);
    assert.equal(
      messages(input)[0],
      "header has version code 0x00000005; this network is development (0x00000002)",
    );
  });
  it("UnknownChain", () => {
    assert.deepEqual(messages(withHeader({ ...header, chainId: 25 })), [
      "chain 25 does not exist in development",
    ]);
  });
  it("BlockInTheFuture: accepted exactly at the allowance ahead of the clock, refused 1 µs beyond", () => {
    const atAllowance = header.creationTime - BLOCK_TIME_ALLOWANCE_MICROS;
    assert.equal(BLOCK_TIME_ALLOWANCE_MICROS, 999);
    assert.deepEqual(kinds({ ...base, now: atAllowance }), []);
    assert.deepEqual(messages({ ...base, now: atAllowance - 1 }), [
      `creation time ${header.creationTime} µs is ahead of this node's clock by more than 999 µs`,
    ]);
    assert.deepEqual(kinds({ ...base, now: header.creationTime + 86_400_000_000 }), []);
  });
  it("AdjacentChainMismatch", () => {
    const adjacents = new Map(header.adjacents);
    adjacents.set(6, adjacents.get(5)!);
    adjacents.delete(5);
    const input = withHeader({ ...header, adjacents });
    assert.deepEqual(kinds({ ...input, adjacentParents: new Map() }).slice(0, 1), [
      "AdjacentChainMismatch",
    ]);
    assert.equal(
      messages(input)[0],
      "adjacent chains 6, 10, 15 should be 5, 10, 15 (the twenty graph)",
    );
  });
  it("IncorrectGenesis", () => {
    const genesis = genesisHeader(DEVELOPMENT, 4);
    const bad = rehash({ ...genesis, nonce: 1n });
    assert.deepEqual(messages({ ...base, header: bad, parent: undefined }), [
      `header at genesis height 0 of chain 4 is not the genesis block ${b64(genesis.hash)}`,
    ]);
    assert.deepEqual(kinds({ ...base, header: genesis, parent: undefined }), []);
  });
  it("IncorrectGenesisParent", () => {
    const input = withHeader({ ...header, parent: genesisParentHash(DEVELOPMENT, 0) });
    assert.deepEqual(kinds({ ...input, parent: undefined }), [
      "IncorrectGenesisParent",
      "MissingParent",
    ]);
  });
  it("MissingParent", () => {
    assert.deepEqual(messages({ ...base, parent: undefined }), [
      `parent ${b64(header.parent)} of chain 0 is not known`,
    ]);
  });
  it("ParentMismatch", () => {
    const other = history.at(0, 8)!;
    assert.deepEqual(messages({ ...base, parent: other }), [
      `the given parent ${b64(other.hash)} is not the header's parent ${b64(header.parent)}`,
    ]);
  });
  it("IncorrectHeight", () => {
    assert.deepEqual(messages(withHeader({ ...header, height: 11 })), ["height 11 should be 10"]);
  });
  it("VersionMismatch", () => {
    assert.deepEqual(kinds({ ...base, parent: { ...parent, versionCode: 7 } }), [
      "VersionMismatch",
    ]);
  });
  it("ChainMismatch", () => {
    assert.deepEqual(messages({ ...base, parent: { ...parent, chainId: 1 } }), [
      "chain 0 differs from the parent's chain 1",
    ]);
  });
  it("CreatedBeforeParent", () => {
    const input = withHeader({ ...header, creationTime: parent.creationTime });
    assert.equal(kinds(input)[0], "CreatedBeforeParent");
    assert.equal(
      messages(input)[0],
      `creation time ${parent.creationTime} is not after the parent's ${parent.creationTime}`,
    );
  });
  it("CreatedBeforeAdjacentParent", () => {
    const latest = Math.max(...[...base.adjacentParents.values()].map((a) => a.creationTime));
    const input = withHeader({
      ...header,
      creationTime: Math.max(latest, parent.creationTime + 1),
    });
    const expected = [...base.adjacentParents.values()].filter(
      (a) => a.creationTime >= Math.max(latest, parent.creationTime + 1),
    );
    assert.ok(expected.length > 0);
    assert.deepEqual(
      kinds(input),
      expected.map(() => "CreatedBeforeAdjacentParent"),
    );
  });
  it("IncorrectWeight", () => {
    assert.deepEqual(messages(withHeader({ ...header, weight: header.weight + 1n })), [
      `weight ${header.weight + 1n} should be ${header.weight}`,
    ]);
  });
  it("IncorrectTarget", () => {
    const target = header.target - 1n;
    const input = withHeader({ ...header, target, weight: expectedWeight(parent.weight, target) });
    assert.deepEqual(kinds(input), ["IncorrectTarget"]);
  });
  it("IncorrectEpoch", () => {
    assert.deepEqual(messages(withHeader({ ...header, epochStart: header.epochStart + 1 })), [
      `epoch start ${header.epochStart + 1} should be ${header.epochStart}`,
    ]);
    const late = header.creationTime + 1;
    assert.deepEqual(kinds(withHeader({ ...header, epochStart: late })), [
      "IncorrectEpoch",
      "IncorrectEpoch",
    ]);
  });
  it("MissingAdjacentParent", () => {
    const adjacentParents = new Map(base.adjacentParents);
    adjacentParents.delete(15);
    assert.deepEqual(messages({ ...base, adjacentParents }), [
      `adjacent parent ${b64(header.adjacents.get(15)!)} on chain 15 is not known`,
    ]);
  });
  it("AdjacentParentMismatch", () => {
    const wrong = history.at(5, 8)!;
    assert.deepEqual(messages(withAdjacent(5, wrong)), [
      `the adjacent parent given for chain 5 is ${b64(wrong.hash)} on chain 5; the header names ${b64(adjacent5.hash)}`,
    ]);
  });
  it("InvalidAdjacentVersion", () => {
    assert.deepEqual(kinds(withAdjacent(5, { ...adjacent5, versionCode: 5 })), [
      "InvalidAdjacentVersion",
    ]);
  });
  it("InvalidBraiding: an adjacent parent at another height", () => {
    assert.deepEqual(messages(withAdjacent(5, { ...adjacent5, height: 8 })), [
      "adjacent parent on chain 5 is at height 8, the parent at 9",
    ]);
  });
  it("InvalidBraiding: adjacent references that do not meet", () => {
    const bent = {
      ...adjacent5,
      parent: new Uint8Array(32),
      adjacents: new Map(adjacent5.adjacents),
    };
    bent.adjacents.set(0, new Uint8Array(32).fill(1));
    assert.deepEqual(messages(withAdjacent(5, bent)), [
      `the parent's adjacent on chain 5 (${b64(parent.adjacents.get(5)!)}) is not the adjacent parent's parent AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      `the adjacent parent on chain 5 references AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE on chain 0, not the parent's parent ${b64(parent.parent)}`,
    ]);
  });
  it("InvalidForkVotes and IncorrectForkNumber", () => {
    assert.deepEqual(messages(withHeader({ ...header, featureFlags: makeForkState(1, 5000) })), [
      "fork votes 5000 must equal the parent's 0 or add 1000",
      "fork number 1 should be 0",
    ]);
  });
  it("UnsupportedRules", () => {
    const version = {
      ...DEVELOPMENT,
      ruleHeights: { currentDifficultyAdjustment: 100, featureFlagValidation: 0 },
    };
    assert.deepEqual(messages({ ...base, version }), [
      "difficulty rules of development below height 100 are not implemented (block height 10)",
    ]);
  });
  it("reports several failures together", () => {
    const input = withHeader({ ...header, height: 12, weight: 1n, epochStart: 1 });
    assert.deepEqual(kinds({ ...input, now: 0 }), [
      "BlockInTheFuture",
      "IncorrectHeight",
      "IncorrectWeight",
      "IncorrectEpoch",
    ]);
  });
});

describe("proof of work", () => {
  const history = makeChainwebHistory(new Random(5), TRANSITION_TEST_VERSION, 60);
  const header = history.headers.at(-1)!;
  it("IncorrectPow when the nonce misses the target", () => {
    let bad = header;
    for (let nonce = 0n; ; nonce++) {
      bad = rehash({ ...header, nonce });
      if (!meetsTarget(computePowHash(bad), bad.target)) break;
    }
    const input = { ...inputFor(history, header), header: bad };
    assert.deepEqual(kinds(input), ["IncorrectPow"]);
    assert.match(messages(input)[0]!, /^PoW hash [0-9a-f]{64} exceeds target [0-9a-f]{64}$/);
  });
  it("is not checked when the version disables it", () => {
    const input = inputFor(history, header);
    const unmined = rehash({ ...header, nonce: header.nonce + 1n });
    const version = {
      ...TRANSITION_TEST_VERSION,
      cheats: { disablePow: true, fakeFirstEpochStart: false },
    };
    assert.deepEqual(kinds({ ...input, header: unmined, version }), []);
  });
});
