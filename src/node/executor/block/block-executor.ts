/**
 * Executing the contents of one block against a chain's contract state, Chainweb's way: the
 * coinbase pays the miner first; then each command buys its gas from the sender, runs, and has
 * its unused gas redeemed (the fee goes to the miner). Every step is a Pact transaction of its
 * own, so a failing command keeps its gas purchase and fee. The result is the block's payload
 * contents: transactions with their outputs, the miner data and the coinbase output.
 *
 * The caller opens the block on the state (`beginBlock`) and commits or aborts it; this module
 * neither stores nor mines anything.
 */
import type { ParsedCommand, PublicMeta } from "../../../command/index.ts";
import { encodeBase64Url } from "../../../crypto/index.ts";
import {
  type BlockContext,
  boundsWithTimeLimit,
  COMMAND_BOUNDS,
  type CommandOutcome,
  commandTimeoutMessage,
  encodeCommandResultAround,
  executeCommand,
  FREE_GAS,
  gasMeterFor,
  gasUsed,
  timedOut,
  type VerifierPlugins,
} from "../../../execution/index.ts";
import { hashTxLogs, type PactDb, type TxLogEntry } from "../../../pact/db/index.ts";
import {
  type ContinuationVerifier,
  type GasProfiler,
  MILLIGAS_PER_GAS,
  type SpvVerifier,
} from "../../../pact/index.ts";
import { type Decimal, JsonNumber, jsonString, PactTime } from "../../../pact/values/index.ts";
import { SYSTEM_RULES, TRANSACTION_RULES } from "../../execution-rules.ts";
import {
  buyGasCall,
  type CoinCall,
  coinbaseCall,
  redeemGasCall,
} from "../../genesis/coin-calls.ts";
import { gasPrice } from "../../mempool/admission.ts";
import type { MinerAccount } from "../../options.ts";
import { BUY_GAS_LIMIT, commandGasLimit, gasAmount, sizeGas } from "./gas-fees.ts";
import { gasPayerOf, withGasPayerData } from "./gas-payer.ts";
import { callData, coinAmount, grantedCaps, systemCall } from "./system-calls.ts";
import {
  PURCHASE_CHARGE,
  SIZE_CHARGE,
  settleProfile,
  topLevelName,
} from "./transaction-profile.ts";

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/** Where a block's commands run: what `chain-data` reports and who is paid. */
export interface BlockEnvironment {
  readonly networkId: string;
  readonly chainId: number;
  /** The parent block's hash, height and creation time (µs) define the commands' chain data. */
  readonly parentHash: Uint8Array;
  readonly parentHeight: number;
  readonly parentTime: number;
  readonly miner: MinerAccount;
  /** The reward of the coinbase. */
  readonly reward: Decimal;
  readonly blockGasLimit: number;
  /** Verifies cross-chain continuation proofs against the parent's branch (spv.ts). */
  readonly continuationVerifier?: ContinuationVerifier | null;
  /** Verifies `verify-spv` proofs against the parent's branch (spv.ts). */
  readonly spvVerifier?: SpvVerifier | null;
  /** The verifier plugins the network enables for this block; none unless given. */
  readonly verifierPlugins?: VerifierPlugins;
}

/** A command as it went into the block: its bytes, its output's bytes, and its result. */
export interface ExecutedCommand {
  readonly command: ParsedCommand;
  readonly transaction: Uint8Array;
  readonly output: Uint8Array;
  /** Where in `output` the `null` of `metaData` starts (the node puts block data there). */
  readonly metaOffset: number;
  readonly outcome: CommandOutcome;
}

export interface ExecutedBlock {
  readonly minerData: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly commands: readonly ExecutedCommand[];
  /** Commands left out of the block (their gas could not be bought), with the reason. */
  readonly rejected: readonly {
    readonly command: ParsedCommand;
    readonly reason: string;
  }[];
}

