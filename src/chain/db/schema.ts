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
 * encoding (u64 big-endian length prefixes), since identical payloads recur across blocks.
 *
 * `transactions` indexes request keys to the blocks holding them (one row per block, forks
 * included), with the command's position in the payload and where its stored result leaves
 * room for block data (`meta_offset`, a byte offset into the output).
 *
 * `abandoned_blocks` lists blocks a development revert left behind: they stay stored and listed,
 * but are never again a chain's best head, nor is any block built on them. `snapshots` holds the
 * development snapshots: each the head hashes of every chain, in chain order. Both tables are
 * additive (a file written before them simply has none), so the schema version stays.
 */

/** Bumped whenever the schema changes; a file written with another version is refused. */
export const SCHEMA_VERSION = 2;

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
  skip_hash BLOB,
  skip_height INTEGER,
  bytes BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS block_headers_by_height ON block_headers (chain, height, hash);
CREATE INDEX IF NOT EXISTS block_headers_by_parent ON block_headers (parent);
CREATE INDEX IF NOT EXISTS block_headers_by_weight
  ON block_headers (chain, weight DESC, height DESC, hash);

CREATE TABLE IF NOT EXISTS payloads (
  payload_hash BLOB PRIMARY KEY,
  bytes BLOB NOT NULL
);

CREATE TABLE IF NOT EXISTS transactions (
  request_key BLOB NOT NULL,
  block_hash BLOB NOT NULL,
  position INTEGER NOT NULL,
  meta_offset INTEGER NOT NULL,
  PRIMARY KEY (request_key, block_hash)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS abandoned_blocks (
  hash BLOB PRIMARY KEY
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS snapshots (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  heads BLOB NOT NULL
);
`;
