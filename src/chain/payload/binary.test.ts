import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex } from "../../crypto/index.ts";
import { Random } from "../test-support/random.ts";
import { mainnetPayloads, vectorsSkip } from "../test-support/vectors.ts";
import {
  decodePayloadDataBinary,
  decodePayloadWithOutputsBinary,
  encodePayloadDataBinary,
  encodePayloadWithOutputsBinary,
  outputOfPayloadBinary,
  PayloadBinaryError,
} from "./binary.ts";
import { decodePayloadWithOutputsObject } from "./json.ts";
import { makePayloadWithOutputs, payloadDataOf } from "./payload.ts";

describe("binary payloads", () => {
  it("prefixes lengths and counts with u64 big-endian", () => {
    const p = makePayloadWithOutputs(
      [{ transaction: new Uint8Array([0xaa]), output: new Uint8Array([0xbb, 0xcc]) }],
      new Uint8Array([0x01]),
      new Uint8Array([]),
    );
    const bytes = encodePayloadWithOutputsBinary(p);
    assert.equal(
      encodeHex(bytes.subarray(0, bytes.length - 96)),
      "0000000000000001" +
        "0000000000000001aa" +
        "0000000000000002bbcc" +
        "000000000000000101" +
        "0000000000000000",
    );
    assert.deepEqual(bytes.subarray(bytes.length - 96, bytes.length - 64), p.payloadHash);
    assert.deepEqual(bytes.subarray(bytes.length - 32), p.outputsHash);
    const data = encodePayloadDataBinary(payloadDataOf(p));
    assert.equal(
      encodeHex(data.subarray(0, data.length - 96)),
      "0000000000000001" + "0000000000000001aa" + "000000000000000101",
    );
  });
  it("round trips the mainnet payloads and random ones", {
    skip: vectorsSkip("mainnet-payloads.json"),
  }, () => {
    const vectors = mainnetPayloads();
    const payloads = [vectors.emptyPayload, vectors.payloadWithTransactions].map(
      decodePayloadWithOutputsObject,
    );
    const random = new Random(5);
    for (let i = 0; i < 50; i++) {
      const txs = Array.from({ length: random.int(6) }, () => ({
        transaction: random.bytes(random.int(300)),
        output: random.bytes(random.int(300)),
      }));
      payloads.push(makePayloadWithOutputs(txs, random.bytes(50), random.bytes(80)));
    }
    for (const p of payloads) {
      assert.deepEqual(decodePayloadWithOutputsBinary(encodePayloadWithOutputsBinary(p)), p);
      const outputs = p.transactions.map((_, i) =>
        outputOfPayloadBinary(encodePayloadWithOutputsBinary(p), i),
      );
      assert.deepEqual(
        outputs,
        p.transactions.map((t) => t.output),
      );
      const data = payloadDataOf(p);
      assert.deepEqual(decodePayloadDataBinary(encodePayloadDataBinary(data)), data);
    }
  });
  it("reads one transaction's output, and names an index it does not have", () => {
    const p = makePayloadWithOutputs(
      [
        { transaction: new Uint8Array([1]), output: new Uint8Array([2, 3]) },
        { transaction: new Uint8Array([4, 5, 6]), output: new Uint8Array([7]) },
      ],
      new Uint8Array([8]),
      new Uint8Array([9]),
    );
    const bytes = encodePayloadWithOutputsBinary(p);
    assert.deepEqual(outputOfPayloadBinary(bytes, 0), new Uint8Array([2, 3]));
    assert.deepEqual(outputOfPayloadBinary(bytes, 1), new Uint8Array([7]));
    assert.throws(() => outputOfPayloadBinary(bytes, 2), {
      message: "binary PayloadWithOutputs has no transaction 2 (2)",
    });
    assert.throws(() => outputOfPayloadBinary(bytes.subarray(0, 20), 1), {
      message:
        "binary PayloadWithOutputs ends at byte 20 inside the length of output 0 (needs 8 bytes at 17)",
    });
  });
  it("names truncated, oversized and overlong input", () => {
    const p = makePayloadWithOutputs([], new Uint8Array([1]), new Uint8Array([2]));
    const bytes = encodePayloadWithOutputsBinary(p);
    assert.throws(
      () => decodePayloadWithOutputsBinary(bytes.subarray(0, 40)),
      (e: unknown) =>
        e instanceof PayloadBinaryError &&
        e.message ===
          "binary PayloadWithOutputs ends at byte 40 inside payloadHash (needs 32 bytes at 26)",
    );
    const extra = new Uint8Array(bytes.length + 1);
    extra.set(bytes);
    assert.throws(
      () => decodePayloadWithOutputsBinary(extra),
      /binary PayloadWithOutputs has 1 unexpected bytes after its end/,
    );
    const huge = bytes.slice();
    huge[0] = 0x7f;
    assert.throws(
      () => decodePayloadWithOutputsBinary(huge),
      /the transaction count 9151314442816847872 exceeds the input's size/,
    );
  });
});