/** The chain data commands of the block see: height parent + 1, the parent's time and hash. */
export function blockContextOf(env: BlockEnvironment): BlockContext {
  return {
    height: BigInt(env.parentHeight + 1),
    time: new PactTime(BigInt(env.parentTime)),
    prevBlockHash: encodeBase64Url(env.parentHash),
  };
}

export function minerDataBytes(miner: MinerAccount): Uint8Array {
  const keys = miner.publicKeys.map(jsonString).join(",");
  return utf8.encode(
    `{"account":${jsonString(miner.account)},"predicate":"keys-all","public-keys":[${keys}]}`,
  );
}

/**
 * The miner a payload's miner data names (the inverse of {@link minerDataBytes}), or null when it
 * is not a `keys-all` miner of ED25519 keys, the only kind Braid pays.
 */
export function minerOfData(bytes: Uint8Array): MinerAccount | null {
  let data: unknown;
  try {
    data = JSON.parse(utf8Decoder.decode(bytes));
  } catch {
    return null;
  }
  if (typeof data !== "object" || data === null) return null;
  const { account, predicate, "public-keys": keys } = data as Record<string, unknown>;
  if (typeof account !== "string" || predicate !== "keys-all" || !Array.isArray(keys)) return null;
  if (!keys.every((k) => typeof k === "string")) return null;
  return { account, publicKeys: keys as string[] };
}

/** A command as a payload transaction: `{"hash","sigs","cmd"}` with the `cmd` text as received. */
export function transactionBytes(command: ParsedCommand): Uint8Array {
  return utf8.encode(transactionText(command));
}

/** The text of {@link transactionBytes} (also a mempool `lookup`'s `contents`). */
export function transactionText(command: ParsedCommand): string {
  const sigs = command.sigs.map((s) => `{"sig":${s === null ? "null" : jsonString(s)}}`).join(",");
  return `{"hash":${jsonString(command.hash)},"sigs":[${sigs}],"cmd":${jsonString(command.cmd)}}`;
}

/**
 * A command of a block being made ran past its time limit. Its gas purchase is already written
 * to the block's state, so the caller aborts the block and makes it again without the command
 * (as Chainweb leaves out a new block's command that times out).
 */
export class CommandTimedOut extends Error {
  override readonly name = "CommandTimedOut";
  constructor(
    readonly command: ParsedCommand,
    timeLimitMs: number,
  ) {
    super(commandTimeoutMessage(timeLimitMs));
  }
}

/**
 * Makes a block of `commands` with `make`, made again without each command that runs past its
 * time limit (its gas purchase is written on the state `make` used, so that state is given up:
 * `make` starts from a fresh one each time), those listed in `rejected` with the time-out's
 * message, as Chainweb leaves out a new block's command that times out.
 */
export function leavingOutTimedOut<T extends { readonly rejected: ExecutedBlock["rejected"] }>(
  commands: readonly ParsedCommand[],
  make: (commands: readonly ParsedCommand[]) => T,
): T {
  const timedOut: { command: ParsedCommand; reason: string }[] = [];
  let included = commands;
  for (;;) {
    try {
      const block = make(included);
      return timedOut.length === 0
        ? block
        : { ...block, rejected: [...block.rejected, ...timedOut] };
    } catch (e) {
      if (!(e instanceof CommandTimedOut)) throw e;
      timedOut.push({ command: e.command, reason: e.message });
      included = included.filter((c) => c !== e.command);
    }
  }
}

/**
 * How long a block this node makes keeps taking commands: once its commands have run this long,
 * the rest wait in the mempool for the next block, and the node answers others in between. With
 * the time limit of one command, a block runs at most about this plus that limit.
 */
export const BLOCK_TIME_BUDGET_MS = 50;

