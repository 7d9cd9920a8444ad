/**
 * The transaction view's gas profile in headless Chromium against `braid node` in a child
 * process: a token ledger deployed and a transfer made with `@kadena/client`, then the
 * transfer's page shows the profile: the check that executing it again gave its stored output,
 * a flame chart whose bars are the frames, and the table of frames whose total line is the
 * transfer's gas. The page's screenshot is saved as docs/images/explorer-gas-profile.png.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { type Browser, launchBrowser } from "./support/browser.ts";
import { clientFor } from "./support/kadena.ts";
import { deployAndTransfer } from "./support/token-ledger.ts";

const SCREENSHOT = fileURLToPath(
  new URL("../../docs/images/explorer-gas-profile.png", import.meta.url),
);

/** The cells of each row of a table's body. */
async function rowsOf(page: Page, selector: string): Promise<string[][]> {
  return page.$$eval(`${selector} tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")),
  );
}

describe("the explorer's gas profile in a browser", { timeout: 120_000 }, () => {
  let node: NodeProcess;
  let browser: Browser;
  let page: Page;
  let transfer: { key: string; gas: number };

  before(async () => {
    [node, browser] = await Promise.all([startNode(), launchBrowser()]);
    page = browser.page;
    page.setDefaultTimeout(15_000);
    transfer = await deployAndTransfer(clientFor(node.url, "pact"));
  });
  after(async () => {
    await browser?.close();
    await node?.stop();
  });

  it("shows the transfer's frames, a flame chart, and the total equal to its gas", async () => {
    await page.goto(`${node.url}/#/tx/${transfer.key}`);
    await page.waitForSelector("#gas-profile-table");
    assert.equal(
      await page.textContent("#gas-profile-check"),
      "Executed again at its block's state: the same output as the block stores.",
    );
    assert.equal(await page.textContent("#gas-profile-total"), String(transfer.gas));
    const rows = await rowsOf(page, "#gas-profile-table");
    assert.deepEqual(rows[0], [`transaction ${transfer.key}`, "1", "0.000", "190.000", "100.0 %"]);
    assert.deepEqual(
      rows.map((r) => r[0]),
      [
        `transaction ${transfer.key}`,
        "charge the command's size",
        "charge buying gas (coin.buy-gas)",
        "top level exec code",
        "function free.ledger.transfer",
        "capability free.ledger.TRANSFER",
        "native read",
        "native at",
        "native enforce-guard",
        "native >",
        "function free.ledger.TRANSFER-mgr",
        "native -",
        "native >=",
        "native with-read",
        "native at",
        "native <=",
        "native -",
        "native update",
        "native +",
        "native format",
        "charge rounded up to whole gas",
      ],
    );
    assert.deepEqual(rows[5], ["capability free.ledger.TRANSFER", "1", "0.100", "17.521", "9.2 %"]);
    // The flame chart: the transaction's bar spans the chart, a frame's bar sits within its caller's.
    const bars = await page.$$eval("#gas-flame .flame-bar", (all) =>
      all.map((bar) => {
        const box = bar.getBoundingClientRect();
        return { frame: bar.getAttribute("data-frame"), left: box.left, right: box.right };
      }),
    );
    assert.equal(bars.length, 21);
    const bar = (frame: string) => bars.find((b) => b.frame === frame)!;
    const whole = bar(transfer.key);
    const call = bar("free.ledger.transfer");
    const cap = bar("free.ledger.TRANSFER");
    assert.ok(whole.left <= call.left && call.right <= whole.right + 0.5);
    assert.ok(call.left <= cap.left && cap.right <= call.right + 0.5);
    const share = (call.right - call.left) / (whole.right - whole.left);
    assert.ok(Math.abs(share - 114575 / 190000) < 0.01, `the call's bar is ${share} of the whole`);
    await page.locator("#gas-profile").scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});
