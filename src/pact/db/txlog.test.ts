import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex } from "../../crypto/index.ts";
import { hashTxLogs } from "./txlog.ts";

describe("tx log hash", () => {
  it("hashes D<domain>K<key>V<value> of each entry in order with Blake2b-256", () => {
    const bytes = (hex: string) => new Uint8Array(Buffer.from(hex, "hex"));
    const logs = [
      { domain: "SYS:KeySets", key: "ks", value: bytes("004782816261618100") },
      { domain: "coin_accounts", key: "alice", value: bytes("004ea16762616c616e63658200820101") },
    ];
    assert.equal(
      encodeHex(hashTxLogs(logs)),
      "950920ffc8813b584fbebf93bb4abe3060fca9f9bc852a395dbc4ea193e56815",
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
