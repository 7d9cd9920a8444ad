/**
 * `local`: one command run on a chain's latest state (or `rewindDepth` blocks back) with every
 * write discarded. Plain `local` runs the command alone, with its own gas limit and no gas
 * purchase (a dirty read). `preflight` first checks the command's metadata as a block would,
 * then simulates it fully — gas purchase, command, redemption — and reports its gas. Either runs
 * at most the node's time limit for one command, or is refused (400) as timed out.
 */

import type { ParentBlock } from "../../chain/header/types.ts";
import type { ParsedCommand, PublicMeta } from "../../command/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import {
  boundsWithTimeLimit,
  type CommandOutcome,
  commandTimeoutMessage,
  encodeCommandResult,
  executeCommand,
  FREE_GAS,
  gasMeterFor,
  timedOut,
} from "../../execution/index.ts";
import type { PactDb } from "../../pact/db/index.ts";
import { jsonString } from "../../pact/values/index.ts";
import { LOCAL_RULES } from "../execution-rules.ts";
import {
  type AdmissionRules,
  BLOCK_TIME_SLOP_SECONDS,
  gasLimitProblem,
  gasPrice,
  MAX_GAS_PRICE_DECIMALS,
  MAX_SIGNATURES,
  MAX_TTL_SECONDS,
  timeRefusalHint,
} from "../mempool/admission.ts";
import {
  type BlockEnvironment,
  blockContextOf,
  CommandTimedOut,
  runCommand,
  verifiersOf,
} from "./block/block-executor.ts";

/** A `local` call's options (its query parameters). */
export interface LocalOptions {
  /** Whether the command's signatures are checked (true unless told). */
  readonly verifySignatures?: boolean;
  readonly preflight: boolean;
  /** Blocks back from the head (0: the head), at most the head's height (back to genesis). */
  readonly rewindDepth: bigint;
}

/** A `local` call the node refuses before running anything (a 400 with this message). */
export class LocalRefusal extends Error {
  override readonly name = "LocalRefusal";
}

/** A `local` call the node cannot take now: too many wait already (a 503 with this message). */
export class LocalBusy extends Error {
  override readonly name = "LocalBusy";
}

/** The rules of the node's mempool a preflight checks a command's metadata by. */
export type LocalRules = Pick<AdmissionRules, "networkId" | "chainId" | "blockGasLimit">;

/** Where a `local` call runs: on top of `parent`, a block of the chain's current branch. */
export interface LocalSite {
  readonly parent: ParentBlock;
  /** The environment of a child of `parent`. */
  readonly env: BlockEnvironment;
  /** The state after `parent` for a plain `local`, whose writes are discarded. */
  readonly state: () => PactDb;
  /** A state after `parent` that keeps its writes to itself (preflight buys and redeems gas). */
  readonly scratch: () => PactDb;
}

/**
 * Where `local` with `rewindDepth` runs on a chain whose head is at `headHeight`: the height of
 * its parent block. Throws {@link LocalRefusal} for a depth past genesis.
 */
export function localHeight(chainId: number, headHeight: number, rewindDepth: bigint): number {
  if (rewindDepth > BigInt(headHeight)) {
    throw new LocalRefusal(
      `rewindDepth ${rewindDepth} is past genesis: chain ${chainId} is at height ${headHeight}`,
    );
  }
  return headHeight - Number(rewindDepth);
}

