import assert from "node:assert/strict";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { StateWriteLost, storageFailureReason } from "./storage-failure.ts";

/** An error with a code, as SQLite and Node's file operations throw them. */
const coded = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("failures of the disk", () => {
  it("names a full disk, from SQLite or from a file write", () => {
    assert.equal(
      storageFailureReason(coded("SQLITE_FULL", "database or disk is full")),
      "disk full",
    );
    assert.equal(storageFailureReason(coded("ENOSPC", "no space left on device")), "disk full");
    assert.equal(storageFailureReason(coded("EDQUOT", "disk quota exceeded")), "disk full");
  });

  it("names other failures of the disk with their code, also as the cause of another error", () => {
    assert.equal(
      storageFailureReason(coded("SQLITE_IOERR_WRITE", "disk I/O error")),
      "disk write failed (SQLITE_IOERR_WRITE: disk I/O error)",
    );
    const wrapped = new Error("the chain database could not be synced to disk", {
      cause: coded("EIO", "i/o error"),
    });
    assert.equal(storageFailureReason(wrapped), "disk write failed (EIO: i/o error)");
    assert.equal(
      storageFailureReason(new StateWriteLost("the batch was rolled back")),
      "disk write failed (the batch was rolled back)",
    );
  });

  it("leaves everything else alone", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (k PRIMARY KEY)");
    db.exec("INSERT INTO t VALUES (1)");
    let constraint: unknown;
    try {
      db.exec("INSERT INTO t VALUES (1)");
    } catch (e) {
      constraint = e;
    }
    db.close();
    assert.equal((constraint as { code: string }).code, "SQLITE_CONSTRAINT_PRIMARYKEY");
    assert.equal(storageFailureReason(constraint), null);
    assert.equal(storageFailureReason(new RangeError("Invalid array length")), null);
    assert.equal(storageFailureReason("disk full"), null);
  });
});
