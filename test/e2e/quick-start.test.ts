/**
 * The README's quick start (docs/examples/quick-start.mjs) run as a user would: against a node
 * started as a separate process, with the node's URL in BRAID_URL. It must confirm the transfer
 * and print both new balances. And the README's YAML request, given the time now as its
 * `creationTime`: `braid -a` prints the body `send` takes, and the transfer succeeds.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { runBraid } from "../support/braid-cli.ts";
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
      "status: success gas: 231",
      "sender00: { decimal: '99999998.999997690000' }",
      "sender01: 110000001",
    ]);
  } finally {
    await node.stop();
  }
});

test("the README's YAML request, built by braid -a, is taken by send", {
  timeout: 30_000,
}, async () => {
  const block = /```yaml\n# transfer\.yaml\n([\s\S]*?)```/.exec(readFileSync(README, "utf8"));
  assert.ok(block !== null, "the README has the YAML request");
  const dir = mkdtempSync(join(tmpdir(), "braid-readme-"));
  const node = await startNode();
  try {
    const now = Math.floor(Date.now() / 1000);
    writeFileSync(
      join(dir, "transfer.yaml"),
      block[1]!.replace(/creationTime: \d+/, `creationTime: ${now}`),
    );
    const built = runBraid(dir, ["-a", "transfer.yaml"]);
    assert.deepEqual({ code: built.code, stderr: built.stderr }, { code: 0, stderr: "" });
    const api = `${node.url}/chainweb/0.0/development/chain/0/pact/api/v1`;
    const post = async (endpoint: string, body: string) =>
      (
        await fetch(`${api}/${endpoint}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body,
        })
      ).json();
    const { requestKeys } = (await post("send", built.stdout)) as { requestKeys: string[] };
    const result = (await post("listen", JSON.stringify({ listen: requestKeys[0] }))) as {
      result: { status: string };
    };
    assert.equal(result.result.status, "success");
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
