/**
 * What the chain database indexes of a block's commands besides their request keys: the coin
 * transfers each command's result reports (`coin.TRANSFER` events, so an account's recent
 * transfers are one index range away), and the `cont` commands with the defpact they continue
 * (so a cross-chain transfer's first step finds the step that finished it).
 *
 * Transactions are stored as opaque bytes; a transaction or output that is not the JSON of a
 * command or a command result (a test's made-up payload) simply has nothing to index.
 */
import type { PayloadWithOutputs } from "../payload/payload.ts";

/** One side of a coin transfer: `account` sent (`sender` = account) or received it. */
export interface TransferEntry {
  readonly account: string;
  /** The command's request key (base64url). */
  readonly requestKey: string;
  /** Index of the command in the payload. */
  readonly position: number;
  /** Index of the event among the command's events. */
  readonly event: number;
  readonly sender: string;
  readonly receiver: string;
  /** The amount as the event's JSON (a number or `{"decimal":"…"}`). */
  readonly amount: string;
}

/** A `cont` command and the defpact it continues. */
export interface ContinuationEntry {
  /** The defpact's id: the request key (base64url) of the command that started it. */
  readonly pactId: string;
  /** The `cont` command's own request key. */
  readonly requestKey: string;
  readonly position: number;
  readonly step: number;
}

export interface BlockActivity {
  readonly transfers: readonly TransferEntry[];
  readonly continuations: readonly ContinuationEntry[];
}

/** Longest request key or pact id indexed (a request key has 43 base64url characters). */
const MAX_KEY_LENGTH = 64;

/**
 * Longest account name indexed: coin accounts are at most 256 characters; a longer string in a
 * made-up event is not an account and is left out.
 */
export const MAX_INDEXED_ACCOUNT_LENGTH = 256;

const utf8 = new TextDecoder();

function parseObject(bytes: Uint8Array | string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(typeof bytes === "string" ? bytes : utf8.decode(bytes));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function isAccount(value: unknown): value is string {
  return typeof value === "string" && value.length <= MAX_INDEXED_ACCOUNT_LENGTH;
}

function isKey(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_KEY_LENGTH;
}

/** The `coin.TRANSFER` events of one command result, each once per non-empty account. */
function transfersOf(output: Uint8Array, position: number): TransferEntry[] {
  const result = parseObject(output);
  const requestKey = result?.reqKey;
  const events = result?.events;
  if (!isKey(requestKey) || !Array.isArray(events)) return [];
  const found: TransferEntry[] = [];
  events.forEach((event: unknown, index) => {
    const e = event as { name?: unknown; module?: { name?: unknown; namespace?: unknown } };
    if (e?.name !== "TRANSFER" || e.module?.name !== "coin" || e.module.namespace != null) return;
    const params = (event as { params?: unknown }).params;
    if (!Array.isArray(params) || params.length !== 3) return;
    const [sender, receiver, amount] = params as unknown[];
    if (!isAccount(sender) || !isAccount(receiver)) return;
    const entry = {
      requestKey,
      position,
      event: index,
      sender,
      receiver,
      amount: JSON.stringify(amount),
    };
    for (const account of new Set([sender, receiver])) {
      if (account !== "") found.push({ account, ...entry });
    }
  });
  return found;
}

/** The defpact a `cont` command continues, when the transaction is one. */
function continuationOf(transaction: Uint8Array, position: number): ContinuationEntry[] {
  const command = parseObject(transaction);
  const cmd = command?.cmd;
  if (typeof cmd !== "string" || !isKey(command?.hash)) return [];
  const cont = (parseObject(cmd)?.payload as { cont?: { pactId?: unknown; step?: unknown } })?.cont;
  if (!isKey(cont?.pactId) || !Number.isSafeInteger(cont.step)) return [];
  return [{ pactId: cont.pactId, requestKey: command.hash, position, step: cont.step as number }];
}

/** The transfers and continuations of a block's commands (the coinbase is left out). */
export function blockActivity(payload: PayloadWithOutputs): BlockActivity {
  const transfers: TransferEntry[] = [];
  const continuations: ContinuationEntry[] = [];
  payload.transactions.forEach(({ transaction, output }, position) => {
    transfers.push(...transfersOf(output, position));
    continuations.push(...continuationOf(transaction, position));
  });
  return { transfers, continuations };
}
