/**
 * Allocating the rows of new headers and payloads: the largest id a table holds in a range
 * (what {@link newRowId} asks), and a payload's row, found by its hash or stored new at its
 * block's clustered id. The schema upgrade to version 3 allocates its copied rows the same way.
 */
import type Database from "better-sqlite3";
import { newRowId } from "./row-ids.ts";

/** The statement reading the largest id of a table between two ids (inclusive). */
export function largestIdBetween(
  db: Database.Database,
  table: "block_headers" | "payloads" | "headers_v3" | "payloads_v3",
) {
  return db.prepare(`SELECT max(id) FROM ${table} WHERE id BETWEEN ? AND ?`).pluck();
}

/** {@link largestIdBetween}'s statement as the function {@link newRowId} takes. */
export function largest(stmt: Database.Statement) {
  return (low: number, high: number) => stmt.get(low, high) as number | null;
}

/** What {@link payloadRowId} uses of a payloads table. */
export interface PayloadTable {
  readonly idOf: Database.Statement;
  /** Stores a new payload row (with its bytes, from a block of `chainId`). */
  readonly store: (id: number, hash: Uint8Array, chainId: number, bytes: Uint8Array) => void;
  readonly largest: Database.Statement;
}

/**
 * The id of the payload `hash`: its row's when it is stored, else a new row's at the block's
 * chain and height, stored now with `bytes()`.
 */
export function payloadRowId(
  table: PayloadTable,
  chainId: number,
  height: number,
  hash: Uint8Array,
  bytes: () => Uint8Array,
): number {
  const stored = table.idOf.get(hash) as number | undefined;
  if (stored !== undefined) return stored;
  const id = newRowId(chainId, height, largest(table.largest));
  table.store(id, hash, chainId, bytes());
  return id;
}
