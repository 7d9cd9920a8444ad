/**
 * A sync's import (`importForeignYielding`, the `sync` port's `importBlocks`): the event loop runs
 * between its chain-database transactions, each committed and announced before the turn is given
 * up, and imports asked for together run one after another; and how an import's transactions
 * grow.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import type { Block } from "../../chain/db/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import { blocksAfterGenesis, manualNode } from "../test-support/dev-node.ts";
import { ANNOUNCE_WINDOW_LIMIT_MS } from "./importer.ts";

/** Heights of the 20 chains the source node makes: enough work for several transactions. */
const HEIGHTS = 20;

const headsOf = (node: BraidNode) =>
  [...node.cut().values()].map((header) => encodeBase64Url(header.hash));

/**
 * Runs `check` with a node on files in a fresh data directory (`dir`), a source node's blocks of
 * `heights` heights and their heads.
 */
async function withImport(
  check: (
    node: BraidNode,
    blocks: readonly Block[],
    heads: readonly string[],
    dir: string,
  ) => Promise<void>,
  heights = HEIGHTS,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "braid-importer-"));
  const source = manualNode();
  try {
    for (let height = 0; height < heights; height++) source.producer.mineAll();
    const node = BraidNode.open(
      resolveNodeOptions({ dataDir: dir, mining: "none" }, {}),
      makeLogger("error"),
    );
    try {
      await check(node, blocksAfterGenesis(source), headsOf(source), dir);
    } finally {
      await node.close();
    }
  } finally {
    source.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a sync's import", () => {
  it("lets the event loop run between its transactions, each committed and announced before", () =>
    withImport(async (node, blocks, heads, dir) => {
      const reader = new Database(join(dir, "chain.sqlite"), {
        readonly: true,
      });
      try {
        const stored = reader.prepare("SELECT count(*) AS n FROM block_headers").pluck();
        const genesis = stored.get() as number;
        let announced = 0;
        node.ports.events.on("block", () => announced++);
        // At each turn the event loop gets during the import: what is announced is committed.
        const turns: { announced: number; committed: number }[] = [];
        let importing = true;
        const watch = () => {
          if (!importing) return;
          turns.push({
            announced,
            committed: (stored.get() as number) - genesis,
          });
          setImmediate(watch);
        };
        setImmediate(watch);
        await node.ports.sync.importBlocks(blocks);
        importing = false;
        const between = turns.filter((t) => t.announced > 0 && t.announced < blocks.length);
        assert.ok(between.length >= 2, `turns between transactions: ${JSON.stringify(turns)}`);
        for (const turn of turns) assert.equal(turn.committed, turn.announced);
        assert.equal(announced, blocks.length);
        assert.deepEqual(headsOf(node), heads);
      } finally {
        reader.close();
      }
    }));

  it("runs imports asked for together one after another: the second's blocks extend the first's", () =>
    withImport(async (node, blocks, heads) => {
      const half = blocks.length / 2;
      await Promise.all([
        node.ports.sync.importBlocks(blocks.slice(0, half)),
        node.ports.sync.importBlocks(blocks.slice(half)),
      ]);
      assert.deepEqual(headsOf(node), heads);
    }));
});

describe("an import's transactions", () => {
  it("an import that follows another at once continues its transactions' growth: a sync's next batch is not cut into small commits again", () =>
    // 800 blocks: the first half takes more than the 30 ms of the windows below the longest.
    withImport(async (node, blocks, _heads, dir) => {
      const half = blocks.length / 2;
      const reader = new Database(join(dir, "chain.sqlite"), {
        readonly: true,
      });
      try {
        // Blocks committed together are announced together: the other connection sees the
        // same count of stored blocks at each of their events.
        const count = reader.prepare("SELECT count(*) AS n FROM block_headers").pluck();
        const commits = new Set<number>();
        let firstAnnounced = Number.NaN;
        node.ports.events.on("block", () => {
          commits.add(count.get() as number);
          if (Number.isNaN(firstAnnounced)) firstAnnounced = performance.now();
        });
        node.insertBlocks(blocks.slice(0, half));
        // After four transactions, the window is the longest.
        assert.ok(
          commits.size >= 4,
          `the first import took several transactions (${commits.size})`,
        );
        firstAnnounced = Number.NaN;
        const started = performance.now();
        node.insertBlocks(blocks.slice(half));
        // Continued, its first transaction is as long as the last one before (the longest
        // window, which the first import reached); started again, it would be 2 ms.
        const firstTransaction = firstAnnounced - started;
        assert.ok(
          firstTransaction >= ANNOUNCE_WINDOW_LIMIT_MS,
          `the next import's first transaction took ${firstTransaction.toFixed(1)} ms`,
        );
      } finally {
        reader.close();
      }
    }, 40));
});
