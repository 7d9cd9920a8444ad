/**
 * Validation of a new block header against its parent and adjacent parents (chainweb-node's
 * BlockHeader/Validation.hs, plus the braiding rule Chainweb enforces when it extends a cut).
 * The caller looks the parents up; this module only judges. Every failure is reported, each
 * with its own kind and a message naming the values involved.
 */
import { encodeBase64Url } from "../../crypto/index.ts";
import { equalBytes } from "../bytes.ts";
import {
  expectedEpochStart,
  expectedTarget,
  expectedWeight,
  UnsupportedRulesError,
} from "../difficulty/difficulty.ts";
import { forkChainStepProblems, forkVoteCountProblem } from "../difficulty/fork-state.ts";
import { adjacentChains, hasChain } from "../graph/graph.ts";
import { genesisHeader, genesisParentHash, isGenesisHeader } from "../header/genesis.ts";
import { computeBlockHash, computePowHash, meetsTarget } from "../header/hash.ts";
import type { BlockHeader } from "../header/types.ts";
import {
  allChainIds,
  type ChainwebVersion,
  genesisHeight,
  graphForHeader,
} from "../version/version.ts";
import { word256Hex } from "../word256.ts";

/**
 * How far ahead of the validating node's clock a block's creation time may be, in µs. chainweb-node
 * allows nothing beyond its clock (src/Chainweb/BlockHeader/Validation.hs, `BlockInTheFuture`; the
 * clock is read at each validation, by Sync/WebBlockHeaderStore.hs and WebBlockHeaderDB.hs, for
 * peers' headers and mined ones alike), and its clock reads microseconds. A Braid node's clock
 * reads whole milliseconds (`Date.now`), so it lags the true time by up to 999 µs: exactly that is
 * allowed, so a block made a moment ago (its creation time taken from a finer clock, or a step of
 * 1 µs past its parent's) is not refused for a reading rounded down.
 */
export const BLOCK_TIME_ALLOWANCE_MICROS = 999;

export type FailureKind =
  | "WrongVersion"
  | "UnknownChain"
  | "IncorrectHash"
  | "IncorrectPow"
  | "BlockInTheFuture"
  | "AdjacentChainMismatch"
  | "IncorrectGenesis"
  | "IncorrectGenesisParent"
  | "MissingParent"
  | "ParentMismatch"
  | "IncorrectHeight"
  | "VersionMismatch"
  | "ChainMismatch"
  | "CreatedBeforeParent"
  | "IncorrectWeight"
  | "MissingAdjacentParent"
  | "AdjacentParentMismatch"
  | "InvalidAdjacentVersion"
  | "CreatedBeforeAdjacentParent"
  | "InvalidBraiding"
  | "IncorrectTarget"
  | "IncorrectEpoch"
  | "InvalidForkVotes"
  | "IncorrectForkNumber"
  | "UnsupportedRules";

export interface ValidationFailure {
  readonly kind: FailureKind;
  readonly message: string;
}

export type ValidationResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly failures: readonly ValidationFailure[] };

export interface HeaderValidationInput {
  readonly version: ChainwebVersion;
  readonly header: BlockHeader;
  /** The header's parent, or undefined when it is not known. */
  readonly parent: BlockHeader | undefined;
  /** The known headers the header's adjacent hashes point to, by chain id. */
  readonly adjacentParents: ReadonlyMap<number, BlockHeader>;
  /**
   * The validating node's clock in µs; when given, a block created more than
   * {@link BLOCK_TIME_ALLOWANCE_MICROS} after it is refused (`BlockInTheFuture`).
   */
  readonly now?: number;
  /**
   * The caller computed the header's `hash` from these very fields (a block the node made with
   * `makeBlockHeader`), so it is not computed again: the Merkle hash is most of a validation's
   * cost, and a sixth of an empty block's.
   */
  readonly hashComputedHere?: boolean;
  /**
   * Check the proof of work even where the version's cheats turn it off: a development network
   * of pow miners, whose blocks from peers must carry their work.
   */
  readonly powRequired?: boolean;
}

const b64 = encodeBase64Url;

export function validateHeader(input: HeaderValidationInput): ValidationResult {
  const failures: ValidationFailure[] = [];
  const fail = (kind: FailureKind, message: string) => failures.push({ kind, message });
  checkIntrinsic(input, fail);
  const { version, header } = input;
  if (failures.some((f) => f.kind === "UnknownChain")) return { ok: false, failures };
  if (isGenesisHeader(version, header)) {
    checkGenesis(version, header, fail);
  } else {
    checkInductive(input, fail);
  }
  return failures.length === 0 ? { ok: true } : { ok: false, failures };
}

type Fail = (kind: FailureKind, message: string) => void;

