/**
 * Issue #24, item 8 (its storage parts): a careless start of `braid node`. A data directory that
 * cannot be created fails at once with a message naming it (it spun at 100 % CPU under /proc);
 * an emptied chain database is named as such (the message spoke of blocks that do not follow);
 * and a port in use leaves no new data directory behind.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, truncateSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { runBraid } from "../support/braid-cli.ts";
import { startNode } from "../support/node-process.ts";

/** The longest a start that must fail may take (ms). */
const FAIL_FAST_MS = 15_000;

test("a data directory that cannot be created fails at once, naming it", () => {
  const cwd = mkdtempSync(join(tmpdir(), "braid-start-"));
  try {
    const run = runBraid(
      cwd,
      ["node", "--data-dir", "/proc/nope", "--port", "0"],
      "",
      FAIL_FAST_MS,
    );
    assert.equal(run.code, 1, `exits with 1 (null: killed after ${FAIL_FAST_MS} ms)`);
    assert.match(
      run.stderr,
      /^braid: cannot open the node: cannot create the directory \/proc\/nope: ENOENT/,
    );
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test("an emptied chain database is named as such", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-start-"));
  try {
    const node = await startNode({ dataDir: dir });
    await node.stop();
    truncateSync(join(dir, "chain.sqlite"), 0);
    for (const suffix of ["-wal", "-shm"])
      rmSync(join(dir, `chain.sqlite${suffix}`), { force: true });
    const run = runBraid(dir, ["node", "--data-dir", dir, "--port", "0"], "", FAIL_FAST_MS);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `braid: cannot open the node: the chain database ${join(dir, "chain.sqlite")} is empty (0 bytes) but the data directory holds the contract states of a network: the chain database was truncated or replaced; restore it from a backup, or move the data directory away to start a new network\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a port in use leaves no new data directory behind", { timeout: 60_000 }, async () => {
  const parent = mkdtempSync(join(tmpdir(), "braid-start-"));
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const port = (taken.address() as { port: number }).port;
  try {
    const dir = join(parent, "new", "data");
    const run = runBraid(parent, ["node", "--data-dir", dir, "--port", String(port)], "", 60_000);
    assert.equal(run.code, 1);
    assert.equal(
      run.stderr,
      `braid: cannot listen on 127.0.0.1:${port}: the port is in use (EADDRINUSE)\n`,
    );
    assert.equal(
      existsSync(join(parent, "new")),
      false,
      "the directories this start made are gone",
    );
    assert.equal(existsSync(parent), true, "the directory that was there stays");
  } finally {
    taken.close();
    rmSync(parent, { recursive: true, force: true });
  }
});
