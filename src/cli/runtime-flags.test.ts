import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { NODE_RUNTIME_FLAGS } from "./runtime-flags.ts";

describe("the V8 flags a node runs with", () => {
  it("are the ones npm start passes", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { scripts: Record<string, string> };
    assert.equal(
      manifest.scripts.start,
      `node ${NODE_RUNTIME_FLAGS.join(" ")} dist/cli/main.js node`,
    );
  });
});
