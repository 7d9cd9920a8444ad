/** The chain database, the interfaces it implements and takes, and the block endpoints' page queries. */
export { MAX_INDEXED_ACCOUNT_LENGTH } from "./activity.ts";
export type { HeaderLink } from "./ancestry.ts";
export { type AncestryReader, openAncestryReader } from "./ancestry-reader.ts";
export type { BlockIndexer, StoredBlock } from "./block-indexer.ts";
export type { ScanStart } from "./block-scan.ts";
export type { Block } from "./block-store.ts";
export { isBraided } from "./braiding.ts";
export { ChainDatabase, type ChainDatabaseOptions, type IndexedBlock } from "./chain-database.ts";
export { type Cursor, formatCursor, parseCursor } from "./cursor.ts";
export {
  BlockNotFoundError,
  BranchBoundsError,
  CursorSyntaxError,
  HeaderInsertError,
  PageQueryError,
} from "./errors.ts";
export {
  type ContinuationRecord,
  ExplorerIndexes,
  type TransferRecord,
} from "./explorer-indexes.ts";
export type { HeaderReader } from "./header-reader.ts";
export { MAX_BLOCK_PAGE_LIMIT, MAX_BRANCH_BOUNDS } from "./limits.ts";
export {
  BLOCK_ITEMS,
  type BranchBounds,
  blockPage,
  branchPage,
  HEADER_ITEMS,
  type Page,
  type PageItems,
  type PageQuery,
} from "./pages.ts";
export { CorruptPayloadError } from "./payload-log.ts";
export type { SnapshotRevert } from "./snapshots.ts";
export type { TxIndexEntry, TxLocation } from "./tx-index.ts";
