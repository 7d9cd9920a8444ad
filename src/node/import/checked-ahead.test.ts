/**
 * A sync's blocks checked on an execution thread ahead of their import (checked-ahead.ts): the
 * node stores what the thread's check gave and its state takes the check's writes, ending where
 * executing the blocks itself would; a block that is not what it claims is still refused, by the
 * node's own execution, with the blocks before it stored.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Block } from "../../chain/db/index.ts";
import { adjacentChains } from "../../chain/graph/graph.ts";
import { graphAt } from "../../chain/version/version.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import { storedCommand } from "../stored-payload.ts";
import {
  blocksAfterGenesis,
  devCommand,
  devTransfer,
  manualNode,
} from "../test-support/dev-node.ts";
import { withOtherOutput } from "../test-support/lying-blocks.ts";
import { CHECK_AHEAD_MIN_BLOCKS } from "./checked-ahead.ts";
import { ImportError } from "./import-error.ts";

/** Heights of the 20 chains the source makes: 200 blocks and more, above the threshold. */
const HEIGHTS = 10;

const headsOf = (node: BraidNode) =>
  [...node.cut().values()].map((header) => encodeBase64Url(header.hash));

/** What `(coin.get-balance "sender01")` on chain 0 answers on `node`. */
async function balance(node: BraidNode): Promise<unknown> {
  const command = devCommand({ code: '(coin.get-balance "sender01")', nonce: "balance" });
  const answer = await node.commands.local(0, command, { preflight: false, rewindDepth: 0n });
  return JSON.parse(answer).result;
}