/** Checks that need nothing but the header itself. */
function checkIntrinsic(
  { version, header, now, hashComputedHere, powRequired }: HeaderValidationInput,
  fail: Fail,
): void {
  if (header.versionCode !== version.code) {
    fail(
      "WrongVersion",
      `header has version code ${hex32(header.versionCode)}; this network is ${version.name} (${hex32(version.code)})`,
    );
  }
  if (!allChainIds(version).includes(header.chainId)) {
    fail("UnknownChain", `chain ${header.chainId} does not exist in ${version.name}`);
    return;
  }
  if (header.height < genesisHeight(version, header.chainId)) {
    fail(
      "UnknownChain",
      `chain ${header.chainId} starts at height ${genesisHeight(version, header.chainId)}; the header is at ${header.height}`,
    );
    return;
  }
  if (hashComputedHere !== true) {
    const computed = computeBlockHash(header);
    if (!equalBytes(computed, header.hash)) {
      fail("IncorrectHash", `header hash ${b64(header.hash)} should be ${b64(computed)}`);
    }
  }
  const isGenesis = isGenesisHeader(version, header);
  if (!isGenesis && (powRequired === true || !version.cheats.disablePow)) {
    const pow = computePowHash(header);
    if (!meetsTarget(pow, header.target)) {
      fail(
        "IncorrectPow",
        `PoW hash ${Buffer.from(pow).reverse().toString("hex")} exceeds target ${word256Hex(header.target)}`,
      );
    }
  }
  if (now !== undefined && header.creationTime > now + BLOCK_TIME_ALLOWANCE_MICROS) {
    // The message names no reading of the clock: the same block is refused in the same words.
    fail(
      "BlockInTheFuture",
      `creation time ${header.creationTime} µs is ahead of this node's clock by more than ${BLOCK_TIME_ALLOWANCE_MICROS} µs`,
    );
  }
  const graph = graphForHeader(version, header.chainId, header.height);
  const expected = hasChain(graph, header.chainId) ? adjacentChains(graph, header.chainId) : [];
  if (
    expected.length !== header.adjacents.size ||
    !expected.every((chain) => header.adjacents.has(chain))
  ) {
    const actual = [...header.adjacents.keys()].sort((a, b) => a - b);
    fail(
      "AdjacentChainMismatch",
      `adjacent chains ${actual.join(", ")} should be ${expected.join(", ")} (the ${graph.name} graph)`,
    );
  }
  if (!isGenesis && equalBytes(header.parent, genesisParentHash(version, header.chainId))) {
    fail(
      "IncorrectGenesisParent",
      `header at height ${header.height} names the genesis parent hash of chain ${header.chainId} as its parent`,
    );
  }
}

function checkGenesis(version: ChainwebVersion, header: BlockHeader, fail: Fail): void {
  const genesis = genesisHeader(version, header.chainId);
  if (!equalBytes(computeBlockHash(header), genesis.hash)) {
    fail(
      "IncorrectGenesis",
      `header at genesis height ${header.height} of chain ${header.chainId} is not the genesis block ${b64(genesis.hash)}`,
    );
  }
}

/** Checks against the parent, then against the adjacent parents. */
function checkInductive(input: HeaderValidationInput, fail: Fail): void {
  const { version, header, parent } = input;
  if (parent === undefined) {
    fail("MissingParent", `parent ${b64(header.parent)} of chain ${header.chainId} is not known`);
  } else if (!equalBytes(parent.hash, header.parent)) {
    fail(
      "ParentMismatch",
      `the given parent ${b64(parent.hash)} is not the header's parent ${b64(header.parent)}`,
    );
    return;
  } else {
    checkChainStep(version, header, parent, fail);
  }
  const adjacents = adjacentParentsOf(input, fail);
  if (parent === undefined || adjacents === undefined) return;
  checkWebStep(version, header, parent, adjacents, fail);
}

function checkChainStep(
  version: ChainwebVersion,
  header: BlockHeader,
  parent: BlockHeader,
  fail: Fail,
): void {
  if (header.height !== parent.height + 1) {
    fail("IncorrectHeight", `height ${header.height} should be ${parent.height + 1}`);
  }
  if (header.versionCode !== parent.versionCode) {
    fail(
      "VersionMismatch",
      `version code ${hex32(header.versionCode)} differs from the parent's ${hex32(parent.versionCode)}`,
    );
  }
  if (header.chainId !== parent.chainId) {
    fail(
      "ChainMismatch",
      `chain ${header.chainId} differs from the parent's chain ${parent.chainId}`,
    );
  }
  if (header.creationTime <= parent.creationTime) {
    fail(
      "CreatedBeforeParent",
      `creation time ${header.creationTime} is not after the parent's ${parent.creationTime}`,
    );
  }
  if (header.target <= 0n) {
    fail("IncorrectWeight", "a target of 0 gives no weight");
  } else {
    const weight = expectedWeight(parent.weight, header.target);
    if (header.weight !== weight) {
      fail("IncorrectWeight", `weight ${header.weight} should be ${weight}`);
    }
  }
  if (header.height >= version.ruleHeights.featureFlagValidation) {
    for (const [kind, message] of forkChainStepProblems(header, parent)) fail(kind, message);
  }
}

