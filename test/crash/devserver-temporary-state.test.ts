/**
 * A development server without `persistDir` keeps its contract state in a temporary folder. One
 * killed with SIGKILL cannot remove it; the next server started without `persistDir` removes the
 * folders of servers whose process is gone (and not those of servers still running).
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { TEMPORARY_STATE_PREFIX } from "../../src/api/devserver/contract-runner.ts";
import { type DevServerProcess, startDevServer } from "../support/dev-server-process.ts";

/** The temporary state folders of the server process `pid`. */
function stateFoldersOf(pid: number): string[] {
  return readdirSync(tmpdir())
    .filter((name) => name.startsWith(`${TEMPORARY_STATE_PREFIX}${pid}-`))
    .map((name) => join(tmpdir(), name));
}

const exited = (server: DevServerProcess) =>
  new Promise<void>((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) resolve();
    else server.child.once("exit", () => resolve());
  });

test("a killed server's temporary state is removed by the next server; a running one's is kept", async () => {
  const dirs = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), "braid-devserver-temp-")));
  const servers: DevServerProcess[] = [];
  after(() => {
    for (const server of servers) server.child.kill("SIGKILL");
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const start = async (dir: string) => {
    const server = await startDevServer(dir);
    servers.push(server);
    const [folder, ...more] = stateFoldersOf(server.child.pid!);
    assert.equal(more.length, 0);
    assert.ok(folder !== undefined && existsSync(join(folder, "pactdb.sqlite")), "its state file");
    return { server, folder };
  };

  const killed = await start(dirs[0]!);
  const running = await start(dirs[1]!);
  killed.server.child.kill("SIGKILL");
  await exited(killed.server);
  assert.ok(existsSync(killed.folder), "SIGKILL leaves the folder");

  await start(dirs[2]!);
  assert.equal(existsSync(killed.folder), false, "the next server removed the killed one's folder");
  assert.ok(existsSync(running.folder), "a running server's folder is kept");
});
