import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { claimDataDir, DataDirInUse, HOLDER_FILE, LOCK_FILE, makeDirectory } from "./data-dir.ts";

describe("the data directory", () => {
  const root = mkdtempSync(join(tmpdir(), "braid-data-dir-"));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("creates a missing directory and its parents, naming the topmost it made", () => {
    const dir = join(root, "a", "b", "c");
    assert.equal(makeDirectory(dir), join(root, "a"));
    assert.equal(existsSync(dir), true);
    assert.equal(makeDirectory(dir), null);
  });

  it("fails at once where a directory cannot be made, leaving nothing behind", () => {
    assert.throws(() => makeDirectory("/proc/nope/deeper"), {
      message: /^cannot create the directory \/proc\/nope\/deeper: ENOENT/,
    });
    const file = join(root, "plain");
    writeFileSync(file, "");
    assert.throws(() => makeDirectory(join(file, "data")), {
      message: /^cannot use the directory .*plain\/data: ENOTDIR/,
    });
    assert.throws(() => makeDirectory(file), {
      message: `${file} is not a directory`,
    });
  });

  it("is held by one claim at a time; the refusal names the holder and changes nothing", () => {
    const dir = join(root, "held");
    const claim = claimDataDir(dir);
    assert.equal(claim.created, dir);
    assert.deepEqual(readdirSync(dir).sort(), [LOCK_FILE, HOLDER_FILE].sort());
    assert.throws(
      () => claimDataDir(dir),
      (e) => {
        assert.ok(e instanceof DataDirInUse);
        assert.match(
          e.message,
          new RegExp(
            `^the data directory ${dir} is in use by process ${process.pid} \\(.+\\) since \\d{4}-\\d\\d-\\d\\dT.+Z; stop it first, or give this node another data directory$`,
          ),
        );
        return true;
      },
    );
    assert.equal(existsSync(dir), true, "a refused claim removes nothing");
    claim.release();
    assert.deepEqual(readdirSync(dir), [LOCK_FILE]);
    const again = claimDataDir(dir);
    assert.equal(again.created, null);
    again.release();
  });

  it("is free again once its holder is killed with SIGKILL", async () => {
    const dir = join(root, "killed");
    const script = `import { claimDataDir } from ${JSON.stringify(new URL("./data-dir.ts", import.meta.url).href)};
      claimDataDir(${JSON.stringify(dir)}); console.log("held"); setInterval(() => {}, 1000);`;
    const holder = spawn(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "-e", script],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
    assert.throws(() => claimDataDir(dir), new RegExp(`in use by process ${holder.pid} `));
    const gone = new Promise((resolve) => holder.once("exit", resolve));
    holder.kill("SIGKILL");
    await gone;
    const claim = claimDataDir(dir);
    claim.release();
  });
});
