/**
 * Issue #24, item 3: two processes on one data directory. A second `braid node` on a directory
 * a running node holds is refused at once, with a message naming the holder's process id, and
 * changes nothing there; once the holder is killed with `kill -9`, a new node starts on it.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runBraid } from "../support/braid-cli.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";

/** The longest a refused second node may take to exit (ms): it must not wait for the lock. */
const REFUSAL_MS = 10_000;

/** Every file of a directory tree with its size and modification time. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const { size, mtimeMs } = statSync(path);
        files.set(path, `${size} ${mtimeMs}`);
      }
    }
  };
  walk(dir);
  return files;
}

test("a second node on a held data directory is refused naming the holder; kill -9 frees it", {
  timeout: 90_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-lock-"));
  let first: NodeProcess | null = null;
  let third: NodeProcess | null = null;
  try {
    first = await startNode({ dataDir: dir });
    // Once the first node has flushed what its start wrote, it writes nothing while idle.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = snapshot(dir);
    const started = performance.now();
    const second = runBraid(dir, ["node", "--data-dir", dir, "--port", "0"], "", REFUSAL_MS);
    const took = performance.now() - started;
    assert.equal(second.code, 1, `the second node exits with 1:\n${second.stdout}${second.stderr}`);
    assert.ok(took < REFUSAL_MS, `refused at once (${Math.round(took)} ms)`);
    assert.match(
      second.stderr,
      new RegExp(`the data directory ${dir} is in use by process ${first.child.pid} \\(`),
    );
    assert.deepEqual(snapshot(dir), before, "the refused node changed nothing");
    // The first node still serves.
    const cut = await fetch(`${first.url}/chainweb/0.0/development/cut`);
    assert.equal(cut.status, 200);

    await first.kill();
    first = null;
    third = await startNode({ dataDir: dir });
    const info = await fetch(`${third.url}/info`);
    assert.equal(info.status, 200, "a node starts on the directory the killed one held");
  } finally {
    await first?.stop();
    await third?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
