/**
 * The built `braid` (`node dist/cli/main.js`, so `npm run build` first) whose output a reader
 * closes early: it ends quietly with status 0, a server after closing cleanly, instead of dying
 * on an unhandled EPIPE with a stack trace.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BUILT_CLI = join(REPO_ROOT, "dist/cli/main.js");
/** Lines of a script whose `-t` output is larger than a pipe's buffer (64 KiB on Linux). */
const SCRIPT_LINES = 20_000;

/** `braid ARGS | head -3` in bash, with pipefail: the status is braid's unless head failed. */
function pipedIntoHead(args: string, cwd: string) {
  const result = spawnSync(
    "bash",
    ["-c", `set -o pipefail; "${process.execPath}" "${BUILT_CLI}" ${args} | head -3`],
    { cwd, encoding: "utf8" },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("braid whose output is closed early", () => {
  let dir: string;
  before(() => {
    assert.ok(existsSync(BUILT_CLI), `${BUILT_CLI} is missing: run npm run build first`);
    dir = mkdtempSync(join(tmpdir(), "braid-pipe-"));
    writeFileSync(join(dir, "long.repl"), "(+ 1 2)\n".repeat(SCRIPT_LINES));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("braid -b | head -3 ends quietly with exit status 0", () => {
    assert.deepEqual(pipedIntoHead("-b", dir), {
      status: 0,
      stdout: '"+"\n"-"\n"*"\n',
      stderr: "",
    });
  });

  it("braid -t with more output than the pipe holds | head -3 ends quietly with exit status 0", () => {
    const { status, stdout, stderr } = pipedIntoHead("-t long.repl", dir);
    assert.equal(stderr, "");
    assert.equal(status, 0);
    assert.equal(stdout.split("\n").length, 4, stdout);
  });

  it("braid node closes cleanly, status 0, when its reader goes before the banner", async () => {
    const child = spawn(
      process.execPath,
      [BUILT_CLI, "node", "--in-memory", "--port", "0", "--log-level", "info"],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
    );
    // The reader closes its end before braid writes anything: the banner meets a closed pipe.
    child.stdout.destroy();
    let stderr = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (text: string) => {
      stderr += text;
    });
    const exit = await new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    assert.deepEqual({ ...exit, stderr }, { code: 0, signal: null, stderr: "" });
  });
});
