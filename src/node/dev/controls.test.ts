import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { adjacentChains } from "../../chain/graph/graph.ts";
import { graphAt } from "../../chain/version/version.ts";
import type { ParsedCommand } from "../../command/index.ts";
import { encodeHex, keyPairFromSeed } from "../../crypto/index.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import { cap, devCommand, devTransfer, GAS_CAP, manualNode } from "../test-support/dev-node.ts";
import {
  checkFundRequest,
  DevControlRefusal,
  DevControls,
  developmentOnlyProblem,
  MAX_MINE_BLOCKS,
  MINE_SLICE_MS,
} from "./controls.ts";

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function balance(node: BraidNode, account: string, chainId = 0): Promise<string> {
  const text = await node.commands.local(
    chainId,
    devCommand({
      code: `(coin.get-balance "${account}")`,
      nonce: `b-${Math.random()}`,
      chainId: String(chainId),
    }),
    { preflight: false, rewindDepth: 0n },
  );
  return JSON.stringify(JSON.parse(text).result.data);
}

/** The most event-loop turns a test waits for on-demand mining to make a command's block. */
const MAX_TURNS = 1_000;

/** The command's result once on-demand mining has put it in a block (its neighbours first). */
async function minedResult(node: BraidNode, chainId: number, command: ParsedCommand) {
  for (let turn = 0; turn < MAX_TURNS; turn++) {
    const result = node.commands.result(chainId, command.hashBytes);
    if (result !== null) return JSON.parse(result);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`${command.hash} was not mined in ${MAX_TURNS} turns`);
}

