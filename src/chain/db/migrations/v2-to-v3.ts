/**
 * Schema 2 → 3. Tables: headers and payloads are copied, chain by chain and height by height,
 * into tables whose row ids keep a chain's heights together (row-ids.ts) and where a header
 * names its payload by id; then the old tables go and the indexes are made (one transaction; a
 * file whose headers have `payload_id` is done). Data: the indexes version 3 added (the
 * block indexers', block-indexer.ts) are filled from every stored block.
 */
import type Database from "better-sqlite3";
import { decodePayloadWithOutputsBinary } from "../../payload/binary.ts";
import { plain } from "../column-values.ts";
import { largest, largestIdBetween, type PayloadTable, payloadRowId } from "../row-allocation.ts";
import { newRowId } from "../row-ids.ts";
import { BLOCK_HEADERS_COLUMNS, PAYLOADS_COLUMNS, SCHEMA_SQL } from "../schema.ts";
import { hasColumn, type SchemaStep } from "./schema-step.ts";

/** Blocks read at a time while the upgrade copies or indexes the stored blocks. */
const UPGRADE_BATCH_BLOCKS = 1000;

export const fromVersion2: SchemaStep = {
  from: 2,
  tablesDue: (db) => !hasColumn(db, "block_headers", "payload_id"),
  upgradeTables: copyToClusteredTables,
  fill: (db, indexers) => {
    const batch = db
      .prepare(
        `SELECT h.id, h.hash, h.chain, h.height, p.bytes FROM block_headers h
         JOIN payloads p ON p.id = h.payload_id
         WHERE h.id > ? ORDER BY h.id LIMIT ?`,
      )
      .raw();
    type Row = [number, Uint8Array, number, number, Uint8Array];
    for (let after = 0; ; ) {
      const rows = batch.all(after, UPGRADE_BATCH_BLOCKS) as Row[];
      if (rows.length === 0) break;
      for (const [, hash, chainId, height, bytes] of rows) {
        const payload = decodePayloadWithOutputsBinary(plain(bytes));
        for (const indexer of indexers) {
          indexer.blockStored({ hash: plain(hash), chainId, height, payload });
        }
      }
      after = rows[rows.length - 1]![0];
    }
  },
};

function copyToClusteredTables(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`CREATE TABLE headers_v3 (${BLOCK_HEADERS_COLUMNS});
        CREATE TABLE payloads_v3 (${PAYLOADS_COLUMNS});`);
    const read = db
      .prepare(
        `SELECT h.chain, h.height, h.hash, h.parent, h.weight, h.payload_hash, h.skip_hash,
             h.skip_height, h.bytes, p.bytes FROM block_headers h
           JOIN payloads p ON p.payload_hash = h.payload_hash
           WHERE (h.chain, h.height, h.hash) > (?, ?, ?)
           ORDER BY h.chain, h.height, h.hash LIMIT ?`,
      )
      .raw();
    const insertHeader = db.prepare(
      `INSERT INTO headers_v3 (id, chain, height, hash, parent, weight, payload_hash, skip_hash,
           skip_height, bytes, payload_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertPayload = db.prepare(
      "INSERT INTO payloads_v3 (id, payload_hash, bytes) VALUES (?, ?, ?)",
    );
    // Upgraded payloads keep their bytes in the table, as version 3 did.
    const payloads: PayloadTable = {
      idOf: db.prepare("SELECT id FROM payloads_v3 WHERE payload_hash = ?").pluck(),
      store: (id, hash, _chainId, bytes) => insertPayload.run(id, hash, bytes),
      largest: largestIdBetween(db, "payloads_v3"),
    };
    const largestHeader = largest(largestIdBetween(db, "headers_v3"));
    type Row = [
      chain: number,
      height: number,
      hash: Uint8Array,
      parent: Uint8Array,
      weight: Uint8Array,
      payloadHash: Uint8Array,
      skipHash: Uint8Array | null,
      skipHeight: number | null,
      header: Uint8Array,
      payload: Uint8Array,
    ];
    let after: [number, number, Uint8Array] = [-1, -1, new Uint8Array(0)];
    for (;;) {
      const rows = read.all(...after, UPGRADE_BATCH_BLOCKS) as Row[];
      if (rows.length === 0) break;
      for (const row of rows) {
        const [chainId, height, , , , hash, , , , payloadBytes] = row;
        const id = payloadRowId(payloads, chainId, height, hash, () => payloadBytes);
        insertHeader.run(newRowId(chainId, height, largestHeader), ...row.slice(0, 9), id);
      }
      const last = rows[rows.length - 1]!;
      after = [last[0], last[1], last[2]];
    }
    db.exec(`DROP TABLE block_headers; DROP TABLE payloads;
        ALTER TABLE headers_v3 RENAME TO block_headers;
        ALTER TABLE payloads_v3 RENAME TO payloads;`);
    db.exec(SCHEMA_SQL);
  })();
}
