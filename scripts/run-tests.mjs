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
// Files named *.timed.test.ts time how fast the node answers: they run after the others, alone,
// so that another test file's load on the two cores is not what they measure.
const TIMED = ".timed.test.ts";
const run = (list, concurrency) =>
  list.length === 0
    ? 0
    : (spawnSync(
        process.execPath,
        ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, ...list],
        { stdio: "inherit" },
      ).status ?? 1);
const shared = run(
  files.filter((f) => !f.endsWith(TIMED)),
  TEST_CONCURRENCY,
);
const alone = run(
  files.filter((f) => f.endsWith(TIMED)),
  1,
);
process.exit(shared !== 0 ? shared : alone);
