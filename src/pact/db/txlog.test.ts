import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex } from "../../crypto/index.ts";
import { hashTxLogs } from "./txlog.ts";

describe("tx log hash", () => {
  it("hashes D<domain>K<key>V<value> of each entry in order with Blake2b-256", () => {
    const logs = [
      { domain: "SYS:KeySets", key: "ks", value: '{"pred":"keys-all","keys":["aa"]}' },
      { domain: "coin_accounts", key: "alice", value: '{"balance":{"int":1}}' },
    ];
    assert.equal(
      encodeHex(hashTxLogs(logs)),
      "79615a84bfb469cab6e2f97b79d974f1062a7bef231d63da7171306471e56291",
    );
    assert.notEqual(encodeHex(hashTxLogs([...logs].reverse())), encodeHex(hashTxLogs(logs)));
  });

  it("hashes no entries as the empty input", () => {
    assert.equal(
      encodeHex(hashTxLogs([])),
      "0e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a8",
    );
  });
});
