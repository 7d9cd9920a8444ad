/** The chain database and the block endpoints' page queries. */
export { MAX_INDEXED_ACCOUNT_LENGTH } from "./activity.ts";
export { isBraided } from "./braiding.ts";
export {
  type Block,
  ChainDatabase,
  type ContinuationRecord,
  type HeaderLink,
  type IndexedBlock,
  type SnapshotRevert,
  type TransferRecord,
  type TxIndexEntry,
  type TxLocation,
} from "./chain-database.ts";
export { type Cursor, formatCursor, parseCursor } from "./cursor.ts";
export {
  BlockNotFoundError,
  BranchBoundsError,
  CursorSyntaxError,
  HeaderInsertError,
  PageQueryError,
} from "./errors.ts";
export { MAX_BLOCK_PAGE_LIMIT, MAX_BRANCH_BOUNDS } from "./limits.ts";
export {
  type BranchBounds,
  blockPage,
  branchPage,
  type Page,
  type PageQuery,
} from "./pages.ts";
