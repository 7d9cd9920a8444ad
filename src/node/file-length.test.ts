/**
 * The node's files stay short enough to read whole (issue 34): a file that outgrows the bound is
 * doing more than one job and is split.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

/** The most lines a file under src/node may have, tests included. */
const MAX_FILE_LINES = 500;

const nodeDir = fileURLToPath(new URL(".", import.meta.url));

describe("the node's files", () => {
  it(`are at most ${MAX_FILE_LINES} lines each`, () => {
    const files = readdirSync(nodeDir, { recursive: true, encoding: "utf8" }).filter((name) =>
      name.endsWith(".ts"),
    );
    assert.ok(files.length > 50, `found the node's files (${files.length})`);
    const long = files
      .map((name) => ({
        name,
        lines: readFileSync(join(nodeDir, name), "utf8").split("\n").length - 1,
      }))
      .filter(({ lines }) => lines > MAX_FILE_LINES);
    assert.deepEqual(long, []);
  });
});
