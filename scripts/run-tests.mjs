// Runs every *.test.ts file under src/ and test/ with Node's test runner.
// Node 20's --test does not expand globs, so the file list is gathered here.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

function collect(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) collect(path, out);
    else if (entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

const roots = process.argv.length > 2 ? process.argv.slice(2) : ["src", "test"];
const files = roots
  .filter((root) => existsSync(root))
  .flatMap((root) => collect(root, []))
  .sort();
// Two test files at a time: the standard machine has two cores, and most files are CPU-bound.
const TEST_CONCURRENCY = 2;
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", `--test-concurrency=${TEST_CONCURRENCY}`, ...files],
  {
    stdio: "inherit",
  },
);
process.exit(result.status ?? 1);
