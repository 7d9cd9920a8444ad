/**
 * Runs `braid -s` (the development server) as a separate process for end-to-end tests, as a
 * client meets it: a configuration file written into `dir`, started on a free port; resolves
 * with its URL once it listens.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");

export interface DevServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
}

/** The configuration a test's server starts with unless it gives its own. */
const TEST_CONFIG = "port: 0\nlistenTimeout: 0.2\nlogDir: log\n";

/**
 * A development server for the enclosing `describe`, in a new folder named from `prefix`:
 * started before its tests, killed and its folder removed after. Call the result in a test.
 */
export function devServerPerSuite(prefix: string, config = TEST_CONFIG): () => DevServerProcess {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let server: DevServerProcess | undefined;
  before(async () => {
    server = await startDevServer(dir, config);
  });
  after(() => {
    server?.child.kill();
    rmSync(dir, { recursive: true, force: true });
  });
  return () => server!;
}

export async function startDevServer(dir: string, config = TEST_CONFIG): Promise<DevServerProcess> {
  const file = join(dir, "config.yaml");
  writeFileSync(file, config);
  const child = spawn(process.execPath, ["--import", TSX, MAIN, "-s", file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^ ]+)/.exec(out);
      if (match !== null) resolve(match[1] as string);
    });
    child.once("exit", (code) => reject(new Error(`braid -s exited with ${code}: ${out}`)));
  });
  return { url, child };
}
