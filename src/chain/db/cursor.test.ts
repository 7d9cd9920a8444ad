import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatCursor, parseCursor } from "./cursor.ts";
import { CursorSyntaxError } from "./errors.ts";

const HASH_TEXT = "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k";

describe("page cursor", () => {
  it("parses inclusive and exclusive cursors and formats them back", () => {
    for (const kind of ["inclusive", "exclusive"] as const) {
      const cursor = parseCursor(`${kind}:${HASH_TEXT}`);
      assert.equal(cursor.kind, kind);
      assert.equal(cursor.hash.length, 32);
      assert.equal(cursor.hash[0], 0x93);
      assert.equal(formatCursor(cursor), `${kind}:${HASH_TEXT}`);
    }
  });

  it("accepts a padded hash", () => {
    assert.equal(formatCursor(parseCursor(`inclusive:${HASH_TEXT}=`)), `inclusive:${HASH_TEXT}`);
  });

  it("rejects text without a colon", () => {
    assert.throws(() => parseCursor(HASH_TEXT), {
      name: "CursorSyntaxError",
      message: `missing ':' in next item: "${HASH_TEXT}"`,
    });
  });

  it("rejects an unknown kind", () => {
    assert.throws(() => parseCursor(`from:${HASH_TEXT}`), {
      name: "CursorSyntaxError",
      message: `unrecognized next item: "from:${HASH_TEXT}" (expected inclusive:<hash> or exclusive:<hash>)`,
    });
  });

  it("rejects a hash that is not base64url or not 32 bytes", () => {
    assert.throws(() => parseCursor("inclusive:abc+"), CursorSyntaxError);
    assert.throws(() => parseCursor("exclusive:AAAA"), {
      message: 'next item "exclusive:AAAA": a block hash has 32 bytes, got 3',
    });
  });
});
