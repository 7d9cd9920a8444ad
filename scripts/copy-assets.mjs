// Copies the non-TypeScript assets the code reads at run time (the Pact
// contracts, src/**/*.pact) into dist/, keeping their paths under src/.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const SRC = "src";
const DIST = "dist";
const ASSET = /\.pact$/;

function copyAssets(dir) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) count += copyAssets(path);
    else if (ASSET.test(entry.name)) {
      const target = join(DIST, relative(SRC, path));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(path, target);
      count += 1;
    }
  }
  return count;
}

const count = copyAssets(SRC);
console.log(`copy-assets: ${count} file(s) copied into ${DIST}/`);
