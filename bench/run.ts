/**
 * Runs every benchmark script in bench/ (or the ones named on the command line) one after the
 * other, each in its own process so they do not disturb each other's warm-up, with the V8 flags
 * `braid` runs with (src/cli/runtime-flags.ts), so what runs in the script runs as in a node.
 * Usage: npm run bench [-- command-verify chain-headers]
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NODE_RUNTIME_FLAGS } from "../src/cli/runtime-flags.ts";

const here = dirname(fileURLToPath(import.meta.url));
const requested = process.argv.slice(2);
const scripts = readdirSync(here)
  .filter((name) => name.endsWith(".ts") && name !== "run.ts")
  .map((name) => name.slice(0, -".ts".length))
  .filter((name) => requested.length === 0 || requested.includes(name))
  .sort();

let failed = 0;
for (const name of scripts) {
  console.log(`\n## ${name}`);
  const script = join(here, `${name}.ts`);
  const result = spawnSync(process.execPath, [...NODE_RUNTIME_FLAGS, "--import", "tsx", script], {
    stdio: "inherit",
  });
  if (result.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
