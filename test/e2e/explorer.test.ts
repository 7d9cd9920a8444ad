/**
 * The explorer in headless Chromium against `braid node` in a child process (issue #14): the
 * braid of 20 chains with heights that move as blocks are mined, a transfer sent with
 * `@kadena/client` found by request key through the search box with its result and events, its
 * block, the account view with its balances, a cross-chain transfer's two steps linked to
 * each other, and the peers: none with a hint, then a second `braid node` naming the first with
 * `--peer`, each shown on the other's page with where its cut stands. Screenshots of each view
 * go to test-artifacts/explorer/.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type ICommand, Pact } from "@kadena/client";
import type { Page } from "playwright-core";
import { DEVNET_MINER } from "../../src/node/options.ts";
import { Decimal } from "../../src/pact/values/index.ts";
import { type NodeProcess, startNode } from "../support/node-process.ts";
import { ARTIFACTS_DIR, type Browser, launchBrowser } from "./support/browser.ts";
import {
  clientFor,
  crossChainTransferCommand,
  NETWORK,
  readCommand,
  SENDER00,
  SENDER01,
  signWith,
  transferCommand,
} from "./support/kadena.ts";

type Node = Awaited<ReturnType<typeof startNode>>;

/** Waits this long for the page to show what the node did. */
const UI_TIMEOUT_MS = 15_000;

/** Polls `check` until it holds (the page's CSP forbids the evaluated strings of waitForFunction). */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + UI_TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not true after ${UI_TIMEOUT_MS} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function heights(page: Page): Promise<number[]> {
  return page.$$eval("#braid [data-chain] .height", (texts) =>
    texts.map((t) => Number(t.textContent)),
  );
}

async function search(page: Page, text: string): Promise<void> {
  await page.fill("#search-text", text);
  await page.click("#search button");
}

/** A decimal from its text, with or without a fractional part. */
const decimal = (text: string) => Decimal.parseLiteral(text.includes(".") ? text : `${text}.0`);

/** The balance the account view shows on a chain, as a decimal. */
async function balanceOn(page: Page, chain: number): Promise<Decimal> {
  const text = await page.textContent(`#balances tbody tr:nth-child(${chain + 1}) td:nth-child(2)`);
  return decimal(text ?? "");
}

const GAS_PRICE = decimal("0.00000001");

/** A decimal as the explorer writes every decimal: no trailing zeros, at least one place. */
const pactDecimal = (d: Decimal) => {
  const text = d.toString();
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, ".0") : `${text}.0`;
};

/** The text of each cell of each row of a table's body. */
async function rowTexts(page: Page, tableSelector: string): Promise<string[][]> {
  return page.$$eval(`${tableSelector} tbody tr`, (rows) =>
    rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")),
  );
}

/** The text of one column (1-based) of a table's body. */
async function cellTexts(page: Page, tableSelector: string, column: number): Promise<string[]> {
  return (await rowTexts(page, tableSelector)).map((row) => row[column - 1] ?? "");
}

/** A module in the free namespace with a table, a managed capability and an event. */
const HELLO_MODULE = `(namespace "free")
(module hello GOV
  (defcap GOV () true)
  (defcap GREET (who:string) @managed true)
  (defcap GREETED (who:string) @event true)
  (defschema greeting who:string times:integer)
  (deftable greetings:{greeting})
  (defun greet:string (who:string) @doc "says hello" (format "Hello {}" [who])))
(create-table greetings)`;

