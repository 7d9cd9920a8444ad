import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Block } from "../chain/db/index.ts";
import {
  encodeCommandPayload,
  type ParsedCommand,
  parseCommand,
  type SigCapability,
  signCommand,
} from "../command/index.ts";
import { decodeHex } from "../crypto/index.ts";
import { JsonNumber, parseJson } from "../pact/values/index.ts";
import { DEV_ACCOUNTS } from "./genesis/accounts.ts";
import { makeLogger } from "./logger.ts";
import { BraidNode } from "./node.ts";
import { resolveNodeOptions } from "./options.ts";

/** A node whose blocks are made only when the test says so (interval mode, one a day). */
function manualNode(): BraidNode {
  const options = resolveNodeOptions(
    { inMemory: true, mining: "interval", miningInterval: 86_400 },
    {},
  );
  return BraidNode.open(options, makeLogger("error"));
}

const sender00 = DEV_ACCOUNTS[0]!;

function command(
  code: string,
  clist: SigCapability[],
  nonce: string,
  chainId = "0",
): ParsedCommand {
  const payload = {
    payload: { kind: "exec" as const, code, data: parseJson("{}") },
    meta: {
      kind: "public" as const,
      creationTime: Math.floor(Date.now() / 1000) - 10,
      ttl: 3600,
      gasLimit: 2000,
      chainId,
      gasPrice: new JsonNumber("0.00000001"),
      sender: "sender00",
    },
    signers: [{ pubKey: sender00.publicKey, scheme: null, addr: null, clist }],
    verifiers: null,
    networkId: "development",
    nonce,
  };
  const keys = [
    { publicKey: decodeHex(sender00.publicKey), secretKey: decodeHex(sender00.secretKey) },
  ];
  const parsed = parseCommand(signCommand(encodeCommandPayload(payload), keys, "blake2b"));
  assert.ok(parsed.ok);
  return parsed.command;
}

function transfer(amount: string, nonce: string): ParsedCommand {
  return command(
    `(coin.transfer "sender00" "sender01" ${amount})`,
    [
      { name: "coin.GAS", args: [] },
      { name: "coin.TRANSFER", args: ["sender00", "sender01", new JsonNumber(amount)] },
    ],
    nonce,
  );
}

function balance(node: BraidNode, account: string): string {
  const text = node.local(0, command(`(coin.get-balance "${account}")`, [], `b-${Math.random()}`), {
    preflight: false,
    rewindDepth: 0,
  });
  return JSON.stringify(JSON.parse(text).result.data);
}

/** Every block of a node after genesis, parents before children. */
function blocksAfterGenesis(node: BraidNode): Block[] {
  const blocks: Block[] = [];
  const top = Math.max(...node.chains.map((c) => c.head.height));
  for (let height = 1; height <= top; height++) {
    for (const chain of node.chains) {
      for (const header of node.chainDb.headersAtHeight(chain.chainId, height)) {
        blocks.push(node.chainDb.block(header.hash)!);
      }
    }
  }
  return blocks;
}

describe("BraidNode", () => {
  it("mines a transfer and reports its result with the block's metaData", () => {
    const node = manualNode();
    try {
      const tx = transfer("1.0", "t1");
      node.submit(0, [tx]);
      const block = node.producer.mine(0);
      assert.deepEqual(block.requestKeys, [tx.hash]);
      const result = JSON.parse(node.result(0, tx.hashBytes)!);
      assert.equal(result.result.data, "Write succeeded");
      assert.equal(result.metaData.blockHeight, block.header.height);
      assert.equal(balance(node, "sender01"), "110000001");
    } finally {
      node.close();
    }
  });

  it("follows a heavier competing branch: state rewound and replayed, the orphaned command back in the mempool", () => {
    const a = manualNode();
    const b = manualNode();
    try {
      assert.deepEqual(a.chains[0]!.head.hash, b.chains[0]!.head.hash, "the same genesis");
      const tx = transfer("2.5", "fork");
      a.submit(0, [tx]);
      a.producer.mine(0);
      assert.equal(balance(a, "sender01"), "110000002.5");
      for (let i = 0; i < 3; i++) b.producer.mine(0);
      a.insertBlocks(blocksAfterGenesis(b));
      assert.deepEqual(a.chains[0]!.head.hash, b.chains[0]!.head.hash);
      assert.equal(balance(a, "sender01"), "110000000");
      assert.equal(a.result(0, tx.hashBytes), null);
      assert.equal(a.chains[0]!.mempool.has(tx.hash), true);
      a.producer.mine(0);
      assert.equal(balance(a, "sender01"), "110000002.5");
      assert.equal(JSON.parse(a.result(0, tx.hashBytes)!).metaData.blockHeight, 4);
    } finally {
      a.close();
      b.close();
    }
  });
});