describe("a sync's blocks checked on an execution thread ahead of their import", {
  timeout: 60_000,
}, () => {
  let dir: string;
  let source: BraidNode;
  let blocks: Block[];
  /** The blocks holding the source's transfers (chain 0), in the order of `blocks`. */
  let transfers: Block[];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), "braid-checked-ahead-"));
    source = manualNode();
    transfers = [];
    for (let height = 0; height < HEIGHTS; height++) {
      if (height % 3 === 1) {
        source.commands.submit(0, [devTransfer("1.5", `ahead-${height}`)]);
        const { header } = source.producer.mine(0);
        transfers.push(source.chainDb.block(header.hash)!);
      }
      source.producer.mineAll();
    }
    blocks = blocksAfterGenesis(source);
    assert.ok(blocks.length >= CHECK_AHEAD_MIN_BLOCKS, `${blocks.length} blocks`);
    assert.equal(transfers.length, 3);
  });
  after(() => {
    source.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A node with one execution thread on a data directory of its own, its thread started. */
  async function threadedNode(name: string): Promise<BraidNode> {
    const options = resolveNodeOptions(
      { dataDir: join(dir, name), mining: "none", executionThreads: 1 },
      {},
    );
    const node = BraidNode.open(options, makeLogger("error"));
    await node.executionThreadsStarted();
    return node;
  }

  it("stores every block as the thread checked it, and its state ends where the source's is", async () => {
    const node = await threadedNode("whole");
    try {
      await node.ports.sync.importBlocks(blocks);
      // Every block, unless the thread fell quiet for CHECK_WAIT_MS (a loaded machine).
      assert.ok(node.importer.checkedAhead > 0, "blocks checked on the thread");
      assert.deepEqual(headsOf(node), headsOf(source));
      assert.deepEqual(await balance(node), { status: "success", data: 110000004.5 });
      assert.deepEqual(await balance(node), await balance(source));
      // A block made here on the state the checks' writes left.
      node.commands.submit(0, [devTransfer("2.0", "after-sync")]);
      node.producer.mine(0);
      assert.deepEqual(await balance(node), { status: "success", data: 110000006.5 });
    } finally {
      await node.close();
    }
  });

  it("executes the blocks itself when the thread is kept busy: a catch-up is not held up", async () => {
    const node = await threadedNode("busy");
    try {
      const order: string[] = [];
      // Long `local` calls, each about a second of work, pass the sync's runs still waiting: the
      // runs would wait for every one of them.
      const locals = [0, 1, 2, 3].map((i) => {
        const long = devCommand({
          code: "(length (map (lambda (x) (+ x 1)) (enumerate 1 400000)))",
          nonce: `busy ${i}`,
          gasLimit: 150_000,
        });
        return node.commands
          .local(0, long, { preflight: false, rewindDepth: 0n })
          .then(() => order.push(`local ${i}`));
      });
      const imported = node.ports.sync.importBlocks(blocks).then(() => order.push("import"));
      await Promise.all([...locals, imported]);
      assert.ok(order.indexOf("import") < order.indexOf("local 3"), order.join(", "));
      assert.ok(
        node.importer.checkedAhead < blocks.length,
        `${node.importer.checkedAhead} checked`,
      );
      assert.deepEqual(headsOf(node), headsOf(source));
      assert.deepEqual(await balance(node), { status: "success", data: 110000004.5 });
    } finally {
      await node.close();
    }
  });

  it("refuses a block holding a command already on its branch, though its outputs are right", async () => {
    const node = await threadedNode("repeating");
    try {
      // The source's next block on chain 0, holding a transfer of its branch again: made on its
      // state (making a block does not look for repeats; admission does) and not stored there.
      const chain = source.chains[0]!;
      const { height } = chain.head;
      const neighbours = adjacentChains(graphAt(source.version, height + 1), 0);
      const adjacent = new Map(neighbours.map((n) => [n, source.chains[n]!.head] as const));
      const creationTime = Math.max(...source.chains.map((c) => c.head.creationTime)) + 1;
      const repeated = storedCommand(transfers[0]!.payload.transactions[0]!.transaction);
      const made = chain.prepareBlock([repeated], adjacent, creationTime);
      chain.abortPrepared();
      assert.equal(made.payload.transactions.length, 1);
      const repeating = { header: made.header, payload: made.payload };
      await assert.rejects(
        node.ports.sync.importBlocks([...blocks, repeating]),
        (e: unknown) =>
          e instanceof ImportError &&
          e.code === "invalid-command" &&
          e.reason === `transaction 0 (${repeated.hash}): Transaction already exists on chain`,
      );
      assert.equal(node.chainDb.header(made.header.hash), undefined, "stored nowhere");
      assert.deepEqual(headsOf(node), headsOf(source));
    } finally {
      await node.close();
    }
  });

  it("refuses a header whose hash is not its own: the thread's check computes it", async () => {
    const node = await threadedNode("misnamed");
    try {
      const last = blocks.at(-1)!;
      const hash = last.header.hash.slice();
      hash[0] = hash[0]! ^ 1;
      const misnamed = { header: { ...last.header, hash }, payload: last.payload };
      await assert.rejects(
        node.ports.sync.importBlocks([...blocks.slice(0, -1), misnamed]),
        (e: unknown) =>
          e instanceof ImportError &&
          e.code === "invalid-header" &&
          e.reason ===
            `header hash ${encodeBase64Url(hash)} should be ${encodeBase64Url(last.header.hash)}`,
      );
      assert.ok(node.importer.checkedAhead <= blocks.length - 1);
      assert.equal(node.chainDb.header(hash), undefined, "stored nowhere");
    } finally {
      await node.close();
    }
  });

  it("refuses a block whose outputs differ from executing it, the blocks before it stored", async () => {
    const node = await threadedNode("lying");
    try {
      const real = transfers[1]!;
      const lying = withOtherOutput(source, real, "Write succeeded", "Write succeeded!");
      const at = blocks.findIndex(
        (b) => encodeBase64Url(b.header.hash) === encodeBase64Url(real.header.hash),
      );
      assert.ok(at > 0);
      const batch = [...blocks.slice(0, at), lying, ...blocks.slice(at + 1)];
      await assert.rejects(
        node.ports.sync.importBlocks(batch),
        (e: unknown) =>
          e instanceof ImportError &&
          e.code === "outputs-mismatch" &&
          e.reason === "the output of transaction 0 differs",
      );
      assert.equal(
        node.chainDb.header(lying.header.hash),
        undefined,
        "the lying block is stored nowhere",
      );
      for (const { header } of blocks.slice(0, at)) {
        assert.notEqual(node.chainDb.header(header.hash), undefined);
      }
      assert.ok(node.importer.checkedAhead <= at, "only blocks before it taken from checks");
      assert.deepEqual(node.chains[0]!.head.hash, real.header.parent);
    } finally {
      await node.close();
    }
  });
});