/** Runs `local` at `site` and returns the JSON text of its answer. */
export function runLocal(
  command: ParsedCommand,
  preflight: boolean,
  site: LocalSite,
  rules: LocalRules,
  /** The node's clock, in seconds since the UNIX epoch. */
  nowSeconds: number,
  /** How long the command may run. */
  timeLimitMs: number,
): string {
  const meta = command.payload.meta;
  if (meta.kind !== "public") {
    throw new LocalRefusal("Validation failed: local needs public metadata in cmd.meta");
  }
  const { parent, env } = site;
  const block = blockContextOf(env);
  const metaData = localMetaData(parent, meta);
  if (!preflight) {
    // Preflight refuses such a limit as a block would (its gas cannot be bought).
    const problem = gasLimitProblem(meta.gasLimit);
    if (problem !== null) throw new LocalRefusal(`Validation failed: ${problem}`);
    const db = site.state();
    const meter = gasMeterFor(
      { kind: "metered", limit: meta.gasLimit, perAction: null },
      undefined,
      boundsWithTimeLimit(timeLimitMs),
    );
    const outcome = executeCommand(command, {
      db,
      mode: "local",
      block,
      gas: FREE_GAS,
      meter,
      ...LOCAL_RULES,
      ...verifiersOf(env),
    });
    if (timedOut(meter)) throw new LocalRefusal(commandTimeoutMessage(timeLimitMs));
    return encodeCommandResult(asChainwebLocal(outcome, meta, db.txId), metaData);
  }
  const problems = preflightProblems(command, meta, rules, parent, nowSeconds);
  if (problems.length > 0) {
    const hint = problems.includes(TIME_OUTSIDE_RANGE) ? timeRefusalHint(meta, nowSeconds) : "";
    throw new LocalRefusal(
      `Metadata validation failed: [${problems.map((p) => jsonString(p)).join(",")}]${hint}`,
    );
  }
  const scratch = site.scratch();
  const run = simulated(() =>
    runCommand(scratch, env, block, command, rules.blockGasLimit, timeLimitMs),
  );
  // The spec's 400 for "an invalid gas payer" (chainweb-node answers a failure result instead).
  if (run.kind === "rejected") throw new LocalRefusal(run.reason);
  return `{"preflightResult":${encodeCommandResult(run.outcome, metaData)},"preflightWarnings":[]}`;
}

/** `run`'s result, a time-out refused as a `local` call is (the scratch state is dropped). */
function simulated<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof CommandTimedOut) throw new LocalRefusal(e.message);
    throw e;
  }
}

/**
 * A plain `local` result as chainweb-node reports it: a success carries the transaction id the
 * command would have had (the state's next), a failure its whole gas limit.
 */
function asChainwebLocal(outcome: CommandOutcome, meta: PublicMeta, txId: number): CommandOutcome {
  return outcome.result.status === "failure"
    ? { ...outcome, gas: meta.gasLimit }
    : { ...outcome, txId };
}

/**
 * `metaData` of a `local` result: the block the command ran in (height, the parent's time and
 * hash) and the command's public metadata, keys in aeson's (alphabetical) order.
 */
function localMetaData(parent: ParentBlock, meta: PublicMeta): string {
  const publicMeta = `{"chainId":${jsonString(meta.chainId)},"creationTime":${meta.creationTime},"gasLimit":${meta.gasLimit},"gasPrice":${meta.gasPrice.text},"sender":${jsonString(meta.sender)},"ttl":${meta.ttl}}`;
  return `{"blockHeight":${parent.height + 1},"blockTime":${parent.creationTime},"prevBlockHash":${jsonString(encodeBase64Url(parent.hash))},"publicMeta":${publicMeta}}`;
}

/** Preflight's words for a creation time or time to live it refuses (Chainweb's). */
const TIME_OUTSIDE_RANGE = "Tx time outside of valid range";

/** Chainweb's preflight metadata checks, each failure with its message. */
function preflightProblems(
  command: ParsedCommand,
  meta: PublicMeta,
  rules: LocalRules,
  parent: ParentBlock,
  nowSeconds: number,
): string[] {
  const problems: string[] = [];
  if (meta.chainId !== String(rules.chainId)) problems.push("Chain id mismatch");
  if (meta.gasLimit > rules.blockGasLimit) {
    problems.push("Transaction Gas limit exceeds block gas limit");
  }
  if (gasPrice(meta).places > MAX_GAS_PRICE_DECIMALS) {
    problems.push("Gas price decimal precision too high");
  }
  if (command.payload.networkId !== rules.networkId) problems.push("Network id mismatch");
  if (command.sigs.length > MAX_SIGNATURES) problems.push("Signature list size too big");
  const parentSeconds = parent.creationTime / 1_000_000;
  const inRange =
    meta.ttl > 0 &&
    meta.ttl <= MAX_TTL_SECONDS &&
    meta.creationTime >= 0 &&
    meta.creationTime + meta.ttl > parentSeconds &&
    meta.creationTime <= Math.max(parentSeconds, nowSeconds) + BLOCK_TIME_SLOP_SECONDS;
  if (!inRange) problems.push(TIME_OUTSIDE_RANGE);
  return problems;
}
