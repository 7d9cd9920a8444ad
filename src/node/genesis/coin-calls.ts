/**
 * The `coin` calls the node itself makes, as Pact code with message data and
 * the magic capabilities the node must grant: the miner's reward at the start
 * of every block, and gas bought before and redeemed after every command.
 *
 * As in the genesis transactions, the code is fixed text; account names,
 * guards and amounts travel in `data` (but for buy-gas's sender, as Chainweb's
 * term has it). Amounts are decimal strings with at
 * most 12 fraction digits (coin's precision), e.g. "2.304523" or "0.0001".
 */

/** A capability the node grants to its own `coin` calls without a signature. */
export type CoinGrant = "coin.COINBASE" | "coin.GAS";

/** A keyset as message data: `{ keys, pred }`. */
export interface KeysetData {
  readonly keys: readonly string[];
  readonly pred: string;
}

/** One system call of the node into `coin`. */
export interface CoinCall {
  readonly code: string;
  readonly data: Record<string, unknown>;
  readonly grants: readonly CoinGrant[];
}

/**
 * The development network's block reward per chain: the first row of Chainweb's miner reward
 * table (23.04523 KDA per block height) shared by the network's 20 chains.
 */
export const DEV_BLOCK_REWARD = "1.1522615";

const DECIMAL = /^(0|[1-9][0-9]*)\.[0-9]{1,12}$/;

function amount(what: string, text: string): string {
  if (!DECIMAL.test(text)) {
    throw new RangeError(
      `${what} must be a decimal with 1 to 12 fraction digits: ${JSON.stringify(text)}`,
    );
  }
  return text;
}

/** Pays `reward` to `miner` (created with `minerGuard` if new). Runs first in every block. */
export function coinbaseCall(miner: string, minerGuard: KeysetData, reward: string): CoinCall {
  return {
    code: '(coin.coinbase (read-msg "miner") (read-keyset "miner-guard") (read-decimal "reward"))',
    data: {
      miner,
      "miner-guard": minerGuard,
      reward: amount("reward", reward),
    },
    grants: ["coin.COINBASE"],
  };
}

/**
 * Takes `total` (gas limit × gas price) from `sender` before a command runs.
 * Runs with the command's signers; like Chainweb, the node must add the
 * capability `(coin.DEBIT sender)` to every signer that signed for `coin.GAS`
 * (unscoped signers need nothing added).
 */
export function buyGasCall(sender: string, total: string): CoinCall {
  const grants: CoinGrant[] = ["coin.GAS"];
  // The total is a decimal value, not text: `read-decimal` charges for parsing text (Pact's
  // `StrOpConvToInt`), and Chainweb's data holds a decimal.
  const data = { total: { decimal: amount("total", total) } };
  // Chainweb's buy-gas term names the sender as a string, not through `read-msg`, and its data
  // holds only the total (a gas payer reads it): the purchase's gas, which the command pays, is
  // Chainweb's only so. A sender with a carriage return has no literal and goes through data.
  const literal = pactStringLiteral(sender);
  if (literal === null) {
    return {
      code: '(coin.buy-gas (read-msg "sender") (read-decimal "total"))',
      data: { sender, ...data },
      grants,
    };
  }
  return { code: `(coin.buy-gas ${literal} (read-decimal "total"))`, data, grants };
}

/** `text` as a Pact string literal; null for text with a carriage return, which Pact cannot escape. */
export function pactStringLiteral(text: string): string | null {
  if (text.includes("\r")) return null;
  return `"${text.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\n/g, "\\n")}"`;
}

/**
 * After the command: pays `fee` (gas used × gas price) out of `total` to the
 * miner and refunds the rest to `sender`. Runs without signers.
 */
export function redeemGasCall(
  miner: string,
  minerGuard: KeysetData,
  sender: string,
  total: string,
  fee: string,
): CoinCall {
  return {
    code: '(coin.redeem-gas (read-msg "miner") (read-keyset "miner-guard") (read-msg "sender") (read-decimal "total"))',
    data: {
      miner,
      "miner-guard": minerGuard,
      sender,
      total: amount("total", total),
      fee: amount("fee", fee),
    },
    grants: ["coin.GAS"],
  };
}
