import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ParsedCommand } from "../command/index.ts";
import { SoftwareAuthenticator } from "../command/test-support/authenticator.ts";
import { JsonNumber } from "../pact/values/index.ts";
import { makeLogger } from "./logger.ts";
import { ADMISSION_GATHER_MS } from "./miner/modes.ts";
import { BraidNode, stateFile } from "./node.ts";
import { resolveNodeOptions } from "./options.ts";
import {
  blocksAfterGenesis,
  cap,
  devCommand,
  devTransfer,
  GAS_CAP,
  manualNode,
} from "./test-support/dev-node.ts";

async function balance(node: BraidNode, account: string): Promise<string> {
  const text = await node.commands.local(
    0,
    devCommand({
      code: `(coin.get-balance "${account}")`,
      nonce: `b-${Math.random()}`,
    }),
    {
      preflight: false,
      rewindDepth: 0n,
    },
  );
  return JSON.stringify(JSON.parse(text).result.data);
}

describe("BraidNode", () => {
  it("mines a transfer and reports its result with the block's metaData", async () => {
    const node = manualNode();
    try {
      const tx = devTransfer("1.0", "t1");
      node.commands.submit(0, [tx]);
      const block = node.producer.mine(0);
      assert.deepEqual(block.requestKeys, [tx.hash]);
      const result = JSON.parse(node.commands.result(0, tx.hashBytes)!);
      assert.equal(result.result.data, "Write succeeded");
      assert.equal(result.metaData.blockHeight, block.header.height);
      assert.equal(await balance(node, "sender01"), "110000001");
    } finally {
      node.close();
    }
  });

  it("without mining (none), makes no block of its own: commands wait in the mempool", async () => {
    const node = manualNode({ mining: "none" });
    try {
      assert.equal(node.commands.minesOnRequest, false);
      assert.equal(node.minesWithNonces, false);
      const tx = devTransfer("1.0", "none");
      node.commands.submit(0, [tx]);
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(
        node.chains.map((c) => c.head.height),
        node.chains.map(() => 0),
      );
      assert.equal(node.chains[0]!.mempool.has(tx.hash), true);
    } finally {
      node.close();
    }
  });

  it("follows a heavier competing branch: state rewound and replayed, the orphaned command back in the mempool", async () => {
    const a = manualNode();
    const b = manualNode();
    try {
      assert.deepEqual(a.chains[0]!.head.hash, b.chains[0]!.head.hash, "the same genesis");
      const tx = devTransfer("2.5", "fork");
      a.commands.submit(0, [tx]);
      a.producer.mine(0);
      assert.equal(await balance(a, "sender01"), "110000002.5");
      for (let i = 0; i < 3; i++) b.producer.mine(0);
      const before = a.chains[0]!.head;
      const reorgs: [number, Uint8Array, Uint8Array][] = [];
      let cuts = 0;
      a.events.on("reorg", (chainId, from, to) => reorgs.push([chainId, from.hash, to.hash]));
      a.events.on("cut", () => cuts++);
      a.insertBlocks(blocksAfterGenesis(b));
      assert.deepEqual(a.chains[0]!.head.hash, b.chains[0]!.head.hash);
      assert.deepEqual(
        reorgs.filter(([chainId]) => chainId === 0),
        [[0, before.hash, b.chains[0]!.head.hash]],
      );
      assert.equal(cuts, 1, "one new cut for the batch");
      assert.deepEqual(a.cut().get(0)!.hash, b.chains[0]!.head.hash);
      assert.equal(await balance(a, "sender01"), "110000000");
      assert.equal(a.commands.result(0, tx.hashBytes), null);
      assert.equal(a.chains[0]!.mempool.has(tx.hash), true);
      a.producer.mine(0);
      assert.equal(await balance(a, "sender01"), "110000002.5");
      assert.equal(JSON.parse(a.commands.result(0, tx.hashBytes)!).metaData.blockHeight, 4);
    } finally {
      a.close();
      b.close();
    }
  });

  it("under on-demand mining, mines again the command a competing branch took back to the mempool", async () => {
    const a = manualNode({ mining: "on-demand" });
    const b = manualNode();
    try {
      const tx = devTransfer("2.5", "fork on demand");
      const minedAt = async () => {
        for (let turn = 0; turn < 1_000; turn++) {
          const result = a.commands.result(0, tx.hashBytes);
          if (result !== null)
            return (JSON.parse(result) as { metaData: { blockHeight: number } }).metaData
              .blockHeight;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return null;
      };
      a.commands.submit(0, [tx]);
      // At height 2: an empty block of now first (the genesis blocks are older than a command may be).
      assert.equal(await minedAt(), 2);
      for (let i = 0; i < 3; i++) b.producer.mineAll();
      a.insertBlocks(blocksAfterGenesis(b));
      assert.equal(a.chains[0]!.mempool.has(tx.hash), true);
      assert.equal(await minedAt(), 4);
    } finally {
      a.close();
      b.close();
    }
  });

  it("replays the stored blocks a missing state file lacks, showing progress on the log", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-replay-"));
    try {
      const options = resolveNodeOptions({ dataDir: dir, mining: "none" }, {});
      const first = BraidNode.open(options, makeLogger("error"));
      for (let i = 0; i < 3; i++) first.producer.mine(0);
      const head = first.chains[0]!.head;
      first.close();
      for (const suffix of ["", "-wal", "-shm"]) {
        rmSync(join(dir, `${stateFile(0)}${suffix}`), { force: true });
      }
      const lines: string[] = [];
      const reopened = BraidNode.open(
        options,
        makeLogger("info", { isTTY: false, write: (text) => lines.push(text) }),
      );
      try {
        assert.deepEqual(reopened.chains[0]!.head.hash, head.hash);
        assert.equal(lines[0], "replaying stored blocks: 1 of 3 (chain 0)\n");
        assert.match(lines.at(-1)!, /^replayed 3 stored blocks in [0-9]+\.[0-9] s\n$/);
        assert.equal(lines.length, 2, "plain progress lines are throttled");
      } finally {
        reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("mines a transfer signed by a passkey (WebAuthn), and a second node replays its block", async () => {
    const a = manualNode();
    const b = manualNode();
    try {
      const passkey = new SoftwareAuthenticator("ES256");
      const keyset = `{"ks":{"keys":["${passkey.publicKey}"],"pred":"keys-all"}}`;
      const funding = devCommand({
        code: '(coin.transfer-create "sender00" "passkey-user" (read-keyset "ks") 10.0)',
        data: keyset,
        caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "passkey-user", new JsonNumber("10.0"))],
        nonce: "fund",
      });
      const spend = devCommand({
        code: '(coin.transfer "passkey-user" "sender01" 1.0)',
        caps: [GAS_CAP, cap("coin.TRANSFER", "passkey-user", "sender01", new JsonNumber("1.0"))],
        nonce: "spend",
        passkeyAccount: { name: "passkey-user", passkey },
      });
      a.commands.submit(0, [funding]);
      a.producer.mine(0);
      a.commands.submit(0, [spend]);
      const block = a.producer.mine(0);
      assert.deepEqual(block.requestKeys, [spend.hash]);
      const result = JSON.parse(a.commands.result(0, spend.hashBytes)!);
      assert.equal(result.result.status, "success");
      assert.equal(result.result.data, "Write succeeded");
      assert.equal(await balance(a, "sender01"), "110000001");
      b.insertBlocks(blocksAfterGenesis(a));
      assert.deepEqual(b.chains[0]!.head.hash, a.chains[0]!.head.hash);
      assert.equal(JSON.parse(b.commands.result(0, spend.hashBytes)!).result.status, "success");
    } finally {
      a.close();
      b.close();
    }
  });

  it("on demand, a command whose check is under way joins the block the chain could make now", async () => {
    const node = manualNode({ mining: "on-demand" });
    try {
      const first = devTransfer("1.0", "first");
      const second = devTransfer("2.0", "second");
      let checked: (commands: ParsedCommand[]) => void = () => {};
      const checking = node.commands.admitting(
        0,
        () => new Promise<ParsedCommand[]>((resolve) => (checked = resolve)),
      );
      node.commands.submit(0, [first]);
      node.commands.commandsArrived(0);
      // One turn: mining's turn, queued first, has run, and no timer (the gathering's limit)
      // can have fired yet, however busy the machine.
      await turns(1);
      assert.equal(
        node.commands.result(0, first.hashBytes),
        null,
        "mined while a check was under way",
      );
      checked([second]);
      node.commands.submit(0, await checking);
      node.commands.commandsArrived(0);
      await turns(20);
      const height = (command: ParsedCommand) =>
        JSON.parse(node.commands.result(0, command.hashBytes)!).metaData.blockHeight;
      assert.equal(height(second), height(first));
    } finally {
      node.close();
    }
  });

  it(`on demand, a block waits at most ${ADMISSION_GATHER_MS} ms for a check under way`, async () => {
    const node = manualNode({ mining: "on-demand" });
    try {
      const first = devTransfer("1.0", "first");
      const checking = node.commands.admitting(0, () => new Promise<void>(() => {}));
      node.commands.submit(0, [first]);
      node.commands.commandsArrived(0);
      // The check never ends, yet the block comes (polled: a loaded machine runs timers late).
      const due = Date.now() + 2_000;
      while (node.commands.result(0, first.hashBytes) === null && Date.now() < due) {
        await new Promise((resolve) => setTimeout(resolve, ADMISSION_GATHER_MS + 20));
        await turns(20);
      }
      assert.equal(JSON.parse(node.commands.result(0, first.hashBytes)!).result.status, "success");
      void checking;
    } finally {
      node.close();
    }
  });
});

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
