/**
 * The total of connections a server holds: the constant, or fewer so that the process keeps
 * descriptors for its own files; the open-file limit as Linux reports it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  connectionCap,
  MAX_CONNECTIONS,
  openFileLimit,
  RESERVED_FILE_DESCRIPTORS,
} from "./connections.ts";

describe("connection limits", () => {
  it("holds MAX_CONNECTIONS, or the file limit less the reserve when that is lower", () => {
    assert.equal(connectionCap(null), MAX_CONNECTIONS);
    assert.equal(connectionCap(1_048_576), MAX_CONNECTIONS);
    assert.equal(connectionCap(4_096), 4_096 - RESERVED_FILE_DESCRIPTORS);
    assert.equal(connectionCap(256), 16);
  });

  it("reads the process's open-file limit where Linux reports it", () => {
    const limit = openFileLimit();
    if (process.platform === "linux") assert.ok(limit !== null && limit > 0);
    else assert.equal(limit, null);
  });
});
