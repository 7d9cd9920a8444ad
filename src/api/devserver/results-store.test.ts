import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { MemoryResultStore, SqliteResultStore } from "./results-store.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-results-"));
after(() => rmSync(dir, { recursive: true, force: true }));

describe("result stores", () => {
  it("keep results by key, in memory", () => {
    const store = new MemoryResultStore();
    store.put("k", '{"gas":0}');
    assert.equal(store.has("k"), true);
    assert.equal(store.get("k"), '{"gas":0}');
    assert.equal(store.has("j"), false);
    assert.equal(store.get("j"), undefined);
  });

  it("keep results by key in a SQLite file, across reopening, and refuse a second write", () => {
    const path = join(dir, "results.sqlite");
    const first = new SqliteResultStore(path, ["synchronous = FULL"]);
    first.put("k", '{"gas":1}');
    assert.throws(() => first.put("k", "{}"), /UNIQUE constraint failed/);
    first.close();
    const second = new SqliteResultStore(path);
    assert.equal(second.get("k"), '{"gas":1}');
    assert.equal(second.has("k"), true);
    assert.equal(second.has("other"), false);
    second.close();
  });
});
