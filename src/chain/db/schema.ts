/**
 * The SQLite schema of a chain database: one file per node, all chains in it.
 *
 * `block_headers` keeps every header ever inserted (forks and orphans included) as its
 * 318-byte binary form plus the columns the queries need:
 * - `(chain, height, hash)`: the order of the block listing (ascending height, then hash bytes;
 *   SQLite compares blobs bytewise, like Chainweb's RocksDB keys of big-endian height ‖ hash);
 * - `parent` and the skip pointer `(skip_hash, skip_height)`: ancestry walks (skip-height.ts);
 *   `skip_hash` is NULL exactly for a chain's genesis header;
 * - `weight` as 32 big-endian bytes, so bytewise order is numeric order: the best head.
 *
 * `payloads` keeps each PayloadWithOutputs once, by payload hash, in Chainweb's binary
 * encoding (u64 big-endian length prefixes), since identical payloads recur across blocks. Its
 * integer `id` follows the order of insertion, and a header names its payload by it
 * (`payload_id`, since version 3): reading the blocks of a page then visits payload rows stored
 * near each other, where a lookup by payload hash would visit a random place of the file for
 * each block (at 2 million blocks, 6 ms against 0.8 ms for a page of 100).
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
 * Bumped whenever the schema changes. A file of an older version that {@link SCHEMA_UPGRADES}
 * can bring up to date is upgraded on open; any other version is refused.
 */
export const SCHEMA_VERSION = 3;

/** The versions an existing file may have that opening upgrades to {@link SCHEMA_VERSION}. */
export const SCHEMA_UPGRADES: readonly number[] = [2];

/**
 * Version 2 → 3, the shape of the tables (before any statement is prepared): payloads get an
 * integer id (their rowid until now), which every header then names. Idempotent.
 */
export const PAYLOAD_ID_UPGRADE_SQL = `
CREATE TABLE payloads_v3 (
  id INTEGER PRIMARY KEY,
  payload_hash BLOB NOT NULL UNIQUE,
  bytes BLOB NOT NULL
);
INSERT INTO payloads_v3 (id, payload_hash, bytes)
  SELECT rowid, payload_hash, bytes FROM payloads ORDER BY rowid;
DROP TABLE payloads;
ALTER TABLE payloads_v3 RENAME TO payloads;
ALTER TABLE block_headers ADD COLUMN payload_id INTEGER NOT NULL DEFAULT 0;
UPDATE block_headers
  SET payload_id = (SELECT id FROM payloads WHERE payloads.payload_hash = block_headers.payload_hash);
`;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS block_headers (
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
  bytes BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS block_headers_by_height ON block_headers (chain, height, hash);
CREATE INDEX IF NOT EXISTS block_headers_by_parent ON block_headers (parent);
CREATE INDEX IF NOT EXISTS block_headers_by_weight
  ON block_headers (chain, weight DESC, height DESC, hash);

CREATE TABLE IF NOT EXISTS payloads (
  id INTEGER PRIMARY KEY,
  payload_hash BLOB NOT NULL UNIQUE,
  bytes BLOB NOT NULL
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