/** The time limits of a block this node makes (milliseconds). */
export interface BlockTimeLimits {
  /** One command's (`commandTimeLimit`): a command that runs longer is left out. */
  readonly commandMs: number;
  /** The block's ({@link BLOCK_TIME_BUDGET_MS} on a node): once its commands have run this long. */
  readonly blockMs: number;
}

/**
 * Runs the coinbase and `commands` on `db`, whose block is open. A command whose gas cannot be
 * bought is left out and listed in `rejected` (its writes undone). With `limits` (a block this
 * node makes), a command that runs longer than `commandMs` throws {@link CommandTimedOut}, and
 * once the commands have run `blockMs` the rest are not taken (neither executed nor rejected:
 * they stay in the mempool).
 */
export function executeBlock(
  db: PactDb,
  env: BlockEnvironment,
  commands: readonly ParsedCommand[],
  limits: BlockTimeLimits | null = null,
): ExecutedBlock {
  const block = blockContextOf(env);
  const coinbase = runCoinbase(db, env, block);
  const executed: ExecutedCommand[] = [];
  const rejected: { command: ParsedCommand; reason: string }[] = [];
  let gasLeft = env.blockGasLimit;
  // Only a block being made is timed: a replay or an import runs every command it holds.
  const budgetEnds = limits === null ? null : performance.now() + limits.blockMs;
  for (const command of commands) {
    if (budgetEnds !== null && performance.now() >= budgetEnds) break;
    const run = runCommand(db, env, block, command, gasLeft, limits?.commandMs ?? null);
    if (run.kind === "rejected") {
      rejected.push({ command, reason: run.reason });
      continue;
    }
    gasLeft -= run.outcome.gas;
    const [head, tail] = encodeCommandResultAround(run.outcome);
    const headBytes = utf8.encode(head);
    executed.push({
      command,
      transaction: transactionBytes(command),
      output: utf8.encode(`${head}null${tail}`),
      metaOffset: headBytes.length,
      outcome: run.outcome,
    });
  }
  return {
    minerData: minerDataBytes(env.miner),
    coinbase,
    commands: executed,
    rejected,
  };
}

/**
 * The coinbase's request key: the UTF-8 bytes of the parent hash's base64url text, base64url
 * encoded again (as Chainweb derives it).
 */
export function coinbaseRequestKey(parentHash: Uint8Array): string {
  return encodeBase64Url(utf8.encode(encodeBase64Url(parentHash)));
}

function runCoinbase(db: PactDb, env: BlockEnvironment, block: BlockContext) {
  const reqKey = coinbaseRequestKey(env.parentHash);
  const call = coinbaseCall(env.miner.account, minerGuard(env.miner), coinAmount(env.reward));
  const outcome = executeCommand(systemCommand(env, reqKey, call), {
    db,
    mode: "transactional",
    block,
    gas: FREE_GAS,
    ...SYSTEM_RULES,
    grantedCaps: grantedCaps(call.grants),
  });
  if (outcome.result.status !== "success") {
    throw new Error(`the coinbase failed: ${outcome.result.error.message}`);
  }
  const [head, tail] = encodeCommandResultAround(outcome);
  return utf8.encode(`${head}null${tail}`);
}

/** A network without verifier plugins: any verifier a command names fails it. */
export const NO_VERIFIER_PLUGINS: VerifierPlugins = new Map();

/** What a command of the block (or a `local` call on its parent) verifies proofs with. */
export function verifiersOf(env: BlockEnvironment) {
  return {
    continuationVerifier: env.continuationVerifier ?? null,
    spvVerifier: env.spvVerifier ?? null,
    verifierPlugins: env.verifierPlugins ?? NO_VERIFIER_PLUGINS,
  };
}

export type CommandRun =
  | { readonly kind: "included"; readonly outcome: CommandOutcome }
  | { readonly kind: "rejected"; readonly reason: string };

