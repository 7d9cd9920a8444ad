/**
 * The README's quick start (docs/examples/quick-start.mjs) run as a user would: against a node
 * started as a separate process, with the node's URL in BRAID_URL. It must confirm the transfer
 * and print both new balances.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startNode } from "../support/node-process.ts";

const SNIPPET = fileURLToPath(new URL("../../docs/examples/quick-start.mjs", import.meta.url));
const README = fileURLToPath(new URL("../../README.md", import.meta.url));

test("the README shows the quick start's code verbatim", () => {
  const block = /```js\n([\s\S]*?)```/.exec(readFileSync(README, "utf8"));
  assert.ok(block !== null, "the README has a js code block");
  assert.ok(readFileSync(SNIPPET, "utf8").includes(block[1]!), "the snippet contains it");
});

test("the quick start confirms a transfer sender00 → sender01", { timeout: 30_000 }, async () => {
  const node = await startNode();
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [SNIPPET], {
      env: { ...process.env, BRAID_URL: node.url },
      timeout: 20_000,
    });
    const lines = stdout.trimEnd().split("\n");
    assert.match(lines[0]!, /^request key: [A-Za-z0-9_-]{43}$/);
    assert.deepEqual(lines.slice(1), [
      "status: success gas: 232",
      "sender00: { decimal: '99999998.999997680000' }",
      "sender01: 110000001",
    ]);
  } finally {
    await node.stop();
  }
});
