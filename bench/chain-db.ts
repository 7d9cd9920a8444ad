/**
 * Chain database throughput: blocks inserted per second, then block pages of 100 served per
 * second (read and decoded, and also rendered to the endpoint's JSON), and branch pages of 100.
 * The history is twenty braided development chains with an orphan every 50 heights on chain 0;
 * every block carries two transactions with outputs (about 1.2 kB of payload).
 * Usage: node --import tsx bench/chain-db.ts [heights per chain, default 2500]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Block, ChainDatabase } from "../src/chain/db/chain-database.ts";
import { parseCursor } from "../src/chain/db/cursor.ts";
import { blockPage, branchPage } from "../src/chain/db/pages.ts";
import { encodeHeaderObject } from "../src/chain/header/json.ts";
import type { BlockHeader } from "../src/chain/header/types.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../src/chain/payload/constants.ts";
import { encodePayloadWithOutputsObject } from "../src/chain/payload/json.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../src/chain/payload/payload.ts";
import { braidedChild, testGenesis } from "../src/chain/test-support/history.ts";
import { DEVELOPMENT } from "../src/chain/version/known-versions.ts";
import { allChainIds } from "../src/chain/version/version.ts";
import { ProgressLine } from "../src/node/progress.ts";

const HEIGHTS = Number(process.argv[2] ?? 2500);
const PAGE = 100;
const INSERT_BATCH = 1000;
const CHAINS = allChainIds(DEVELOPMENT);

function payloadFor(chainId: number, height: number): PayloadWithOutputs {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const filler = "x".repeat(240);
  const transactions = [0, 1].map((i) => ({
    transaction: utf8(`{"hash":"${chainId}-${height}-${i}","sigs":[],"cmd":"${filler}"}`),
    output: utf8(`{"gas":600,"result":{"status":"success","data":"${filler}"},"txId":${height}}`),
  }));
  return makePayloadWithOutputs(transactions, NO_MINER_DATA, NO_COINBASE_OUTPUT);
}

/** Progress of the history build on standard error (in place on a terminal). */
const progress = new ProgressLine(process.stderr);

function buildHistory(): Block[] {
  const blocks: Block[] = [];
  let below = new Map<number, BlockHeader>();
  for (const chainId of CHAINS) {
    const genesis = testGenesis(chainId);
    blocks.push(genesis);
    below.set(chainId, genesis.header);
  }
  for (let height = 1; height <= HEIGHTS; height++) {
    const layer = new Map<number, BlockHeader>();
    for (const chainId of CHAINS) {
      const payload = payloadFor(chainId, height);
      const block = braidedChild(below.get(chainId)!, below, { payload });
      blocks.push(block);
      layer.set(chainId, block.header);
      if (chainId === 0 && height % 50 === 0) {
        blocks.push(braidedChild(below.get(chainId)!, below, { nonce: 1n, payload }));
      }
    }
    below = layer;
    progress.update(`building the history: height ${height} of ${HEIGHTS}`);
  }
  progress.done(`built ${HEIGHTS} heights on ${CHAINS.length} chains`);
  return blocks;
}

/**
 * Runs `run` (which returns how many items it handled) and returns "N/s" per wall-clock second and per
 * CPU second of this process: on a busy machine the second is the steadier figure.
 */
function rate(run: () => number): string {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const count = run();
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return `${fmt(count / wall)}/s wall, ${fmt(count / cpuSeconds)}/s CPU`;
}

const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

/** Runs `page` `rounds` times and returns `rounds`. */
function repeat(rounds: number, page: () => void): number {
  for (let i = 0; i < rounds; i++) page();
  return rounds;
}

const dir = mkdtempSync(join(tmpdir(), "braid-bench-chain-db-"));
try {
  let built: Block[] = [];
  const building = rate(() => {
    built = buildHistory();
    return built.length;
  });
  console.log(`history: ${fmt(built.length)} blocks built (${building}, codec and hashing)`);

  const db = new ChainDatabase(join(dir, "chain.sqlite"), DEVELOPMENT);
  const inserting = rate(() => {
    for (let i = 0; i < built.length; i += INSERT_BATCH) {
      db.insertBlocks(built.slice(i, i + INSERT_BATCH));
    }
    return built.length;
  });
  console.log(`insert: ${inserting} blocks (file, WAL, ${INSERT_BATCH} per transaction)`);

  // Deterministic pseudo-random chains and heights.
  let seed = 12345;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const ROUNDS = 1000;
  const somewhere = () => ({ minheight: random(HEIGHTS - PAGE), limit: PAGE });
  const anyChain = () => random(CHAINS.length);

  const reading = rate(() => repeat(ROUNDS, () => blockPage(db, anyChain(), somewhere())));
  console.log(`block pages of ${PAGE}, read and decoded: ${reading} pages`);

  let bytes = 0;
  const rendering = rate(() =>
    repeat(ROUNDS, () => {
      const page = blockPage(db, anyChain(), somewhere());
      const json = JSON.stringify({
        limit: page.limit,
        items: page.items.map((block) => ({
          header: encodeHeaderObject(block.header),
          payloadWithOutputs: encodePayloadWithOutputsObject(block.payload),
        })),
        next: page.next,
      });
      bytes += json.length;
    }),
  );
  console.log(
    `block pages of ${PAGE}, as endpoint JSON: ${rendering} pages (${fmt(bytes / ROUNDS / 1024)} KiB each)`,
  );

  const following = rate(() => {
    let pages = 0;
    for (const chainId of CHAINS) {
      let page = blockPage(db, chainId, { limit: PAGE });
      pages++;
      while (page.limit > 0 && page.next !== null) {
        page = blockPage(db, chainId, { limit: PAGE, next: parseCursor(page.next) });
        pages++;
      }
    }
    return pages;
  });
  console.log(`block pages of ${PAGE}, whole chains by next cursors: ${following} pages`);

  const heads = CHAINS.map((chainId) => db.bestHead(chainId)!);
  const branching = rate(() =>
    repeat(ROUNDS, () => {
      const chainId = anyChain();
      const bounds = { upper: [heads[chainId]!.hash], lower: [] };
      branchPage(db, chainId, bounds, { maxheight: PAGE + random(HEIGHTS - PAGE), limit: PAGE });
    }),
  );
  console.log(`branch pages of ${PAGE} below a chain head: ${branching} pages`);

  const seeking = rate(() =>
    repeat(10 * ROUNDS, () => db.ancestorAt(heads[anyChain()]!.hash, random(HEIGHTS))),
  );
  console.log(`ancestorAt from a chain head: ${seeking} lookups`);

  const cutting = rate(() => repeat(100, () => db.cut()));
  console.log(`cut of ${CHAINS.length} chains: ${cutting}`);
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