/**
 * One command's way through a block: size gas, gas purchase, the command, gas redemption.
 * `rejected` when its gas cannot be bought (nothing of it is kept then). A private command buys
 * no gas but is metered the same way: its gas (at most its limit, all of it when it fails) counts
 * against `gasLeft` as a public command's does. With `timeLimitMs`, a command that runs longer
 * throws {@link CommandTimedOut} (its gas purchase stays written). With `profiler`, every
 * milligas of the command's gas is told to it: its size and gas purchase, its code's charges
 * (in a `top-level` frame), and what settles the rest of its `gas` (transaction-profile.ts).
 */
export function runCommand(
  db: PactDb,
  env: BlockEnvironment,
  block: BlockContext,
  command: ParsedCommand,
  gasLeft: number,
  timeLimitMs: number | null = null,
  profiler: GasProfiler | null = null,
): CommandRun {
  const meta = command.payload.meta;
  const limit = Math.min(commandGasLimit(meta, env.blockGasLimit), gasLeft);
  const bounds = timeLimitMs === null ? COMMAND_BOUNDS : boundsWithTimeLimit(timeLimitMs);
  /** The command itself, metered from `usedMilligas` up to `limit`; with the gas it used. */
  const run = (usedMilligas: number) => {
    const meter = gasMeterFor({ kind: "metered", limit, perAction: null }, undefined, bounds);
    meter.setUsed(usedMilligas);
    profiler?.enter("top-level", topLevelName(command));
    const ran = executeCommand(command, {
      db,
      mode: "transactional",
      block,
      gas: FREE_GAS,
      meter,
      ...TRANSACTION_RULES,
      ...verifiersOf(env),
      ...(profiler === null ? {} : { profiler }),
    });
    profiler?.exit();
    if (timeLimitMs !== null && timedOut(meter)) throw new CommandTimedOut(command, timeLimitMs);
    const used = ran.result.status === "success" ? Math.min(gasUsed(meter), limit) : limit;
    if (profiler !== null) settleProfile(profiler, used, ran.result.status === "success");
    return { ran, used };
  };
  if (meta.kind !== "public") {
    // A private command (the `private` endpoint) buys no gas; its size is charged all the same.
    const initial = sizeGas(utf8.encode(command.cmd).length);
    if (initial > limit) return { kind: "rejected", reason: tooBigForGasLimit(command) };
    profiler?.add("charge", SIZE_CHARGE, initial * MILLIGAS_PER_GAS);
    const { ran, used } = run(initial * MILLIGAS_PER_GAS);
    return { kind: "included", outcome: { ...ran, gas: used } };
  }
  const price = gasPrice(meta);
  const total = gasAmount(limit, price);
  const purchase = buyGas(db, block, command, limit, "transactional");
  if (purchase.kind === "rejected") return purchase;
  const { initial, buy, buyMeter } = purchase;
  profiler?.add("charge", SIZE_CHARGE, initial * MILLIGAS_PER_GAS);
  profiler?.add("charge", PURCHASE_CHARGE, buyMeter.used());
  const { ran, used } = run(initial * MILLIGAS_PER_GAS + buyMeter.used());

  const redeemCall = redeemGasCall(
    env.miner.account,
    minerGuard(env.miner),
    meta.sender,
    coinAmount(total),
    coinAmount(gasAmount(used, price)),
  );
  const redeem = executeCommand(systemCall(command, redeemCall), {
    db,
    mode: "transactional",
    block,
    gas: FREE_GAS,
    ...SYSTEM_RULES,
    grantedCaps: grantedCaps(redeemCall.grants),
  });
  if (redeem.result.status !== "success") {
    throw new Error(`redeeming gas of ${command.hash} failed: ${redeem.result.error.message}`);
  }
  const txLogs: TxLogEntry[] = [...buy.txLogs, ...ran.txLogs, ...redeem.txLogs];
  return {
    kind: "included",
    outcome: {
      ...ran,
      gas: used,
      events: [...buy.events, ...ran.events, ...redeem.events],
      logs: encodeBase64Url(hashTxLogs(txLogs)),
      txLogs,
    },
  };
}

