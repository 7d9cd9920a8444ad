/**
 * The mempool's admission rules, in Chainweb's order (its `validateOne` and pre-insert checks),
 * each refusal with Chainweb's message: gas limit against the block gas limit, gas price
 * precision, gas price minimum, time to live, duplicates, chain id, signature count, network id.
 * The buy-gas check, which needs the contract state, comes last and is the caller's
 * (`Mempool.admit`). Pure: the clock and the duplicate lookup are passed in.
 */
import type { ParsedCommand, PrivateMeta, PublicMeta } from "../../command/index.ts";
import { Decimal, jsonNumberToDecimal, jsonString } from "../../pact/values/index.ts";
import { commandGasLimit, sizeGas } from "../executor/block/gas-fees.ts";

/** The most signatures one command may carry (Chainweb's `assertSigSize`). */
export const MAX_SIGNATURES = 100;
/** Gas prices are coin amounts: at most 12 decimal places (Chainweb's coin precision). */
export const MAX_GAS_PRICE_DECIMALS = 12;
/** How far in the future a creation time may be when a command arrives (Chainweb: 10 s). */
export const CREATION_TIME_GRACE_SECONDS = 10;

export interface AdmissionRules {
  readonly networkId: string;
  readonly chainId: number;
  readonly blockGasLimit: number;
  readonly minGasPrice: Decimal;
  /** The keys of this node's entity, lowercase hex: `private` admits what one of them signed. */
  readonly entityKeys: readonly string[];
}

/** What the rules ask of the node besides the command. */
export interface AdmissionContext {
  /** Seconds since the UNIX epoch (fractions allowed). */
  readonly now: number;
  /** Whether the request key is already in a block of the chain's current branch. */
  isOnChain(hash: string): boolean;
}

/**
 * The first rule the command breaks, as Chainweb's insert error text, or null. Private commands
 * are not for the mempool; they are refused with the chain's metadata message.
 */
export function admissionProblem(
  command: ParsedCommand,
  rules: AdmissionRules,
  context: AdmissionContext,
): string | null {
  const { payload } = command;
  const meta = payload.meta;
  if (meta.kind !== "public") {
    return "Transaction metadata (chain id, chainweb version) conflicts with this endpoint";
  }
  if (meta.gasLimit > rules.blockGasLimit) {
    return `Transaction gas limit exceeds block gas limit (${meta.gasLimit})`;
  }
  const price = gasPrice(meta);
  if (price.places > MAX_GAS_PRICE_DECIMALS) {
    return `insert error: This transaction's gas price: ${showDecimal(price)} is not correctly rounded. It should be rounded to at most ${MAX_GAS_PRICE_DECIMALS} decimal places.`;
  }
  if (price.compare(rules.minGasPrice) < 0) {
    return `Transaction gas price (${showDecimal(price)}) is below minimum gas price (${showDecimal(rules.minGasPrice)})`;
  }
  const ttlProblem = timeToLiveProblem(meta, context.now);
  if (ttlProblem !== null) return ttlProblem;
  if (context.isOnChain(command.hash)) return "Transaction already exists on chain";
  if (!/^(0|[1-9][0-9]*)$/.test(meta.chainId) || meta.chainId.length > 9) {
    return "insert error: Unparsable ChainId";
  }
  if (Number(meta.chainId) !== rules.chainId) {
    return "Transaction metadata (chain id, chainweb version) conflicts with this endpoint";
  }
  if (command.sigs.length > MAX_SIGNATURES) return "insert error: Too many signatures";
  if (payload.networkId !== rules.networkId) {
    return "Transaction metadata (chain id, chainweb version) conflicts with this endpoint";
  }
  return null;
}

/**
 * The rules for a private command (the `private` endpoint), Braid's own: Chainweb serves no
 * `private`. Only this node's entity may run code this way (its signature, checked before, on a
 * signer with one of `rules.entityKeys`); its gas limit (its own or the block's) holds its size
 * and no more than a block; then duplicates, the signature count and the network id as for `send`.
 */
export function privateAdmissionProblem(
  command: ParsedCommand,
  rules: AdmissionRules,
  context: AdmissionContext,
): string | null {
  if (rules.entityKeys.length === 0) {
    return "Private commands are turned off on this node (entityKeys is none)";
  }
  if (!signedByEntity(command, rules.entityKeys)) {
    return "Private commands must be signed by a key of this node's entity (entityKeys)";
  }
  const meta = command.payload.meta as PrivateMeta;
  if (meta.gasLimit !== undefined) {
    const problem = gasLimitProblem(meta.gasLimit);
    if (problem !== null) return problem;
    if (meta.gasLimit > rules.blockGasLimit) {
      return `Transaction gas limit exceeds block gas limit (${meta.gasLimit})`;
    }
  }
  const limit = commandGasLimit(meta, rules.blockGasLimit);
  const size = sizeGas(utf8.encode(command.cmd).length);
  if (size > limit) {
    return `Transaction too big for its gas limit: its size costs ${size} gas, its gas limit is ${limit}`;
  }
  if (context.isOnChain(command.hash)) return "Transaction already exists on chain";
  if (command.sigs.length > MAX_SIGNATURES) return "insert error: Too many signatures";
  if (command.payload.networkId !== rules.networkId) {
    return "Transaction metadata (chain id, chainweb version) conflicts with this endpoint";
  }
  return null;
}

