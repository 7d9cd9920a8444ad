/**
 * Schema 3 → 4: the payload log columns (payload-log.ts) are added to `payloads`, NULL for the
 * rows already stored, which keep their bytes. Nothing to fill in.
 */
import { PAYLOAD_LOG_COLUMNS } from "../schema.ts";
import { hasColumn, type SchemaStep } from "./schema-step.ts";

export const fromVersion3: SchemaStep = {
  from: 3,
  tablesDue: (db) => !hasColumn(db, "payloads", "log_length"),
  upgradeTables: (db) => {
    db.exec(PAYLOAD_LOG_COLUMNS.map((c) => `ALTER TABLE payloads ADD COLUMN ${c};`).join(""));
  },
};
