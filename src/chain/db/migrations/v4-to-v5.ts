/**
 * Schema 4 → 5: the payload log rows get their checksum column (`log_crc`), NULL for the rows
 * already stored: their bytes are checked against the payload's own hashes when read
 * (block-store.ts). Nothing to fill in.
 */
import { PAYLOAD_CRC_COLUMN } from "../schema.ts";
import { hasColumn, type SchemaStep } from "./schema-step.ts";

export const fromVersion4: SchemaStep = {
  from: 4,
  tablesDue: (db) => !hasColumn(db, "payloads", "log_crc"),
  upgradeTables: (db) => {
    db.exec(`ALTER TABLE payloads ADD COLUMN ${PAYLOAD_CRC_COLUMN};`);
  },
};
