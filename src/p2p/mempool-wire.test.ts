/**
 * The mempool API's wire forms: 64-bit marks written and read with every digit, lookup answers
 * both ways, and transaction texts sorted into commands, invalid commands and texts that are not
 * commands.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { transactionText } from "../node/executor/block/block-executor.ts";
import { devCommand } from "../node/test-support/dev-node.ts";
import {
  decodeLookup,
  decodePending,
  encodeLookup,
  encodePending,
  parseInt64,
  parseTransactionTexts,
} from "./mempool-wire.ts";

const KEY = "qx346ILpakzgbNZbE8oHqF5TZQghp-HPcV-0Ptc_n2s";

describe("mempool wire forms", () => {
  it("parseInt64 takes exactly the 64-bit integers", () => {
    assert.equal(parseInt64("-9223372036854775808"), -(2n ** 63n));
    assert.equal(parseInt64("9223372036854775807"), 2n ** 63n - 1n);
    for (const bad of [
      "9223372036854775808",
      "-9223372036854775809",
      "1.0",
      "",
      "+1",
      "0x1",
      " 1",
    ]) {
      assert.equal(parseInt64(bad), null, bad);
    }
  });

  it("a getPending answer keeps its nonce exact both ways", () => {
    for (const nonce of [-(2n ** 63n), 7530864100535968633n, -4683248684880063035n, 0n]) {
      const text = encodePending({ hashes: [KEY], nonce, next: 399 });
      assert.equal(text, `{"hashes":["${KEY}"],"highwaterMark":[${nonce},399]}`);
      assert.deepEqual(decodePending(text), { hashes: [KEY], mark: { nonce, since: 399n } });
    }
    assert.deepEqual(decodePending('{ "hashes" : [], "highwaterMark" : [ 1 , 2 ] }'), {
      hashes: [],
      mark: { nonce: 1n, since: 2n },
    });
    assert.equal(
      decodePending('{"hashes":[],"highwaterMark":[1,2.5]}'),
      '"highwaterMark" is not [nonce, since], two integers',
    );
    assert.equal(decodePending("[]"), 'the answer is not an object {"hashes", "highwaterMark"}');
  });

  it("lookup answers both ways", () => {
    const text = encodeLookup(['{"hash":"x"}', null]);
    assert.equal(text, '[{"tag":"Pending","contents":"{\\"hash\\":\\"x\\"}"},{"tag":"Missing"}]');
    assert.deepEqual(decodeLookup(JSON.parse(text), 2), ['{"hash":"x"}', null]);
    assert.equal(decodeLookup(JSON.parse(text), 3), "the answer has 2 results for 3 keys");
    assert.equal(
      decodeLookup([{ tag: "Pending" }], 1),
      'result 0 is neither {"tag":"Missing"} nor {"tag":"Pending","contents":<text>}',
    );
  });

  it("transaction texts: commands, invalid commands, and texts that are not commands", async () => {
    const good = devCommand({ code: "(+ 1 2)", nonce: "wire good" });
    const bad = JSON.parse(transactionText(devCommand({ code: "(+ 1 2)", nonce: "wire bad" })));
    bad.sigs = [{ sig: "00".repeat(64) }];
    const parsed = await parseTransactionTexts([transactionText(good), JSON.stringify(bad), "[]"]);
    assert.deepEqual(
      parsed.commands.map((c) => c.hash),
      [good.hash],
    );
    assert.deepEqual(
      parsed.invalid.map((p) => p.index),
      [1],
    );
    assert.match(parsed.invalid[0]!.reason, /signature/);
    assert.deepEqual(
      parsed.undecodable.map((p) => p.index),
      [2],
    );
  });
});
