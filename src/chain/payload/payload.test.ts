import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url, sha512t256 } from "../../crypto/index.ts";
import { merkleNode } from "../merkle/tree.ts";
import { mainnetBlocks, mainnetPayloads, vectorsSkip } from "../test-support/vectors.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "./constants.ts";
import { decodePayloadDataObject, decodePayloadWithOutputsObject } from "./json.ts";
import {
  makePayloadData,
  makePayloadWithOutputs,
  outputsHash,
  payloadDataOf,
  payloadHash,
  payloadHashMismatches,
  transactionsHash,
} from "./payload.ts";

const b64 = encodeBase64Url;
const utf8 = (s: string) => new TextEncoder().encode(s);
const concat = (...parts: Uint8Array[]) => new Uint8Array(parts.flatMap((p) => [...p]));

describe("payload hashes of mainnet payloads", {
  skip: vectorsSkip("mainnet-payloads.json", "mainnet-blocks.json"),
}, () => {
  const vectors = mainnetPayloads();
  const withOutputs = [
    vectors.emptyPayload,
    vectors.payloadWithTransactions,
    ...mainnetBlocks().page.items.map((i) => i.payloadWithOutputs),
  ];
  it("recomputes transactionsHash, outputsHash and payloadHash of every payload with outputs", () => {
    for (const json of withOutputs) {
      const p = decodePayloadWithOutputsObject(json);
      const txs = p.transactions.map((t) => t.transaction);
      const outs = p.transactions.map((t) => t.output);
      assert.equal(b64(transactionsHash(p.minerData, txs)), json.transactionsHash);
      assert.equal(b64(outputsHash(p.coinbase, outs)), json.outputsHash);
      assert.equal(b64(payloadHash(p.transactionsHash, p.outputsHash)), json.payloadHash);
      const rebuilt = makePayloadWithOutputs(p.transactions, p.minerData, p.coinbase);
      assert.deepEqual(rebuilt, p);
      assert.deepEqual(payloadHashMismatches(p), []);
    }
  });
  it("recomputes the hashes of every payload without outputs", () => {
    for (const json of vectors.payloads) {
      const p = decodePayloadDataObject(json);
      assert.equal(b64(transactionsHash(p.minerData, p.transactions)), json.transactionsHash);
      assert.deepEqual(makePayloadData(p.transactions, p.minerData, p.outputsHash), p);
      assert.deepEqual(payloadHashMismatches(p), []);
    }
  });
  it("matches the payload hash in the block's header", () => {
    for (const item of mainnetBlocks().page.items) {
      assert.equal(item.payloadWithOutputs.payloadHash, item.blockHeader["payloadHash"]);
    }
  });
  it("names each hash that does not match", () => {
    const p = decodePayloadWithOutputsObject(vectors.payloadWithTransactions);
    const changedOutput = {
      ...p,
      transactions: [{ transaction: p.transactions[0]!.transaction, output: utf8("{}") }],
    };
    assert.deepEqual(payloadHashMismatches(changedOutput), ["outputsHash"]);
    assert.deepEqual(payloadHashMismatches({ ...p, minerData: utf8("{}") }), ["transactionsHash"]);
    assert.deepEqual(payloadHashMismatches({ ...p, payloadHash: p.outputsHash }), ["payloadHash"]);
    assert.deepEqual(payloadHashMismatches(payloadDataOf(p)), []);
  });
});

describe("empty payloads", () => {
  it("has the NoMiner miner data and the no-coinbase output of Chainweb", () => {
    assert.equal(
      new TextDecoder().decode(NO_MINER_DATA),
      '{"account":"NoMiner","predicate":"<","public-keys":[]}',
    );
    assert.equal(
      b64(NO_MINER_DATA),
      "eyJhY2NvdW50IjoiTm9NaW5lciIsInByZWRpY2F0ZSI6IjwiLCJwdWJsaWMta2V5cyI6W119",
    );
    assert.match(new TextDecoder().decode(NO_COINBASE_OUTPUT), /"data":"NO_COINBASE"/);
  });
  it("hashes a payload without transactions from two single-leaf trees", () => {
    const p = makePayloadWithOutputs([], NO_MINER_DATA, NO_COINBASE_OUTPUT);
    const txs = sha512t256(concat(new Uint8Array([0, 0, 0x17]), NO_MINER_DATA));
    const outs = sha512t256(concat(new Uint8Array([0, 0, 0x18]), NO_COINBASE_OUTPUT));
    assert.deepEqual(p.transactionsHash, txs);
    assert.deepEqual(p.outputsHash, outs);
    assert.deepEqual(p.payloadHash, merkleNode(txs, outs));
  });
});