describe("development controls", () => {
  it("mine: 100 blocks on chain 3, with what braiding needs on the others", async () => {
    const node = manualNode();
    try {
      const heights = await new DevControls(node).mine(100, [3]);
      assert.deepEqual([...heights], [[3, 100]]);
      const graph = graphAt(node.version, 100);
      for (const n of adjacentChains(graph, 3)) {
        assert.equal(node.chains[n]!.head.height, 99, `neighbour ${n}`);
      }
      // Every chain is within three steps of chain 3, so none is lower than 97.
      assert.equal(Math.min(...node.chains.map((c) => c.head.height)), 97);
      assert.deepEqual(node.chainDb.cut().get(3)!.hash, node.chains[3]!.head.hash);
    } finally {
      node.close();
    }
  });

  it("mine: stops at the next slice once its signal aborts, and makes nothing when it already has", async () => {
    const node = manualNode();
    try {
      const controls = new DevControls(node);
      const gone = new AbortController();
      gone.abort();
      assert.deepEqual([...(await controls.mine(10, [0], gone.signal))], [[0, 0]]);
      const leaving = new AbortController();
      const mining = controls.mine(MAX_MINE_BLOCKS, [0], leaving.signal);
      await new Promise((r) => setTimeout(r, 5 * MINE_SLICE_MS));
      leaving.abort();
      const [[, height]] = [...(await mining)] as [[number, number]];
      assert.ok(height > 0 && height < MAX_MINE_BLOCKS, `stopped at height ${height}`);
    } finally {
      node.close();
    }
  });

  it("mine: refuses a count outside 1 to MAX_MINE_BLOCKS and unknown chains", () => {
    const node = manualNode();
    try {
      const controls = new DevControls(node);
      assert.throws(() => controls.mine(0, [0]), {
        message: `blocks must be an integer from 1 to ${MAX_MINE_BLOCKS}, got 0`,
      });
      assert.throws(() => controls.mine(1, [20]), {
        message: "no such chain: 20; the chains are 0 to 19",
      });
      assert.throws(() => controls.mine(1, [2, 2]), {
        message: "a chain is named twice",
      });
    } finally {
      node.close();
    }
  });

  it("time: a day forward, an old command is expired, a new one is accepted, mined and preflighted", async () => {
    const node = manualNode({ mining: "on-demand" });
    try {
      const controls = new DevControls(node);
      const systemNow = Math.floor(Date.now() / 1000);
      const newTime = systemNow + 86_400;
      // Before: a command created a day ahead is refused as being in the future.
      assert.throws(() => node.commands.submit(0, [devTransfer("1.0", "early", newTime)]), {
        message: /Transaction creation time too far in the future/,
      });
      assert.equal(await controls.advanceTime(86_400), 86_400);
      assert.throws(() => node.commands.submit(0, [devTransfer("1.0", "old")]), {
        message: /Transaction time-to-live is expired/,
      });
      const fresh = devTransfer("1.0", "new", newTime);
      const preflight = JSON.parse(
        await node.commands.local(0, fresh, {
          preflight: true,
          rewindDepth: 0n,
        }),
      ).preflightResult;
      assert.equal(preflight.result.status, "success");
      node.commands.submit(0, [fresh]);
      const result = await minedResult(node, 0, fresh);
      assert.equal(result.result.data, "Write succeeded");
      assert.ok(result.metaData.blockTime >= newTime * 1_000_000, "the block time is a day ahead");
      assert.ok(node.chains[0]!.head.creationTime >= newTime * 1_000_000);
      await assert.rejects(controls.advanceTime(-1), {
        message: "time moves forward only: seconds must be a positive integer, got -1",
      });
    } finally {
      node.close();
    }
  });

  it("snapshot, transfer, revert: the balance is back, the block orphaned, new blocks extend the snapshot, and a restart keeps it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-dev-"));
    dirs.push(dir);
    const open = () =>
      BraidNode.open(resolveNodeOptions({ dataDir: dir, mining: "none" }, {}), makeLogger("error"));
    let node = open();
    let transferBlock: Uint8Array;
    let snapshotHead: Uint8Array;
    try {
      const controls = new DevControls(node);
      await controls.mine(2, [0]);
      const id = await controls.snapshot();
      assert.equal(id, 1);
      snapshotHead = node.chains[0]!.head.hash;
      const tx = devTransfer("7.5", "reverted");
      node.commands.submit(0, [tx]);
      const block = node.producer.mine(0);
      transferBlock = block.header.hash;
      await controls.mine(3, [0]);
      assert.equal(await balance(node, "sender01"), "110000007.5");
      const heavier = node.chains[0]!.head;
      assert.equal(heavier.height, 6);

      const outcome = await controls.revert(id);
      // Chain 0's blocks 3 to 6 and the 66 blocks the other chains made to keep up with them.
      assert.equal(outcome.orphaned, 70);
      assert.deepEqual(node.chains[0]!.head.hash, snapshotHead);
      assert.equal(await balance(node, "sender01"), "110000000");
      assert.equal(node.commands.result(0, tx.hashBytes), null);
      assert.equal(node.chains[0]!.mempool.has(tx.hash), false, "the snapshot did not know it");
      assert.ok(node.chainDb.block(transferBlock) !== undefined, "still stored");
      assert.equal(node.chainDb.isAbandoned(transferBlock), true);

      // The next block extends the snapshot's head though the abandoned branch is heavier.
      const next = node.producer.mine(0);
      assert.deepEqual(next.header.parent, snapshotHead);
      assert.ok(next.header.weight < heavier.weight);
      assert.deepEqual(node.chainDb.cut().get(0)!.hash, next.header.hash);
      await assert.rejects(controls.revert(2), {
        message: "there is no snapshot 2 (a revert deletes later snapshots)",
      });
    } finally {
      node.close();
    }
    node = open();
    try {
      const head = node.chains[0]!.head;
      assert.deepEqual(head.parent, snapshotHead, "the restart kept the reverted head");
      assert.equal(await balance(node, "sender01"), "110000000");
      assert.equal(node.chainDb.isAbandoned(transferBlock), true);
      assert.equal(node.chainDb.block(transferBlock)!.header.height, 3);
    } finally {
      node.close();
    }
  });

  it("revert: commands pending at the snapshot stay, later ones are dropped", async () => {
    const node = manualNode();
    try {
      const controls = new DevControls(node);
      const before = devTransfer("1.0", "pending-before");
      node.commands.submit(0, [before]);
      const id = await controls.snapshot();
      const later = devTransfer("2.0", "pending-after");
      node.commands.submit(0, [later]);
      node.producer.mine(0);
      assert.equal(node.chains[0]!.mempool.size, 0);
      await controls.revert(id);
      assert.equal(node.chains[0]!.mempool.has(before.hash), true);
      assert.equal(node.chains[0]!.mempool.has(later.hash), false);
      assert.equal(node.chains[0]!.mempool.size, 1);
    } finally {
      node.close();
    }
  });

  it("fund: a new account with a new key gets KDA on two chains and spends it with its own key", async () => {
    const node = manualNode({ mining: "on-demand" });
    try {
      const pair = keyPairFromSeed(new Uint8Array(32).fill(7));
      const publicKey = encodeHex(pair.publicKey);
      const account = `k:${publicKey}`;
      const request = checkFundRequest({
        account,
        keys: [publicKey],
        pred: "keys-all",
        amount: "25",
        chains: [0, 5],
      });
      assert.equal(request.amount, "25.0");
      const keys = await new DevControls(node).fund(request);
      assert.deepEqual([...keys.keys()], [0, 5]);
      for (const [chainId, key] of keys) {
        const result = JSON.parse(node.commands.result(chainId, Buffer.from(key, "base64url"))!);
        assert.equal(result.result.status, "success", `chain ${chainId}`);
        assert.equal(await balance(node, account, chainId), "25");
      }
      const signer = {
        name: account,
        publicKey,
        secretKey: encodeHex(pair.secretKey),
      };
      const spend = devCommand({
        code: `(coin.transfer "${account}" "sender02" 5.0)`,
        caps: [GAS_CAP, cap("coin.TRANSFER", account, "sender02", new JsonNumber("5.0"))],
        nonce: "spend",
        signer,
      });
      node.commands.submit(0, [spend]);
      assert.equal((await minedResult(node, 0, spend)).result.status, "success");
      assert.equal(await balance(node, "sender02"), "120000005");
      // 25 funded, 5 sent, 235 gas at 1e-8 paid by the new account.
      assert.equal(await balance(node, account), "19.99999765");
    } finally {
      node.close();
    }
  });

  it("fund: a transfer that would fail is refused before anything is sent", async () => {
    const node = manualNode();
    try {
      const controls = new DevControls(node);
      const other = "ab".repeat(32);
      await assert.rejects(
        controls.fund({
          account: "sender01",
          keys: [other],
          pred: "keys-all",
          amount: "1.0",
          chains: [0],
        }),
        (e: Error) =>
          e instanceof DevControlRefusal &&
          e.message.startsWith("funding sender01 on chain 0 would fail: "),
      );
      assert.equal(node.chains[0]!.mempool.size, 0);
    } finally {
      node.close();
    }
  });

  it("fund: checks the request's form", () => {
    const base = {
      account: "alice",
      keys: ["ab".repeat(32)],
      pred: "keys-all" as const,
      amount: "1.5",
      chains: [0],
    };
    assert.equal(checkFundRequest(base).amount, "1.5");
    assert.throws(() => checkFundRequest({ ...base, amount: "0" }), DevControlRefusal);
    assert.throws(
      () => checkFundRequest({ ...base, amount: "1000000.000000000001" }),
      DevControlRefusal,
    );
    assert.throws(() => checkFundRequest({ ...base, amount: "1e3" }), DevControlRefusal);
    assert.throws(() => checkFundRequest({ ...base, keys: ["AB".repeat(32)] }), {
      message: /a key must be 64 lowercase hex digits/,
    });
    assert.throws(() => checkFundRequest({ ...base, keys: [] }), {
      message: "keys must hold 1 to 32 public keys, got 0",
    });
    assert.throws(() => checkFundRequest({ ...base, account: "al" }), {
      message: "account must be 3 to 256 characters, got 2",
    });
    assert.throws(() => checkFundRequest({ ...base, pred: "keys-some" as "keys-all" }), {
      message: 'pred must be one of keys-all, keys-any, keys-2, got "keys-some"',
    });
  });

  it("serves development networks only", () => {
    assert.equal(developmentOnlyProblem("development"), null);
    assert.equal(
      developmentOnlyProblem("mainnet01"),
      'development controls are refused on "mainnet01": they serve development networks only (development)',
    );
  });

  it("mine is refused in pow mode", () => {
    const node = manualNode({ mining: "pow" });
    try {
      assert.throws(() => new DevControls(node).mine(1, [0]), {
        message:
          "mine is for on-demand and interval mining: in pow mode every block needs its nonce search",
      });
    } finally {
      node.close();
    }
  });
});
