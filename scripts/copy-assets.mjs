// Copies the non-TypeScript assets the code reads at run time (the Pact
// contracts, src/**/*.pact, and every file of a folder named assets/, such as
// the explorer's page, scripts and styles) into dist/, keeping their paths under src/.
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join, relative } from "node:path";

const SRC = "src";
const DIST = "dist";
const ASSET = /\.pact$/;
const ASSETS_DIR = "assets";

function copyAssets(dir, inAssets = false) {
  let count = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) count += copyAssets(path, inAssets || entry.name === ASSETS_DIR);
    else if (inAssets || ASSET.test(entry.name)) {
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
