import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { NODE_RUNTIME_FLAGS } from "./runtime-flags.ts";

const flags = NODE_RUNTIME_FLAGS.join(" ");

describe("the V8 flags braid runs with", () => {
  it("are in the shebang of the braid command", () => {
    const main = readFileSync(new URL("./main.ts", import.meta.url), "utf8");
    assert.equal(main.split("\n")[0], `#!/usr/bin/env -S node ${flags}`);
  });

  it("are in npm start", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
    ) as { scripts: Record<string, string> };
    assert.equal(manifest.scripts.start, `node ${flags} dist/cli/main.js node`);
  });
});
