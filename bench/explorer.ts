/**
 * The explorer in headless Chromium on a node with many blocks (issue #14): the explorer's first
 * paint and the time until the network view shows the braid and the latest blocks, the time to
 * show a block with 100 transactions (from the route change to its 100th row), and the latency
 * of the explorer's JSON endpoints. The node runs in process on SQLite files in a temporary
 * directory: `HEIGHTS` empty heights on all 20 chains are mined first, then one block of chain 0
 * with 100 transfers, then the other chains caught up.
 * Usage: node --import tsx bench/explorer.ts [heights per chain, default 5000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startNodeServer } from "../src/api/service/server.ts";
import { encodeBase64Url } from "../src/crypto/index.ts";
import { makeLogger } from "../src/node/logger.ts";
import { BraidNode } from "../src/node/node.ts";
import { resolveNodeOptions } from "../src/node/options.ts";
import { cap, devCommand, GAS_CAP } from "../src/node/test-support/dev-node.ts";
import { JsonNumber } from "../src/pact/values/index.ts";
import { launchBrowser } from "../test/e2e/support/browser.ts";

const HEIGHTS = Number(process.argv[2] ?? 5000);
const TRANSFERS = 100;
const RUNS = 10;
const API_REQUESTS = 50;

const dir = mkdtempSync(join(tmpdir(), "braid-explorer-bench-"));
const node = BraidNode.open(
  resolveNodeOptions({ dataDir: dir, mining: "none" }, {}),
  makeLogger("error"),
);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

try {
  const start = performance.now();
  for (let height = 1; height <= HEIGHTS; height++) {
    node.producer.mineAll();
    if (height % 1000 === 0) {
      console.log(`  height ${height}: ${((performance.now() - start) / 1000).toFixed(0)} s`);
    }
  }
  const blocks = node.chains.reduce((sum, chain) => sum + chain.head.height + 1, 0);
  console.log(
    `${blocks} blocks (${HEIGHTS} heights × 20 chains) ready in ${((performance.now() - start) / 1000).toFixed(1)} s`,
  );

  const commands = Array.from({ length: TRANSFERS }, (_, i) =>
    devCommand({
      code: '(coin.transfer "sender00" "sender01" 0.5)',
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("0.5"))],
      nonce: `explorer-bench-${Date.now()}-${i}`,
      gasLimit: 1000,
    }),
  );
  node.commands.submit(0, commands);
  const big = node.producer.mine(0);
  node.producer.mineAll();
  if (big.requestKeys.length !== TRANSFERS) {
    throw new Error(`the block holds ${big.requestKeys.length} transfers, not ${TRANSFERS}`);
  }
  const bigHash = encodeBase64Url(big.header.hash);

  const server = await startNodeServer(node.ports, {
    host: "127.0.0.1",
    port: 0,
    bodyLimit: 2_000_000,
    listenTimeoutSeconds: 5,
    onFault: (e) => console.error("fault", e),
  });
  const browser = await launchBrowser();
  try {
    const page = browser.page;
    const firstPaint: number[] = [];
    const networkReady: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      await page.goto(`${server.url}/?run=${run}`);
      await page.locator("#latest-blocks tbody tr").first().waitFor();
      await page.locator("#braid [data-chain]").nth(19).waitFor();
      networkReady.push(performance.now() - t0);
      const paint = await page.evaluate(
        () => performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      );
      firstPaint.push(paint);
    }
    console.log(
      `explorer first contentful paint: median ${ms(median(firstPaint))} (min ${ms(Math.min(...firstPaint))}, max ${ms(Math.max(...firstPaint))})`,
    );
    console.log(
      `network view ready (goto → 20 chains and latest blocks shown): median ${ms(median(networkReady))}`,
    );

    const blockShown: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      await page.goto(`${server.url}/#/`);
      await page.locator("#latest-blocks").waitFor();
      const t0 = performance.now();
      await page.goto(`${server.url}/#/block/${bigHash}`);
      await page.locator(`#transactions tbody tr:nth-child(${TRANSFERS})`).waitFor();
      blockShown.push(performance.now() - t0);
    }
    await browser.screenshot("bench-block-100-transactions");
    console.log(
      `block with ${TRANSFERS} transactions shown (route change → 100th row): median ${ms(median(blockShown))} (min ${ms(Math.min(...blockShown))}, max ${ms(Math.max(...blockShown))})`,
    );

    const endpoints: [string, string][] = [
      ["block with 100 transactions", `/braid/api/block/${bigHash}`],
      ["transaction", `/braid/api/tx/${big.requestKeys[50]}`],
      ["account (20 local calls)", "/braid/api/account/sender01"],
      ["latest blocks", "/braid/api/blocks/recent"],
      ["search chain/height", `/braid/api/search?q=7/${Math.floor(HEIGHTS / 2)}`],
    ];
    for (const [name, path] of endpoints) {
      const times: number[] = [];
      for (let i = 0; i < API_REQUESTS; i++) {
        const t0 = performance.now();
        const response = await fetch(`${server.url}${path}`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        times.push(performance.now() - t0);
      }
      console.log(`GET ${name}: median ${ms(median(times))}, max ${ms(Math.max(...times))}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  node.close();
  rmSync(dir, { recursive: true, force: true });
}
