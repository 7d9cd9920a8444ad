/**
 * The built `braid` command, `dist/cli/main.js` (`npm run build`; `npm ci` builds it too), for
 * tests that start many processes: it starts in a fraction of the time the sources take through
 * tsx. A `dist/` that is missing or older than `src/` is refused, since the tests would then not
 * test the change.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BUILT_CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));
const SOURCES = fileURLToPath(new URL("../../src/", import.meta.url));

/** The newest modification time of the sources under `dir` (test files left out). */
function newestSource(dir: string): { path: string; mtimeMs: number } {
  let newest = { path: dir, mtimeMs: 0 };
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name.endsWith(".test.ts")) continue;
    const path = join(entry.parentPath, entry.name);
    const { mtimeMs } = statSync(path);
    if (mtimeMs > newest.mtimeMs) newest = { path, mtimeMs };
  }
  return newest;
}

let buildChecked = false;

/** The path of `dist/cli/main.js`; throws when it is missing or older than a source file. */
export function builtCli(): string {
  if (buildChecked) return BUILT_CLI;
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run npm run build first`);
  const newest = newestSource(SOURCES);
  if (newest.mtimeMs > statSync(BUILT_CLI).mtimeMs) {
    throw new Error(`dist/ is older than ${newest.path}: run npm run build first`);
  }
  buildChecked = true;
  return BUILT_CLI;
}
