/**
 * Failures of the disk under a database, told apart from everything else: a full disk, an I/O
 * error, a file that cannot be opened or written. They are never the fault of the command that
 * met them, so they must not become its result (a block's outputs would then depend on the disk,
 * and replaying it would give others): they end the work under way, and the owner of the
 * database decides what to do (the node stops writing until the disk works again).
 */

/** SQLite's result codes (primary, before the `_` of extended ones) that mean the disk failed. */
const SQLITE_DISK_CODES = new Set([
  "SQLITE_FULL",
  "SQLITE_IOERR",
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_CORRUPT",
  "SQLITE_NOTADB",
  "SQLITE_NOLFS",
]);

/** Node's error codes of file operations that mean the disk failed. */
const FILE_DISK_CODES = new Set(["EIO", "EROFS", "EFBIG", "EMFILE", "ENFILE"]);

/** Codes of a full disk (or quota): the one failure that fixes itself once space is freed. */
const FULL_CODES = new Set(["SQLITE_FULL", "ENOSPC", "EDQUOT"]);

/**
 * A state whose uncommitted work the database threw away after a failed write (SQLite rolls a
 * whole transaction back on some failures, e.g. a full disk): it takes no write until it is
 * recovered (`VersionedPactDb.recover`), so nothing can be written on top of the gap.
 */
export class StateWriteLost extends Error {
  override readonly name = "StateWriteLost";
}

/** Refused while the disk fails: the node answers 503 with this message. */
export class StorageUnavailable extends Error {
  override readonly name = "StorageUnavailable";
}

/**
 * What failed when `e` (or an error in its `cause` chain) is a failure of the disk: "disk full"
 * for a full disk or quota, "disk write failed (CODE: message)" for any other; null when `e` is
 * something else.
 */
export function storageFailureReason(e: unknown): string | null {
  for (let at: unknown = e, depth = 0; at instanceof Error && depth < 8; depth++) {
    if (at instanceof StateWriteLost) return `disk write failed (${at.message})`;
    const code = (at as { code?: unknown }).code;
    if (typeof code === "string") {
      if (FULL_CODES.has(code)) return "disk full";
      if (FILE_DISK_CODES.has(code) || SQLITE_DISK_CODES.has(code.split("_", 2).join("_"))) {
        return `disk write failed (${code}: ${at.message})`;
      }
    }
    at = at.cause;
  }
  return null;
}
