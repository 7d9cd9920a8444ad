/**
 * Runs `braid -s` (the development server) as a separate process for end-to-end tests, as a
 * client meets it: a configuration file written into `dir`, started on a free port; resolves
 * with its URL once it listens.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const MAIN = fileURLToPath(new URL("../../src/cli/main.ts", import.meta.url));
const TSX = import.meta.resolve("tsx");

export async function startDevServer(
  dir: string,
  config = "port: 0\nlistenTimeout: 0.2\nlogDir: log\n",
): Promise<{ url: string; child: ChildProcess }> {
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