/**
 * Buys the command's gas for `limit` (its size charge first), in a transaction of its own: kept
 * in `transactional` mode, discarded in `local` mode (the mempool's check). A signer's
 * `GAS_PAYER` capability is acquired around the purchase (gas-payer.ts). A refusal's reason is
 * Chainweb's text, after the quoted request key.
 */
export function buyGas(
  db: PactDb,
  block: BlockContext,
  command: ParsedCommand,
  limit: number,
  mode: "transactional" | "local",
) {
  const meta = command.payload.meta as PublicMeta;
  const refused = (reason: string) => ({
    kind: "rejected" as const,
    reason: `${jsonString(command.hash)} ${reason}`,
  });
  const proof = command.payload.payload.kind === "cont" ? command.payload.payload.proof : null;
  const initial = sizeGas(utf8.encode(command.cmd).length - (proof?.length ?? 0));
  if (initial > limit) return { kind: "rejected" as const, reason: tooBigForGasLimit(command) };
  const payer = gasPayerOf(command);
  if (payer.kind === "several")
    return refused("Failed to buy gas: Multiple gas payer capabilities");
  const total = gasAmount(limit, gasPrice(meta));
  // coin's `buy-gas` refuses it in these words; the node's call cannot carry a negative amount.
  if (total.sign() < 0) return refused("Failed to buy gas: gas supply must be a positive quantity");
  const buyMeter = gasMeterFor({
    kind: "metered",
    limit: BUY_GAS_LIMIT,
    perAction: null,
  });
  const call = buyGasCall(meta.sender, coinAmount(total));
  const purchase = systemCall(command, call, true);
  const buy = executeCommand(payer.kind === "one" ? seenByPayer(purchase, command) : purchase, {
    db,
    mode,
    block,
    gas: FREE_GAS,
    meter: buyMeter,
    ...SYSTEM_RULES,
    grantedCaps: grantedCaps(call.grants),
    ...(payer.kind === "one" ? { acquiredCap: payer.cap } : {}),
  });
  if (buy.result.status !== "success") {
    return refused(`Failed to buy gas: ${buy.result.error.message}`);
  }
  return { kind: "bought" as const, initial, buy, buyMeter };
}

/** Chainweb's refusal of a command whose size costs more than its gas limit (its spelling kept). */
function tooBigForGasLimit(command: ParsedCommand): string {
  return `${jsonString(command.hash)} Failed to purchas gas: tx too big for gas limit`;
}

/** `purchase` with the message data a gas payer sees about `command`. */
function seenByPayer(purchase: ParsedCommand, command: ParsedCommand): ParsedCommand {
  const message = purchase.payload.payload;
  if (message.kind !== "exec") return purchase;
  const data = withGasPayerData(message.data, command);
  return {
    ...purchase,
    payload: { ...purchase.payload, payload: { ...message, data } },
  };
}

/** The miner's guard as the coin calls take it: a `keys-all` keyset of its keys. */
function minerGuard(miner: MinerAccount) {
  return { keys: [...miner.publicKeys], pred: "keys-all" };
}

/** A command the node runs itself: no signers, no gas, the block's chain. */
function systemCommand(env: BlockEnvironment, hash: string, call: CoinCall): ParsedCommand {
  return {
    cmd: "",
    hash,
    hashBytes: new Uint8Array(32),
    hashAlgorithm: "blake2b",
    sigs: [],
    payload: {
      payload: { kind: "exec", code: call.code, data: callData(call) },
      meta: {
        kind: "public",
        creationTime: 0,
        ttl: 0,
        gasLimit: 0,
        chainId: String(env.chainId),
        gasPrice: new JsonNumber("0"),
        sender: "",
      },
      signers: [],
      verifiers: null,
      networkId: env.networkId,
      nonce: "",
    },
  };
}