/** A node's `host:port`, as its peers know it. */
const addressOf = (node: NodeProcess) => node.url.replace(/^http:\/\//, "");

/** The cells of each row of the peers table. */
async function peerRows(page: Page): Promise<string[][]> {
  return page.$$eval("#peer-table tbody tr", (rows) =>
    rows.map((row) => [...row.querySelectorAll("td")].map((cell) => cell.textContent ?? "")),
  );
}

/** A node's cut height (`GET {base}/cut`) once its chains are level (blocks mined on demand are followed by the others'). */
async function cutHeightOf(node: NodeProcess): Promise<number> {
  let height = 0;
  await until(async () => {
    const response = await fetch(`${node.url}/chainweb/0.0/${NETWORK}/cut`);
    const cut = (await response.json()) as {
      height: number;
      hashes: Record<string, { height: number }>;
    };
    height = cut.height;
    return new Set(Object.values(cut.hashes).map((head) => head.height)).size === 1;
  });
  return height;
}

/** Waits until the page's peers table is `expected`, row by row and cell by cell. */
async function peersShown(page: Page, expected: string[][]): Promise<void> {
  try {
    await until(async () => JSON.stringify(await peerRows(page)) === JSON.stringify(expected));
  } catch (e) {
    assert.deepEqual(await peerRows(page), expected, String(e));
  }
}

describe("explorer in a browser", { timeout: 120_000 }, () => {
  let node: Node;
  /** Two more nodes, one naming the other with `--peer` (the peers view). */
  const pair: Node[] = [];
  let browser: Browser;
  let page: Page;
  let transferKey = "";
  let transferGas = 0;
  let deployKey = "";
  let transferTxId = "";
  let transferNonce = "";
  let transferTtl = "";
  /** The transfer's block height, as the tables show it. */
  let transferHeight = "";
  /** The height of the block holding a command (the explorer's JSON), as text. */
  const heightOf = async (key: string) => {
    const response = await fetch(`${node.url}/braid/api/tx/${key}`);
    return String(((await response.json()) as { height: number }).height);
  };

  before(async () => {
    [node, browser] = await Promise.all([startNode(), launchBrowser()]);
    page = browser.page;
    page.setDefaultTimeout(UI_TIMEOUT_MS);
  });
  after(async () => {
    await browser?.close();
    await Promise.all(pair.map((n) => n.stop()));
    await node?.stop();
  });

  it("shows the 20 chains of the braid, and their heights move as blocks are mined", async () => {
    await page.goto(`${node.url}/`);
    await page.waitForSelector("#latest-blocks");
    assert.equal(await page.locator("#braid [data-chain]").count(), 20);
    assert.equal(await page.locator("#braid line.edge").count(), 30, "20 chains of degree 3");
    const before = await heights(page);
    assert.deepEqual(before, new Array(20).fill(0));

    const client = clientFor(node.url, "pact");
    const command = transferCommand(SENDER00, "sender01", "1.5");
    const sent = await client.submit(await signWith(SENDER00, command));
    transferKey = sent.requestKey;
    const result = await client.listen(sent);
    assert.equal(result.result.status, "success");
    transferGas = result.gas;
    transferTxId = String(result.txId);
    const cmd = JSON.parse(command.cmd) as { nonce: string; meta: { ttl: number } };
    transferNonce = cmd.nonce;
    transferTtl = `${cmd.meta.ttl} s`;
    transferHeight = await heightOf(transferKey);

    // The block on chain 0 and the blocks that keep the other 19 braided arrive by the stream.
    await until(async () => (await heights(page)).every((h) => h >= 1));
    const moved = await heights(page);
    assert.ok(
      moved.every((h, i) => h > before[i]!),
      `heights ${moved}`,
    );
    assert.ok((await page.locator("#latest-blocks tbody tr").count()) >= 20);
    await browser.screenshot("network");
  });

  it("finds the transfer by request key through the search box, with its result and events", async () => {
    await search(page, transferKey);
    await page.waitForSelector("#request-key");
    assert.equal(await page.textContent("#request-key"), transferKey);
    assert.equal(await page.textContent(".fields .ok"), "success");
    const events = await page.locator("ol.events li").allTextContents();
    assert.deepEqual(events, [
      `coin.TRANSFER(sender00, sender01, 1.5)`,
      `coin.TRANSFER(sender00, ${DEVNET_MINER.account}, ${GAS_PRICE.mul(Decimal.fromInteger(BigInt(transferGas))).toString()})`,
    ]);
    assert.deepEqual(
      [
        await page.textContent("#tx-id"),
        await page.textContent("#tx-ttl"),
        await page.textContent("#tx-nonce"),
      ],
      [transferTxId, transferTtl, transferNonce],
    );
    assert.equal(await page.getAttribute("#tx-modules a", "href"), "#/module/coin");
    await page.click("#raw-json summary");
    const raw = JSON.parse((await page.textContent("#raw-json pre")) ?? "");
    assert.deepEqual([raw.command.hash, raw.result.txId], [transferKey, Number(transferTxId)]);
    await browser.screenshot("transaction");
  });

  it("opens the transfer's block, which lists it, and a chain's block from the braid", async () => {
    await page.click("#tx-block");
    await page.waitForSelector("#block-hash");
    const rows = await page.locator("#transactions tbody tr").allTextContents();
    assert.equal(rows.length, 1);
    assert.match(rows[0]!, /sender00/);
    assert.equal(await page.locator(`#transactions a[href="#/tx/${transferKey}"]`).count(), 1);
    assert.match((await page.textContent("#block-weight")) ?? "", /^[1-9][0-9]*$/);
    assert.match((await page.textContent("#block-target")) ?? "", /^[1-9][0-9]*$/);
    assert.equal(await page.textContent("#previous-block"), `← 0/${Number(transferHeight) - 1}`);
    await browser.screenshot("block");
    // Its parent's next block is this one.
    const transferBlock = new URL(page.url()).hash;
    await page.click("#previous-block");
    await page
      .locator("h1", { hasText: `Block ${Number(transferHeight) - 1} of chain 0` })
      .waitFor();
    const next = page.locator(".next-block");
    assert.deepEqual(
      [await next.count(), await next.textContent(), await next.getAttribute("href")],
      [1, `0/${transferHeight} →`, transferBlock],
    );

    // A chain of the braid opens that chain's block in the current cut.
    await page.goto(`${node.url}/#/`);
    await page.click('#braid [data-chain="3"]');
    await page.locator("h1", { hasText: "of chain 3" }).waitFor();
  });

  it("shows an account's balance on every chain and its transfers", async () => {
    await search(page, "sender01");
    await page.waitForSelector("#balances");
    assert.equal(await page.textContent("#account-name"), "sender01");
    assert.equal(await page.locator("#balances tbody tr").count(), 20);
    assert.ok((await balanceOn(page, 0)).equals(decimal("110000001.5")));
    assert.ok((await balanceOn(page, 5)).equals(decimal("110000000")));
    assert.equal(await page.locator(`#transfers a[href="#/tx/${transferKey}"]`).count(), 1);

    await search(page, "sender00");
    await page.locator("#account-name", { hasText: "sender00" }).waitFor();
    const fee = GAS_PRICE.mul(Decimal.fromInteger(BigInt(transferGas)));
    assert.ok(
      (await balanceOn(page, 0)).equals(decimal("99999998.5").sub(fee)),
      "sender00 paid 1.5 and the gas",
    );
    await browser.screenshot("account");
  });

  it("shows an account's total across chains, its guard once, decimals one way and genesis transfers in chain order", async () => {
    await search(page, "sender01");
    await page.locator("#account-name", { hasText: "sender01" }).waitFor();
    await page.waitForSelector("#account-total");
    assert.equal(await page.textContent("#account-total"), "2200000001.5");
    assert.equal(
      await page.textContent("#account-guard"),
      `{"pred":"keys-all","keys":["${SENDER01.publicKey}"]}`,
    );
    assert.deepEqual(await page.locator("#balances th").allTextContents(), ["chain", "balance"]);
    assert.deepEqual(await cellTexts(page, "#balances", 2), [
      "110000001.5",
      ...new Array(19).fill("110000000.0"),
    ]);
    const transfers = await rowTexts(page, "#transfers");
    assert.deepEqual(
      transfers.map((row) => row.slice(0, 5)),
      [
        ["0", transferHeight, "sender00", "sender01", "1.5"],
        ...[...Array(20).keys()].map((c) => [String(c), "0", "(none)", "sender01", "110000000.0"]),
      ],
    );

    await search(page, "sender00");
    await page.locator("#account-name", { hasText: "sender00" }).waitFor();
    await page.waitForSelector("#account-total");
    const fee = GAS_PRICE.mul(Decimal.fromInteger(BigInt(transferGas)));
    assert.equal(
      await page.textContent("#account-total"),
      pactDecimal(decimal("2000000000").sub(decimal("1.5")).sub(fee)),
    );
    assert.equal(
      (await cellTexts(page, "#balances", 2))[0],
      pactDecimal(decimal("99999998.5").sub(fee)),
    );

    // At 420 px the page does not scroll sideways; wide tables scroll inside their boxes.
    await page.setViewportSize({ width: 420, height: 900 });
    try {
      const width = await page.$eval("html", (html) => html.scrollWidth);
      assert.ok(width <= 420, `the page is ${width} px wide`);
      await browser.screenshot("account-420px");
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it("opens a module from the search box: its signatures, capabilities, tables, governance and deploying transaction", async () => {
    const client = clientFor(node.url, "pact");
    const deploy = Pact.builder
      .execution(HELLO_MODULE)
      .addSigner(SENDER00.publicKey, (signFor) => [signFor("coin.GAS")])
      .setMeta({ chainId: "0", senderAccount: "sender00", gasLimit: 50_000 })
      .setNetworkId(NETWORK)
      .createTransaction();
    const sent = await client.submit(await signWith(SENDER00, deploy));
    assert.equal((await client.listen(sent)).result.status, "success");
    deployKey = sent.requestKey;

    await search(page, "free.hello");
    await page.waitForSelector("#module-name");
    assert.equal(new URL(page.url()).hash, "#/module/free.hello");
    assert.equal(await page.textContent("#module-name"), "free.hello");
    assert.equal(await page.textContent("#module-governance"), "capability GOV");
    assert.deepEqual(await rowTexts(page, "#module-functions"), [
      ["(greet:string (who:string))", "defun", "says hello"],
    ]);
    assert.deepEqual(await rowTexts(page, "#module-capabilities"), [
      ["(GOV ())", "no", "", ""],
      ["(GREET (who:string))", "yes", "", ""],
      ["(GREETED (who:string))", "no", "yes", ""],
    ]);
    assert.deepEqual(await rowTexts(page, "#module-tables"), [
      ["greetings", "greeting", "who:string times:integer"],
    ]);
    const described = (await client.dirtyRead(readCommand('(describe-module "free.hello")')))
      .result as { status: string; data: { hash: string } };
    assert.equal(await page.textContent("#module-hash"), described.data.hash);
    const deployed = await rowTexts(page, "#module-chains");
    assert.equal(deployed.length, 1, "deployed on chain 0 only");
    assert.deepEqual([deployed[0]![0], deployed[0]![2]], ["0", `${deployKey.slice(0, 10)}…`]);
    assert.match((await page.textContent("#module-code")) ?? "", /^\(module hello GOV/);
    await browser.screenshot("module");

    // Its deploying transaction, then coin from a TRANSFER event's module link.
    await page.click(`#module-chains a[href="#/tx/${deployKey}"]`);
    await page.locator("#request-key", { hasText: deployKey }).waitFor();
    await search(page, transferKey);
    await page.locator("#request-key", { hasText: transferKey }).waitFor();
    await page.click('ol.events a[href="#/module/coin"] >> nth=0');
    await page.locator("#module-name", { hasText: "coin" }).waitFor();
    assert.deepEqual(await page.locator("#module-interfaces li").allTextContents(), [
      "fungible-v2",
      "fungible-xchain-v1",
    ]);
    assert.equal((await rowTexts(page, "#module-chains")).length, 20);
  });

  it("filters the latest blocks to those with transactions, live", async () => {
    await page.goto(`${node.url}/#/`);
    await page.waitForSelector("#latest-blocks");
    assert.ok(
      (await cellTexts(page, "#latest-blocks", 4)).includes("0"),
      "empty blocks are listed without the filter",
    );
    await page.check("#with-transactions");
    await page.locator("#filter-note", { hasText: "among the last 100" }).waitFor();
    const deployHeight = await heightOf(deployKey);
    const expected = [
      ["0", deployHeight, "1"],
      ["0", transferHeight, "1"],
    ];
    const shown = async () =>
      (await rowTexts(page, "#latest-blocks")).map((r) => [r[0], r[1], r[3]]);
    await until(async () => (await shown()).length === 22);
    const rows = await shown();
    assert.deepEqual(rows.slice(0, 2), expected);
    assert.deepEqual(
      rows.slice(2).map((r) => [r[0], r[1]]),
      [...Array(20).keys()].map((c) => [String(c), "0"]),
      "then the genesis blocks, in chain order",
    );

    // A block holding a command arrives by the stream; the empty blocks braided after it do not.
    const client = clientFor(node.url, "pact");
    const sent = await client.submit(
      await signWith(SENDER00, transferCommand(SENDER00, "sender02", "0.25", { chainId: "3" })),
    );
    assert.equal((await client.listen(sent)).result.status, "success");
    await until(async () => (await shown()).length === 23);
    assert.deepEqual((await shown()).slice(0, 3), [
      ["3", await heightOf(sent.requestKey), "1"],
      ...expected,
    ]);
    await browser.screenshot("network-with-transactions");
  });

  it("links the two steps of a cross-chain transfer", async () => {
    const client = clientFor(node.url, "pact");
    const sent = await client.submit(await signWith(SENDER00, crossChainTransferCommand()));
    assert.equal((await client.listen(sent)).result.status, "success");
    const proof = (await client.pollCreateSpv(sent, "1")).replace(/"/g, "");
    const cont = Pact.builder
      .continuation({ pactId: sent.requestKey, proof, rollback: false, step: 1, data: {} })
      .addSigner(SENDER01.publicKey, (withCap) => [withCap("coin.GAS")])
      .setMeta({ chainId: "1", senderAccount: "sender01", gasLimit: 10_000 })
      .setNetworkId(NETWORK)
      .createTransaction();
    const contSent = await client.submit((await signWith(SENDER01, cont)) as ICommand);
    const second = await client.listen(contSent);
    assert.equal(second.result.status, "success");

    await search(page, sent.requestKey);
    const toSecond = page.locator('#defpact a[data-step="continuation"]');
    await toSecond.waitFor();
    assert.equal(await toSecond.textContent(), contSent.requestKey);
    await browser.screenshot("crosschain-first-step");
    await toSecond.click();
    const toFirst = page.locator('#defpact a[data-step="origin"]');
    await toFirst.waitFor();
    assert.equal(await page.textContent("#request-key"), contSent.requestKey);
    assert.equal(await toFirst.textContent(), sent.requestKey);
    assert.match((await page.textContent("#defpact")) ?? "", /started on chain 0/);
    await browser.screenshot("crosschain-second-step");

    await search(page, "sender01");
    await page.waitForSelector("#balances");
    const contFee = GAS_PRICE.mul(Decimal.fromInteger(BigInt(second.gas)));
    assert.ok((await balanceOn(page, 1)).equals(decimal("110000002.5").sub(contFee)));
  });

  it("says why a search finds nothing or is refused", async () => {
    await search(page, "19/999999");
    await page.locator("#status", { hasText: "no block" }).waitFor();
    assert.match(
      (await page.textContent("#status")) ?? "",
      /^chain 19 has no block at height 999999 \(its head is at [0-9]+\)$/,
    );
    await search(page, "x".repeat(300));
    await page.locator("#status", { hasText: "256" }).waitFor();
    assert.equal(
      await page.textContent("#status"),
      "the search text is longer than 256 characters",
    );
  });

  it("lists a pending command on the mempool view of a node that does not mine", async () => {
    const idle = await startNode({ args: ["--mining", "none"] });
    pair.push(idle);
    const sent = await clientFor(idle.url, "pact").submit(
      await signWith(SENDER00, transferCommand(SENDER00, "sender01", "1.0", { chainId: "2" })),
    );
    await page.goto(`${idle.url}/#/mempool`);
    await page.waitForSelector("#mempool-summary");
    assert.equal(await page.textContent("#mempool-summary"), "1 pending: chain 2: 1.");
    const [row] = await rowTexts(page, "#mempool");
    assert.deepEqual(row!.slice(0, 5), [
      "2",
      sent.requestKey,
      "sender00",
      '(coin.transfer "sender00" "sender01" 1.0)',
      "2500 at 0.00000001",
    ]);
  });

  it("shows no peers on a node started alone, with how to add one", async () => {
    const address = addressOf(node);
    assert.ok(
      node
        .output()
        .includes(`  peers        none (others join with --peer ${address}; docs/network.md)\n`),
      "the banner says how another node joins",
    );
    await page.goto(`${node.url}/#/`);
    await page.waitForSelector("#no-peers");
    assert.equal(
      await page.textContent("#no-peers"),
      `No peers: give this node one with --peer host:port, or start another node with --peer ${address} (docs/network.md).`,
    );
    assert.match(
      (await page.textContent("#own-cut")) ?? "",
      new RegExp(
        `^This node \\(${address}\\): cut height ${await cutHeightOf(node)}, weight [0-9]+\\.$`,
      ),
    );
  });

  it("shows two nodes, one naming the other with --peer, on each other's page as their cuts move", async () => {
    // The node of the tests above: its blocks carry a cross-chain transfer's two steps, whose
    // `cont` the follower verifies against the proof's root among the blocks it syncs.
    const first = node;
    const follower = await startNode({ args: ["--peer", addressOf(first), "--mining", "none"] });
    pair.push(follower);
    assert.ok(
      follower.output().includes(`  peers        ${addressOf(first)}   (docs/network.md)\n`),
      "the banner names the configured peer",
    );
    const height = await cutHeightOf(first);
    await page.goto(`${follower.url}/#/`);
    await peersShown(page, [[addressOf(first), "configured", String(height), "same", ""]]);
    assert.equal(
      await cutHeightOf(follower),
      height,
      "the follower synced the first node's blocks",
    );

    // The first node learnt the follower from its announcement; a block mined there reaches the
    // follower, and both pages follow it without being reloaded.
    const firstPage = await page.context().newPage();
    try {
      await firstPage.goto(`${first.url}/#/`);
      await peersShown(firstPage, [[addressOf(follower), "learnt", String(height), "same", ""]]);
      const client = clientFor(first.url, "pact");
      const sent = await client.submit(
        await signWith(SENDER00, transferCommand(SENDER00, "sender01", "0.5")),
      );
      assert.equal((await client.listen(sent)).result.status, "success");
      const moved = await cutHeightOf(first);
      assert.ok(moved > height, `the cut moved from ${height} to ${moved}`);
      await peersShown(page, [[addressOf(first), "configured", String(moved), "same", ""]]);
      await peersShown(firstPage, [[addressOf(follower), "learnt", String(moved), "same", ""]]);
      assert.match(
        (await page.textContent("#own-cut")) ?? "",
        new RegExp(`: cut height ${moved}, weight [0-9]+\\.$`),
      );
      await browser.screenshot("peers");
      await firstPage.screenshot({ path: join(ARTIFACTS_DIR, "peers-learnt.png"), fullPage: true });
    } finally {
      await firstPage.close();
    }
  });
});
