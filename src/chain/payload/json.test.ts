import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mainnetPayloads, vectorsSkip } from "../test-support/vectors.ts";
import {
  decodePayloadDataObject,
  decodePayloadWithOutputsObject,
  encodePayloadDataObject,
  encodePayloadWithOutputsObject,
  PayloadJsonError,
} from "./json.ts";

describe("payload JSON", { skip: vectorsSkip("mainnet-payloads.json") }, () => {
  const vectors = mainnetPayloads();
  it("round trips PayloadWithOutputs to the same JSON text", () => {
    for (const json of [vectors.emptyPayload, vectors.payloadWithTransactions]) {
      const encoded = encodePayloadWithOutputsObject(decodePayloadWithOutputsObject(json));
      assert.equal(JSON.stringify(encoded), JSON.stringify(json));
    }
  });
  it("round trips PayloadData to the same JSON text", () => {
    for (const json of vectors.payloads) {
      assert.equal(
        JSON.stringify(encodePayloadDataObject(decodePayloadDataObject(json))),
        JSON.stringify(json),
      );
    }
  });
  it("names every bad field", () => {
    assert.throws(
      () => decodePayloadWithOutputsObject([]),
      (e: unknown) =>
        e instanceof PayloadJsonError && e.message === "PayloadWithOutputs must be a JSON object",
    );
    assert.throws(
      () =>
        decodePayloadWithOutputsObject({
          ...vectors.payloadWithTransactions,
          transactions: [["YQ"]],
          coinbase: 5,
          payloadHash: "YQ",
          outputsHash: undefined,
        }),
      (e: unknown) =>
        e instanceof PayloadJsonError &&
        e.message ===
          "invalid PayloadWithOutputs: transactions[0] must be a [transaction, output] pair; " +
            "coinbase must be a base64url string; outputsHash must be a base64url string; " +
            "payloadHash must be 32 bytes, got 1",
    );
    assert.throws(
      () => decodePayloadDataObject({ transactions: ["a+"], minerData: "" }),
      /invalid PayloadData: transactions\[0\]: invalid base64url: character "\+".*; missing field "transactionsHash"; missing field "outputsHash"; missing field "payloadHash"$/,
    );
  });
});
