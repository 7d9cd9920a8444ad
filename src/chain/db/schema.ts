/**
 * The SQLite schema of a chain database: one file per node, all chains in it.
 *
 * `block_headers` keeps every header ever inserted (forks and orphans included) as its
 * 318-byte binary form plus the columns the queries need:
 * - `(chain, height, hash)`: the order of the block listing (ascending height, then hash bytes;
 *   SQLite compares blobs bytewise, like Chainweb's RocksDB keys of big-endian height ‖ hash);
 * - `parent` and the skip pointer `(skip_hash, skip_height)`: ancestry walks (skip-height.ts);
 *   `skip_hash` is NULL exactly for a chain's genesis header; children are found by chain and
 *   height, so there is no index by parent (opening drops the one older files have);
 * - `weight` as 32 big-endian bytes, so bytewise order is numeric order: the best head.
 *
 * `payloads` keeps each PayloadWithOutputs once, by payload hash, since identical payloads recur
 * across blocks, and a header names its payload by its integer id (`payload_id`, since version
 * 3). The bytes (Chainweb's binary encoding, u64 big-endian length prefixes) are in the payload
 * log of the chain that stored them first (payload-log.ts): the row names its `chain`,
 * `log_offset` and `log_length` (since version 4), and the CRC-32 of those bytes, `log_crc`
 * (since version 5), checked on every read so corrupted bytes are never served. Rows written
 * before version 4 have the log columns NULL and the bytes in `bytes`; later rows have an empty
 * `bytes`. Log rows written by version 4 have no `log_crc`: their bytes are checked against the
 * payload's own hashes instead. The ids of both tables put a
 * chain's consecutive heights next to each other (row-ids.ts), so a page of blocks walks along
 * the rows instead of looking each one up.
 *
 * `transactions` indexes request keys to the blocks holding them (one row per block, forks
 * included), with the command's position in the payload and where its stored result leaves
 * room for block data (`meta_offset`, a byte offset into the output).
 *
 * `transfers` (since version 3) holds one row per account and `coin.TRANSFER` event of a
 * command result (activity.ts), keyed so an account's most recent transfers are the start of
 * an index range; `continuations` (since version 3) maps a defpact's id to the `cont`
 * commands that continued it. Both include forks, like `transactions`.
 *
 * `abandoned_blocks` lists blocks a development revert left behind: they stay stored and listed,
 * but are never again a chain's best head, nor is any block built on them. `snapshots` holds the
 * development snapshots: each the head hashes of every chain, in chain order. Both tables are
 * additive (a file written before them simply has none).
 */

/**
 * Bumped whenever the schema changes. A file of an older version that the upgrade steps
 * (migrations/, one file per version) can bring up to date is upgraded on open; any other
 * version is refused.
 */
export const SCHEMA_VERSION = 5;

/** The columns of `block_headers` (the upgrade to version 3 builds the table anew). */
export const BLOCK_HEADERS_COLUMNS = `
  id INTEGER PRIMARY KEY,
  hash BLOB NOT NULL UNIQUE,
  chain INTEGER NOT NULL,
  height INTEGER NOT NULL,
  parent BLOB NOT NULL,
  weight BLOB NOT NULL,
  payload_hash BLOB NOT NULL,
  payload_id INTEGER NOT NULL,
  skip_hash BLOB,
  skip_height INTEGER,
  bytes BLOB NOT NULL`;

/** The columns of `payloads` that version 4 added: where its bytes are in a payload log. */
export const PAYLOAD_LOG_COLUMNS = ["chain INTEGER", "log_offset INTEGER", "log_length INTEGER"];

/** The column of `payloads` that version 5 added: the CRC-32 of its bytes in the log. */
export const PAYLOAD_CRC_COLUMN = "log_crc INTEGER";

/** The columns of `payloads`. */
export const PAYLOADS_COLUMNS = `
  id INTEGER PRIMARY KEY,
  payload_hash BLOB NOT NULL UNIQUE,
  bytes BLOB NOT NULL,
  ${[...PAYLOAD_LOG_COLUMNS, PAYLOAD_CRC_COLUMN].join(",\n  ")}`;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS block_headers (${BLOCK_HEADERS_COLUMNS}
);
CREATE INDEX IF NOT EXISTS block_headers_by_height ON block_headers (chain, height, hash);
DROP INDEX IF EXISTS block_headers_by_parent;
CREATE INDEX IF NOT EXISTS block_headers_by_weight
  ON block_headers (chain, weight DESC, height DESC, hash);

CREATE TABLE IF NOT EXISTS payloads (${PAYLOADS_COLUMNS}
);

CREATE TABLE IF NOT EXISTS transactions (
  request_key BLOB NOT NULL,
  block_hash BLOB NOT NULL,
  position INTEGER NOT NULL,
  meta_offset INTEGER NOT NULL,
  PRIMARY KEY (request_key, block_hash)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS transfers (
  account TEXT NOT NULL,
  height INTEGER NOT NULL,
  block_hash BLOB NOT NULL,
  position INTEGER NOT NULL,
  event INTEGER NOT NULL,
  chain INTEGER NOT NULL,
  request_key TEXT NOT NULL,
  sender TEXT NOT NULL,
  receiver TEXT NOT NULL,
  amount TEXT NOT NULL,
  PRIMARY KEY (account, height, block_hash, position, event)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS continuations (
  pact_id TEXT NOT NULL,
  block_hash BLOB NOT NULL,
  position INTEGER NOT NULL,
  chain INTEGER NOT NULL,
  step INTEGER NOT NULL,
  request_key TEXT NOT NULL,
  PRIMARY KEY (pact_id, block_hash, position)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS abandoned_blocks (
  hash BLOB PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  heads BLOB NOT NULL
);
`;
