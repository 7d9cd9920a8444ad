import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ROW_CACHE_ROWS, RowCache } from "./row-cache.ts";

describe("row cache", () => {
  it("tells cached rows, known-absent rows and unknown rows apart", () => {
    const cache = new RowCache();
    const row = new Map([["v", 1n]]);
    cache.set("m_t", "a", row);
    cache.set("m_t", "b", null);
    assert.equal(cache.get("m_t", "a"), row);
    assert.equal(cache.get("m_t", "b"), null);
    assert.equal(cache.get("m_t", "c"), undefined);
    assert.equal(cache.get("m_u", "a"), undefined);
    cache.clear();
    assert.equal(cache.get("m_t", "a"), undefined);
  });

  it("drops the least recently stored row beyond its size", () => {
    const cache = new RowCache();
    for (let i = 0; i < ROW_CACHE_ROWS; i++) cache.set("m_t", String(i), null);
    cache.set("m_t", "0", null); // stored again: now the most recent
    cache.set("m_t", "new", null);
    assert.equal(cache.get("m_t", "0"), null);
    assert.equal(cache.get("m_t", "1"), undefined);
    assert.equal(cache.get("m_t", "2"), null);
    assert.equal(cache.get("m_t", "new"), null);
  });
});
