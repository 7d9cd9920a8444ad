/**
 * Importing blocks: a block is stored only once its header is valid, its payload matches its
 * hashes and executing it gives the outputs it holds (a block this node produced: once its header
 * is valid); a refused block leaves nothing behind and the node restarts cleanly.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it, mock } from "node:test";
import Database from "better-sqlite3";
import type { Block } from "../../chain/db/index.ts";
import { payloadChecksum } from "../../chain/db/payload-log.ts";
import { adjacentChains } from "../../chain/graph/graph.ts";
import { makePayloadWithOutputs } from "../../chain/payload/payload.ts";
import { graphAt } from "../../chain/version/version.ts";
import { JsonNumber } from "../../pact/values/index.ts";
import { transactionBytes } from "../executor/block/block-executor.ts";
import { DEV_ACCOUNTS } from "../genesis/accounts.ts";
import { makeLogger } from "../logger.ts";
import { BraidNode, stateFile } from "../node.ts";
import { resolveNodeOptions } from "../options.ts";
import {
  blocksAfterGenesis,
  cap,
  devCommand,
  GAS_CAP,
  manualNode,
} from "../test-support/dev-node.ts";
import { reheader, withOtherOutput } from "../test-support/lying-blocks.ts";
import { ImportError, type ImportErrorCode } from "./import-error.ts";

const utf8 = new TextEncoder();
const text = new TextDecoder();

function refusal(node: BraidNode, blocks: readonly Block[]): [ImportErrorCode, string] {
  try {
    node.insertBlocks(blocks);
  } catch (e) {
    if (e instanceof ImportError) return [e.code, e.reason];
    throw e;
  }
  assert.fail("the import was not refused");
}

describe("importing blocks", () => {
  let source: BraidNode;
  let transfer: Block;
  /** The blocks the transfer's block needs first (a fresh parent and its neighbours). */
  let needed: Block[];
  /** A batch: the blocks `last` needs, then `last`. */
  const batch = (last: Block) => [...needed, last];
  /**
   * Whether the last of `blocks` (the refused one) is not stored in `node` while the valid blocks
   * before it, which extend the node's heads, are: each block is its own.
   */
  const onlyValidStored = (node: BraidNode, blocks: readonly Block[]) =>
    node.chainDb.header(blocks.at(-1)!.header.hash) === undefined &&
    blocks.slice(0, -1).every(({ header }) => node.chainDb.header(header.hash) !== undefined);

  before(() => {
    source = manualNode();
    const command = devCommand({
      code: '(coin.transfer "sender00" "sender01" 1.0)',
      caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
      nonce: "import-transfer",
    });
    source.commands.submit(0, [command]);
    const header = source.producer.mine(0).header;
    transfer = source.chainDb.block(header.hash)!;
    needed = blocksAfterGenesis(source).filter((b) => b.header.height < header.height);
    assert.ok(needed.length > 0, "a fresh parent and its neighbours came first");
  });
  after(() => source.close());

  it("refuses a block whose outputs differ from its execution, storing it nowhere, and the node restarts cleanly", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-import-"));
    const options = resolveNodeOptions({ dataDir: dir, mining: "none" }, {});
    try {
      const node = BraidNode.open(options, makeLogger("error"));
      const lying = batch(withOtherOutput(source, transfer, "Write succeeded", "Write succeeded!"));
      assert.deepEqual(refusal(node, lying), [
        "outputs-mismatch",
        "the output of transaction 0 differs",
      ]);
      assert.ok(onlyValidStored(node, lying), "the refused block is stored nowhere");
      assert.deepEqual(node.chains[0]!.head.hash, transfer.header.parent, "not past its parent");
      node.close();
      const reopened = BraidNode.open(options, makeLogger("error"));
      try {
        assert.deepEqual(reopened.chains[0]!.head.hash, transfer.header.parent);
        assert.ok(onlyValidStored(reopened, lying));
        reopened.insertBlocks(batch(transfer));
        assert.deepEqual(
          reopened.chains[0]!.head.hash,
          transfer.header.hash,
          "the true one imports",
        );
      } finally {
        reopened.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a payload that does not match its hashes or the header's", () => {
    const node = manualNode();
    try {
      const { header, payload } = transfer;
      const changed = payload.transactions.map((t) => ({
        ...t,
        output: utf8.encode("{}"),
      }));
      const unhashed = batch({
        header,
        payload: { ...payload, transactions: changed },
      });
      assert.deepEqual(refusal(node, unhashed), [
        "payload-mismatch",
        "the payload does not match outputsHash",
      ]);
      const other = makePayloadWithOutputs(changed, payload.minerData, payload.coinbase);
      assert.deepEqual(refusal(node, batch({ header, payload: other })), [
        "payload-mismatch",
        "the payload does not match the header's payloadHash",
      ]);
      assert.ok(onlyValidStored(node, unhashed));
    } finally {
      node.close();
    }
  });

  it("refuses a header without a known parent, and a coinbase other than execution gives", () => {
    const node = manualNode();
    try {
      const orphan = { ...transfer.header, parent: new Uint8Array(32) };
      const [code, reason] = refusal(node, batch({ ...transfer, header: orphan }));
      assert.equal(code, "invalid-header");
      assert.match(reason, /parent/);
      const { payload } = transfer;
      const coinbase = text.decode(payload.coinbase).replace('"gas":0', '"gas":1');
      assert.notEqual(coinbase, text.decode(payload.coinbase));
      const stolen = makePayloadWithOutputs(
        payload.transactions,
        payload.minerData,
        utf8.encode(coinbase),
      );
      const lying = batch({
        header: reheader(source, transfer.header, stolen.payloadHash),
        payload: stolen,
      });
      assert.deepEqual(refusal(node, lying), ["outputs-mismatch", "the coinbase differs"]);
      assert.ok(onlyValidStored(node, lying));
      assert.equal(node.chains[0]!.head.height, transfer.header.height - 1);
    } finally {
      node.close();
    }
  });

  it("refuses a block created after the node's clock, whether it extends the head or forks, and takes it once the clock passed its time", () => {
    const day = 86_400;
    const first = needed.find((b) => b.header.chainId === 0)!;
    assert.equal(first.header.height, 1);
    const extending = manualNode();
    const forking = manualNode();
    try {
      const creationTime = extending.clock.nowMicros() + day * 1_000_000;
      const postdated = {
        ...first,
        header: reheader(source, first.header, first.header.payloadHash, creationTime),
      };
      const reason = `creation time ${creationTime} µs is ahead of this node's clock by more than 999 µs`;
      // On top of the head (each block stored as it is checked) …
      assert.deepEqual(refusal(extending, [postdated]), ["block-in-the-future", reason]);
      assert.equal(extending.chainDb.header(postdated.header.hash), undefined);
      assert.equal(extending.chains[0]!.head.height, 0);
      // … and on a fork (checked whole before anything is stored).
      const own = forking.producer.mine(0).header;
      assert.deepEqual(refusal(forking, [postdated]), ["block-in-the-future", reason]);
      assert.equal(forking.chainDb.header(postdated.header.hash), undefined);
      assert.deepEqual(forking.chains[0]!.head.hash, own.hash);
      // The node's clock is the one read, the development offset included: a day and a minute
      // later the same block is valid.
      for (const node of [extending, forking]) node.clock.advance(day + 60);
      extending.insertBlocks([postdated]);
      assert.deepEqual(extending.chains[0]!.head.hash, postdated.header.hash);
      forking.insertBlocks([postdated]);
      assert.notEqual(forking.chainDb.header(postdated.header.hash), undefined);
    } finally {
      extending.close();
      forking.close();
    }
  });

  it("refuses a produced block whose header is invalid, aborting its state and storing nothing", () => {
    const node = manualNode();
    try {
      const chain = node.chains[0]!;
      const parent = chain.head;
      const neighbours = adjacentChains(graphAt(node.version, parent.height + 1), 0);
      const adjacentParents = new Map(neighbours.map((n) => [n, node.chains[n]!.head] as const));
      // Made at its parents' own time (the genesis blocks share one): the chain core refuses it.
      const t = parent.creationTime;
      const block = chain.prepareBlock([], adjacentParents, t);
      const reason = [
        `creation time ${t} is not after the parent's ${t}`,
        ...neighbours.map(
          (n) => `creation time ${t} is not after the adjacent parent's ${t} on chain ${n}`,
        ),
      ].join("; ");
      assert.throws(
        () => node.importer.storeProduced([{ chain, block }]),
        (e) => e instanceof ImportError && e.code === "invalid-header" && e.reason === reason,
      );
      assert.equal(node.chainDb.header(block.header.hash), undefined, "nothing stored");
      assert.equal(chain.head, parent, "the chain did not move");
      assert.equal(chain.state.blockOpen, false, "the block's state was aborted");
      assert.equal(node.producer.mine(0).header.height, parent.height + 1, "the next one stores");
    } finally {
      node.close();
    }
  });

  it("refuses a block holding a command already on its branch, twice, or for another chain, whether it extends the head or forks", () => {
    const from = manualNode();
    const node = manualNode();
    try {
      from.insertBlocks(batch(transfer));
      const next = from.chainDb.block(from.producer.mine(0).header.hash)!;
      const before = blocksAfterGenesis(from).filter((b) => b.header.height <= next.header.height);
      const requestKey = (bytes: Uint8Array) => JSON.parse(text.decode(bytes)).hash as string;
      const held = transfer.payload.transactions[0]!;
      /** `next` holding `transactions` instead (its outputs are never reached). */
      const holding = (transactions: typeof transfer.payload.transactions): Block => {
        const payload = makePayloadWithOutputs(
          transactions,
          next.payload.minerData,
          next.payload.coinbase,
        );
        return {
          header: reheader(from, next.header, payload.payloadHash),
          payload,
        };
      };
      const again = holding([held]);
      const alreadyOnChain = [
        "invalid-command",
        `transaction 0 (${requestKey(held.transaction)}): Transaction already exists on chain`,
      ];
      node.insertBlocks(
        before.filter((b) => b.header.height < next.header.height || b.header.chainId !== 0),
      );
      assert.deepEqual(node.chains[0]!.head.hash, transfer.header.hash);
      assert.deepEqual(refusal(node, [again]), alreadyOnChain, "extending the head");
      const fresh = devCommand({
        code: "(+ 1 2)",
        caps: [GAS_CAP],
        nonce: "import-twice",
      });
      const freshTx = {
        transaction: transactionBytes(fresh),
        output: held.output,
      };
      assert.deepEqual(refusal(node, [holding([freshTx, freshTx])]), [
        "invalid-command",
        `transaction 1 (${fresh.hash}): Transaction already exists on chain`,
      ]);
      const elsewhere = devCommand({
        code: "(+ 1 2)",
        caps: [GAS_CAP],
        nonce: "import-chain-1",
        chainId: "1",
      });
      const elsewhereTx = {
        transaction: transactionBytes(elsewhere),
        output: held.output,
      };
      assert.deepEqual(refusal(node, [holding([elsewhereTx])]), [
        "invalid-command",
        `transaction 0 (${elsewhere.hash}): Wrong chain, expected: 0, actual: 1`,
      ]);
      node.insertBlocks([next]);
      assert.deepEqual(refusal(node, [again]), alreadyOnChain, "a fork beside the head");
      assert.equal(node.chainDb.header(again.header.hash), undefined, "stored nowhere");
    } finally {
      node.close();
      from.close();
    }
  });

  it("takes a private command in a block from elsewhere only when a key of this node's entity signed it", () => {
    const from = manualNode();
    const trusting = manualNode();
    const other = manualNode({ entityKeys: [DEV_ACCOUNTS[1]!.publicKey] });
    try {
      const command = devCommand({
        code: "(+ 1 2)",
        nonce: "import-private",
        privateMeta: {
          kind: "private",
          address: { from: "Alice", to: ["Bob"] },
        },
      });
      from.commands.submit(0, [command]);
      const block = from.producer.mine(0);
      assert.deepEqual(block.requestKeys, [command.hash], "mined by its own node");
      const blocks = blocksAfterGenesis(from);
      trusting.insertBlocks(blocks);
      assert.deepEqual(trusting.chains[0]!.head.hash, block.header.hash, "same entity: taken");
      assert.deepEqual(refusal(other, blocks), [
        "invalid-command",
        `transaction 0 (${command.hash}): Private commands must be signed by a key of this node's entity (entityKeys)`,
      ]);
    } finally {
      from.close();
      trusting.close();
      other.close();
    }
  });

  it("a command pending here that the adopted branch holds leaves the mempool and is not mined again", () => {
    const light = manualNode();
    const heavy = manualNode();
    try {
      const command = devCommand({
        code: '(coin.transfer "sender00" "sender01" 1.0)',
        caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("1.0"))],
        nonce: "import-adopted",
      });
      heavy.commands.submit(0, [command]);
      heavy.producer.mine(0);
      for (const c of [0, 5, 10]) heavy.producer.mine(c);
      light.producer.mine(0);
      light.commands.submit(0, [command]);
      const mempool = light.chains[0]!.mempool;
      assert.equal(mempool.has(command.hash), true, "pending on the light side");
      light.insertBlocks(blocksAfterGenesis(heavy));
      assert.deepEqual(
        light.ports.heads.cut(),
        heavy.ports.heads.cut(),
        "the heavy branch adopted",
      );
      assert.equal(mempool.has(command.hash), false, "done on the adopted branch");
      mempool.add([command]);
      assert.deepEqual(light.producer.mine(0).requestKeys, [], "not mined a second time");
      assert.equal(mempool.has(command.hash), false, "dropped when a block was made");
    } finally {
      light.close();
      heavy.close();
    }
  });

  it("a fork's blocks are executed once: their chain takes what their check wrote, the state as a replay leaves it", () => {
    const light = manualNode();
    const heavy = manualNode();
    try {
      const command = devCommand({
        code: '(coin.transfer "sender00" "sender01" 2.5)',
        caps: [GAS_CAP, cap("coin.TRANSFER", "sender00", "sender01", new JsonNumber("2.5"))],
        nonce: "import-fork-once",
      });
      heavy.commands.submit(0, [command]);
      heavy.producer.mine(0);
      for (const c of [0, 5, 10]) heavy.producer.mine(c);
      light.producer.mine(0);
      const state = light.chains[0]!.state;
      const replays = mock.method(state, "replay");
      light.insertBlocks(blocksAfterGenesis(heavy));
      assert.deepEqual(light.ports.heads.cut(), heavy.ports.heads.cut(), "the fork adopted");
      assert.equal(light.chains[0]!.head.height, 3);
      assert.equal(replays.mock.callCount(), 0, "no block of chain 0 executed a second time");
      const other = heavy.chains[0]!.state.db;
      assert.equal(state.db.txId, other.txId, "the transactions' ids go on alike");
      for (const height of [1, 2, 3]) {
        assert.deepEqual(
          state.db.asOf(height).rows("coin_coin-table"),
          other.asOf(height).rows("coin_coin-table"),
          `the accounts after block ${height}`,
        );
      }
      const next = devCommand({
        code: '(coin.transfer "sender01" "sender00" 1.0)',
        account: 1,
        caps: [GAS_CAP, cap("coin.TRANSFER", "sender01", "sender00", new JsonNumber("1.0"))],
        nonce: "after-fork-once",
      });
      for (const node of [light, heavy]) {
        node.commands.submit(0, [next]);
        node.producer.mine(0);
      }
      const outcome = (node: BraidNode) => {
        const { result, gas, events, logs } = JSON.parse(node.commands.result(0, next.hashBytes)!);
        return { result, gas, events, logs };
      };
      assert.equal(outcome(light).result.status, "success");
      assert.deepEqual(outcome(light), outcome(heavy), "the next block gives the same on both");
    } finally {
      mock.restoreAll();
      light.close();
      heavy.close();
    }
  });

  it("announces a block from elsewhere only once it is committed: another connection reads it when its event comes", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-announce-"));
    try {
      const node = BraidNode.open(
        resolveNodeOptions({ dataDir: dir, mining: "none" }, {}),
        makeLogger("error"),
      );
      const reader = new Database(join(dir, "chain.sqlite"), {
        readonly: true,
      });
      try {
        const stored = reader.prepare("SELECT count(*) AS n FROM block_headers WHERE hash = ?");
        const seen: number[] = [];
        node.ports.events.on("block", (_chainId, block) => {
          seen.push((stored.get(block.header.hash) as { n: number }).n);
        });
        node.insertBlocks(batch(transfer));
        assert.deepEqual(
          seen,
          batch(transfer).map(() => 1),
          "every block committed when announced",
        );
      } finally {
        reader.close();
        node.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a stored block whose outputs differ from its replay stops the start with the same code", () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-replay-"));
    const options = resolveNodeOptions({ dataDir: dir, mining: "none" }, {});
    try {
      const node = BraidNode.open(options, makeLogger("error"));
      node.insertBlocks(batch(transfer));
      node.close();
      // The state is gone (replayed on start) and the stored outputs were changed on disk.
      for (const suffix of ["", "-wal", "-shm"]) {
        rmSync(join(dir, `${stateFile(0)}${suffix}`), { force: true });
      }
      const log = join(dir, "chain.sqlite-payloads", "0.log");
      const bytes = readFileSync(log);
      let changed = 0;
      for (
        let at = bytes.indexOf("Write succeeded");
        at >= 0;
        at = bytes.indexOf("Write succeeded", at)
      ) {
        bytes.write("Write succeedeX", at);
        changed++;
      }
      assert.ok(changed > 0, "outputs are in the chain's payload log");
      writeFileSync(log, bytes);
      // Their checksums made to match, so the bytes pass for what was written.
      const chainFile = new Database(join(dir, "chain.sqlite"));
      const rows = chainFile
        .prepare("SELECT id, log_offset, log_length FROM payloads WHERE chain = 0")
        .all() as { id: number; log_offset: number; log_length: number }[];
      const setCrc = chainFile.prepare("UPDATE payloads SET log_crc = ? WHERE id = ?");
      for (const row of rows) {
        const record = bytes.subarray(row.log_offset, row.log_offset + row.log_length);
        setCrc.run(payloadChecksum(record), row.id);
      }
      chainFile.close();
      assert.throws(
        () => BraidNode.open(options, makeLogger("error")),
        (e) =>
          e instanceof ImportError &&
          e.code === "outputs-mismatch" &&
          e.chainId === 0 &&
          e.reason ===
            "replaying the stored block gave other outputs than it holds: the data directory is damaged",
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
