// Runs every *.test.ts file under src/ and test/ with Node's test runner.
// Node 20's --test does not expand globs, so the file list is gathered here.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

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
// Files that run after the others, one at a time: *.timed.test.ts time how fast the node answers,
// so another test file's load on the two cores must not be what they measure; test/network/ files
// each start several node processes in network namespaces of their own (CONTRIBUTING.md).
const NETWORK_TESTS = fileURLToPath(new URL("../test/network/", import.meta.url));
const runsAlone = (file) =>
  file.endsWith(".timed.test.ts") || resolve(file).startsWith(NETWORK_TESTS);
const run = (list, concurrency) =>
  list.length === 0
    ? 0
    : (spawnSync(
        process.execPath,
        ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...list],
        { stdio: "inherit" },
      ).status ?? 1);
const shared = run(
  files.filter((f) => !runsAlone(f)),
  TEST_CONCURRENCY,
);
const alone = run(files.filter(runsAlone), 1);
process.exit(shared !== 0 ? shared : alone);
