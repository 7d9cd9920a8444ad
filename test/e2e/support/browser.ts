/**
 * Headless Chromium for the explorer's browser tests: Debian's `/usr/bin/chromium` (installed by
 * `.ci/run` when missing) driven by playwright-core, with a fresh profile per launch and nothing
 * that reaches the network besides the pages opened.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";

/** Where the tests save their screenshots (git-ignored; README "Testing"). */
export const ARTIFACTS_DIR = fileURLToPath(
  new URL("../../../test-artifacts/explorer/", import.meta.url),
);

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  readonly page: Page;
  /** Saves a full-page screenshot as `<name>.png` in {@link ARTIFACTS_DIR}. */
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "braid-chromium-"));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
    });
  } catch (e) {
    rmSync(profile, { recursive: true, force: true });
    throw e;
  }
  const page = context.pages()[0] ?? (await context.newPage());
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  return {
    page,
    async screenshot(name) {
      await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
