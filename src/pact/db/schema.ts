/**
 * The SQLite schema of contract state: one file per chain.
 *
 * All domains share one physical table of versions, keyed by a small integer domain id, so no
 * table or key name ever becomes part of an SQL statement:
 * - `domains`: one row per domain. Ids 1–4 are the system domains (`SYS:KeySets`,
 *   `SYS:Modules`, `SYS:Namespaces`, `SYS:Pacts`, created with tx id -1); every `create-table`
 *   adds a row with the user table's name (`<module>_<table>`), the creating transaction id and
 *   block height. A table exists before tx id bound B when its `txid` < B.
 * - `history`: every version of every value, `(domain, key, txid)` → `value`, also tagged with
 *   the block `height`. A second write of a key in one transaction replaces the first, so there
 *   is one version per key per transaction. The current value of a key is its version with the
 *   largest `txid`, and its value before bound B the one with the largest `txid` < B: either
 *   way one descending seek on the primary key (the fast path for reads). Listing keys and rows
 *   walks the domain's versions (`keys`/`select` are rare and gas-priced; Chainweb does the
 *   same). A separate table of current values was measured 30% slower per write: every write
 *   then changes pages of two B-trees at random places instead of one.
 * - `history_by_txid`: finds the versions written after a block, for rewinds.
 * - `blocks`: one row per committed block: its height, the first tx id after it (`end_txid`; the
 *   state after block h is the state before `end_txid` of h) and its hash.
 * - `meta`: `schema_version` and `next_txid` (the transaction counter, kept at each commit).
 *
 * Values are the JSON text of `codec.ts`. Keys compare with SQLite's BINARY collation, i.e. by
 * UTF-8 bytes, which is Unicode code-point order. A rewind to block h deletes the versions and
 * tables with tx ids from `end_txid` of h on, and the blocks above h.
 */

/** Bumped whenever the schema changes; a file written with another version is refused. */
export const STATE_SCHEMA_VERSION = 1;

/** Domain ids of the system domains (fixed, so they need no lookup). */
export const SYSTEM_DOMAIN_IDS: ReadonlyMap<string, number> = new Map([
  ["SYS:KeySets", 1],
  ["SYS:Modules", 2],
  ["SYS:Namespaces", 3],
  ["SYS:Pacts", 4],
]);

export const STATE_SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS domains (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  txid INTEGER NOT NULL,
  height INTEGER NOT NULL
);
INSERT OR IGNORE INTO domains (id, name, txid, height) VALUES
  (1, 'SYS:KeySets', -1, -1),
  (2, 'SYS:Modules', -1, -1),
  (3, 'SYS:Namespaces', -1, -1),
  (4, 'SYS:Pacts', -1, -1);

CREATE TABLE IF NOT EXISTS history (
  domain INTEGER NOT NULL,
  key TEXT NOT NULL,
  txid INTEGER NOT NULL,
  height INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (domain, key, txid)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS history_by_txid ON history (txid);

CREATE TABLE IF NOT EXISTS blocks (
  height INTEGER PRIMARY KEY,
  end_txid INTEGER NOT NULL,
  hash BLOB NOT NULL
);
`;