/** The adjacent parents in chain order, or undefined when any is missing or wrong. */
function adjacentParentsOf(input: HeaderValidationInput, fail: Fail): BlockHeader[] | undefined {
  const { header, adjacentParents } = input;
  const found: BlockHeader[] = [];
  let complete = true;
  for (const [chain, hash] of [...header.adjacents].sort((a, b) => a[0] - b[0])) {
    const a = adjacentParents.get(chain);
    if (a === undefined) {
      fail("MissingAdjacentParent", `adjacent parent ${b64(hash)} on chain ${chain} is not known`);
      complete = false;
    } else if (!equalBytes(a.hash, hash) || a.chainId !== chain) {
      fail(
        "AdjacentParentMismatch",
        `the adjacent parent given for chain ${chain} is ${b64(a.hash)} on chain ${a.chainId}; the header names ${b64(hash)}`,
      );
      complete = false;
    } else {
      found.push(a);
    }
  }
  return complete ? found : undefined;
}

function checkWebStep(
  version: ChainwebVersion,
  header: BlockHeader,
  parent: BlockHeader,
  adjacents: readonly BlockHeader[],
  fail: Fail,
): void {
  const current = header.height >= version.ruleHeights.currentDifficultyAdjustment;
  for (const a of adjacents) {
    if (a.versionCode !== header.versionCode) {
      fail(
        "InvalidAdjacentVersion",
        `adjacent parent on chain ${a.chainId} has version code ${hex32(a.versionCode)}, not ${hex32(header.versionCode)}`,
      );
    }
    if (current && header.creationTime <= a.creationTime) {
      fail(
        "CreatedBeforeAdjacentParent",
        `creation time ${header.creationTime} is not after the adjacent parent's ${a.creationTime} on chain ${a.chainId}`,
      );
    }
    checkBraid(version, parent, a, fail);
  }
  try {
    const target = expectedTarget(version, parent, adjacents);
    if (header.target !== target) {
      fail(
        "IncorrectTarget",
        `target ${word256Hex(header.target)} should be ${word256Hex(target)}`,
      );
    }
    const epochStart = expectedEpochStart(version, parent);
    if (header.epochStart !== epochStart) {
      fail("IncorrectEpoch", `epoch start ${header.epochStart} should be ${epochStart}`);
    }
    if (header.epochStart > header.creationTime) {
      fail(
        "IncorrectEpoch",
        `epoch start ${header.epochStart} is after the creation time ${header.creationTime}`,
      );
    }
  } catch (e) {
    if (!(e instanceof UnsupportedRulesError)) throw e;
    fail("UnsupportedRules", e.message);
  }
  if (header.height >= version.ruleHeights.featureFlagValidation) {
    const problem = forkVoteCountProblem(header, parent, adjacents);
    if (problem !== undefined) fail("InvalidForkVotes", problem);
  }
}

/**
 * The braid between the parent P (chain c) and an adjacent parent A (chain a): A is at P's
 * height, and where both are ordinary blocks that reference each other's chain, each one's
 * reference to the other chain is the other's parent (P.adjacents[a] = A.parent and
 * A.adjacents[c] = P.parent). Genesis blocks are exempt: a chain that joins the graph late
 * starts from genesis parent hashes, not from its neighbours' blocks.
 */
function checkBraid(version: ChainwebVersion, parent: BlockHeader, a: BlockHeader, fail: Fail) {
  if (a.height !== parent.height) {
    fail(
      "InvalidBraiding",
      `adjacent parent on chain ${a.chainId} is at height ${a.height}, the parent at ${parent.height}`,
    );
    return;
  }
  if (isGenesisHeader(version, parent) || isGenesisHeader(version, a)) return;
  const parentToA = parent.adjacents.get(a.chainId);
  if (parentToA !== undefined && !equalBytes(parentToA, a.parent)) {
    fail(
      "InvalidBraiding",
      `the parent's adjacent on chain ${a.chainId} (${b64(parentToA)}) is not the adjacent parent's parent ${b64(a.parent)}`,
    );
  }
  const aToParent = a.adjacents.get(parent.chainId);
  if (aToParent !== undefined && !equalBytes(aToParent, parent.parent)) {
    fail(
      "InvalidBraiding",
      `the adjacent parent on chain ${a.chainId} references ${b64(aToParent)} on chain ${parent.chainId}, not the parent's parent ${b64(parent.parent)}`,
    );
  }
}

function hex32(code: number): string {
  return `0x${code.toString(16).padStart(8, "0")}`;
}
