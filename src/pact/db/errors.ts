/**
 * Storage errors. The Pact ones (Pact's `DbOpError`) carry both of Pact's texts: `message` is
 * the REPL's (Pretty) text, `onChainMessage` the text command results carry on chain
 * (`dbOpErrorToBoundedText`). Natives prefix either with "Error during database operation: ".
 * The other codes are misuse of the block API by the node and never reach a contract.
 */

export type DbErrorCode =
  // Pact's DbOpError
  | "row-exists"
  | "row-missing"
  | "no-such-table"
  | "table-exists"
  | "tx-already-begun"
  | "not-in-tx"
  | "decode-failure"
  // block API misuse
  | "block-sequence"
  | "no-such-block";

/** Row keys in on-chain messages are cut to this many characters (then "..."). */
export const ON_CHAIN_KEY_CHARS = 10;

export class DbError extends Error {
  override readonly name = "DbError";
  constructor(
    readonly code: DbErrorCode,
    message: string,
    readonly onChainMessage: string = message,
  ) {
    super(message);
  }
}

/** Pact's `abbrevText`: the first `limit` code points, then "...". */
function abbreviate(text: string, limit: number): string {
  const points = Array.from(text);
  return points.length <= limit ? text : `${points.slice(0, limit).join("")}...`;
}

export function rowExistsError(table: string, key: string): DbError {
  return new DbError(
    "row-exists",
    `Value already found while in Insert mode in table ${table} at key "${key}"`,
    `Insert failed because the value already exists in the table: ${table} at key "${abbreviate(key, ON_CHAIN_KEY_CHARS)}"`,
  );
}

export function rowMissingError(table: string, key: string): DbError {
  return new DbError(
    "row-missing",
    `No row found during update in table ${table} at key ${key}`,
    `Update failed because no row was found in table: ${table} at key "${abbreviate(key, ON_CHAIN_KEY_CHARS)}"`,
  );
}

export function noSuchTableError(table: string): DbError {
  return new DbError(
    "no-such-table",
    `Table ${table} not found`,
    `Table access failed because table ${table} was not found.`,
  );
}

export function tableExistsError(table: string): DbError {
  return new DbError(
    "table-exists",
    `Table ${table} already exists`,
    `Creation of user table ${table} failed because the table already exists.`,
  );
}

export function txAlreadyBegunError(txId: number): DbError {
  return new DbError(
    "tx-already-begun",
    `Attempted to begin tx "TxId ${txId}", but a tx already has been initiated`,
    "Starting a new transaction failed because a transaction has already been initiated.",
  );
}

export function notInTxError(op: "commit" | "rollback"): DbError {
  return new DbError(
    "not-in-tx",
    `No Transaction currently in progress, cannot execute "${op}"`,
    `Cannot execute ${op} because no transaction is currently in progress.`,
  );
}

/** A stored value that does not decode as what its domain holds. */
export function decodeFailureError(key: string): DbError {
  return new DbError(
    "decode-failure",
    `Failed to deserialize but found value at key:${key}`,
    `Deserialization failed for the value at key: ${abbreviate(key, ON_CHAIN_KEY_CHARS)}`,
  );
}

export function blockSequenceError(message: string): DbError {
  return new DbError("block-sequence", message);
}

export function noSuchBlockError(height: number): DbError {
  return new DbError("no-such-block", `no state is recorded for block height ${height}`);
}