/**
 * Why a gas limit cannot be run with, or null: it must be a positive integer (the parser checked
 * it is an integer). Chainweb's Pact 5 reads a negative limit as 0 and has no words for it.
 */
export function gasLimitProblem(gasLimit: number): string | null {
  return gasLimit >= 1 ? null : `Transaction gas limit must be a positive integer, got ${gasLimit}`;
}

/** Whether a signer of the command (whose signature was verified) holds one of `keys`. */
export function signedByEntity(command: ParsedCommand, keys: readonly string[]): boolean {
  return command.payload.signers.some(
    (s) => s.scheme !== "WebAuthn" && keys.includes(s.pubKey.toLowerCase()),
  );
}

const utf8 = new TextEncoder();

/** The arrival-time check of creation time and time to live (Chainweb's `txTTLCheck`). */
export function timeToLiveProblem(meta: PublicMeta, now: number): string | null {
  if (meta.ttl <= 0 || meta.ttl > MAX_TTL_SECONDS) {
    return `Transaction time-to-live must be from 1 to ${MAX_TTL_SECONDS} seconds, got ${meta.ttl}`;
  }
  const created = meta.creationTime;
  const expires = created + meta.ttl;
  if (!(created < now + CREATION_TIME_GRACE_SECONDS)) {
    return `Transaction creation time too far in the future${timeRefusalHint(meta, now)}`;
  }
  if (!(now < expires && created < expires)) {
    return `Transaction time-to-live is expired${timeRefusalHint(meta, now)}`;
  }
  return null;
}

/**
 * What a refusal of a command's times adds to Chainweb's words (kept first, for clients that
 * match them) so that it points to the fix: the command's creation time and time to live, the
 * node's time (moved by `braid dev time`), and how to set `creationTime`.
 */
export function timeRefusalHint(meta: PublicMeta, nowSeconds: number): string {
  return `: the command's creationTime is ${secondsText(meta.creationTime)} and its ttl ${meta.ttl} s, the node's time is ${secondsText(Math.floor(nowSeconds))}. Set meta.creationTime to the node's time: the time now (Math.floor(Date.now() / 1000)), or, once \`braid dev time\` has moved the node's clock, the time it printed`;
}

/** The most seconds a JavaScript date reaches either side of the epoch (ECMAScript's limit). */
const DATE_LIMIT_SECONDS = 8_640_000_000_000;

/** Seconds since the epoch, with the date and time they are when a date can show them. */
function secondsText(seconds: number): string {
  if (!(Math.abs(seconds) <= DATE_LIMIT_SECONDS)) return String(seconds);
  return `${seconds} (${new Date(seconds * 1000).toISOString().replace(".000Z", "Z")})`;
}

export function gasPrice(meta: PublicMeta): Decimal {
  return jsonNumberToDecimal(meta.gasPrice);
}

/**
 * How far a command's creation time may be after its block's parent's time (Chainweb's
 * `lenientTimeSlop`): 95 s.
 */
export const BLOCK_TIME_SLOP_SECONDS = 95;
/** The longest time to live (Chainweb's `maxTTL`): two days. */
export const MAX_TTL_SECONDS = 172_800;

/**
 * Whether a command may go into a block whose parent was made at `parentTimeMicros` (Chainweb's
 * in-block checks, in its order: `assertTxNotInFuture`, then `assertTxTimeRelativeToParent`):
 * `future` when it was created more than the slop after the parent, `expired` when its time to
 * live ended by then (or is not from 1 s to the longest, or its creation time is negative), null
 * when it may.
 */
export function blockTimeProblem(
  command: ParsedCommand,
  parentTimeMicros: number,
): "future" | "expired" | null {
  const meta = command.payload.meta;
  if (meta.kind !== "public") return null;
  const parentSeconds = parentTimeMicros / 1_000_000;
  const { creationTime, ttl } = meta;
  if (creationTime > parentSeconds + BLOCK_TIME_SLOP_SECONDS) return "future";
  const lives = ttl > 0 && ttl <= MAX_TTL_SECONDS && creationTime >= 0;
  if (!lives || creationTime + ttl <= parentSeconds) return "expired";
  return null;
}

/** A decimal as Haskell's `show` writes a `Decimal` (plain digits, no exponent). */
function showDecimal(d: Decimal): string {
  return d.toString();
}

/**
 * The message of a `send` batch with refused commands (Chainweb's `sendHandler`, which shows each
 * hash as a JSON string).
 */
export function batchRefusal(refusals: readonly { index: number; hash: string; reason: string }[]) {
  const parts = refusals.map(
    (r) => `Transaction ${jsonString(r.hash)} at index ${r.index} failed with: ${r.reason}`,
  );
  return `One or more transactions were invalid: ${parts.join(", ")}`;
}

export { Decimal };
