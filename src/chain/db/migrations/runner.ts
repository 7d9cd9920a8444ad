/**
 * Opening a chain database file: its stored schema and network version are checked (a new file
 * gets them), and a file of an older schema is brought up to date by the steps of this folder,
 * one file per version, in two phases: every due step's table changes before the database
 * prepares its statements ({@link upgradeTables}), then, once it has, what the steps fill in
 * from the stored blocks, in one transaction with the new version number ({@link upgradeData}).
 */
import type Database from "better-sqlite3";
import type { BlockIndexer } from "../block-indexer.ts";
import { SCHEMA_VERSION } from "../schema.ts";
import type { SchemaStep } from "./schema-step.ts";
import { fromVersion2 } from "./v2-to-v3.ts";
import { fromVersion3 } from "./v3-to-v4.ts";
import { fromVersion4 } from "./v4-to-v5.ts";

/** The upgrade steps, oldest version first; the last one upgrades to {@link SCHEMA_VERSION}. */
const STEPS: readonly SchemaStep[] = [fromVersion2, fromVersion3, fromVersion4];

/** The versions an existing file may have that opening upgrades to {@link SCHEMA_VERSION}. */
export const SCHEMA_UPGRADES: readonly number[] = STEPS.map((step) => step.from);

/**
 * Records the schema and network version in a new file; refuses a file of another network
 * version, or of a schema version other than the current one and {@link SCHEMA_UPGRADES}.
 */
export function checkStoredVersions(db: Database.Database, path: string, version: string): void {
  const read = db.prepare("SELECT value FROM meta WHERE key = ?").pluck();
  const write = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
  const expected: [string, string][] = [
    ["schema", String(SCHEMA_VERSION)],
    ["version", version],
  ];
  for (const [key, value] of expected) {
    const stored = read.get(key) as string | undefined;
    if (stored === undefined) write.run(key, value);
    else if (key === "schema" && SCHEMA_UPGRADES.includes(Number(stored))) {
      // Upgraded once the statements are ready (upgradeData).
    } else if (stored !== value) {
      throw new Error(
        `chain database ${path} has ${key} ${JSON.stringify(stored)}, expected ${JSON.stringify(value)}`,
      );
    }
  }
}

/** The tables of the current schema on a file of an older one: each due step's changes, in order. */
export function upgradeTables(db: Database.Database): void {
  for (const step of STEPS) {
    if (step.tablesDue(db)) step.upgradeTables(db);
  }
}

/**
 * Finishes upgrading a file of an older schema version, once the tables are current: what the
 * steps from its version on fill in (from every stored block, `indexers` told of each), and the
 * new version number, in one transaction.
 */
export function upgradeData(db: Database.Database, indexers: readonly BlockIndexer[]): void {
  // checkStoredVersions let through only this version or one SCHEMA_UPGRADES names.
  const stored = Number(db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get());
  if (stored === SCHEMA_VERSION) return;
  const setVersion = db.prepare("UPDATE meta SET value = ? WHERE key = 'schema'");
  const fills = STEPS.filter((step) => step.from >= stored && step.fill !== undefined);
  // From version 3 on, the steps only add columns (upgradeTables).
  if (fills.length === 0) {
    setVersion.run(String(SCHEMA_VERSION));
    return;
  }
  db.transaction(() => {
    for (const step of fills) step.fill!(db, indexers);
    setVersion.run(String(SCHEMA_VERSION));
  })();
}
