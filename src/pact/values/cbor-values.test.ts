import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CborWriter } from "./cbor.ts";
import { hashBytes, moduleNameSet, pactValue, type } from "./cbor-values.ts";
import { Decimal } from "./decimal.ts";
import { PactTime } from "./time.ts";
import type { PactType, PactValue } from "./types.ts";
import { UNIT } from "./types.ts";

function hex(write: (w: CborWriter) => void): string {
  const w = new CborWriter();
  write(w);
  return Buffer.from(w.bytes()).toString("hex");
}
const value = (v: PactValue) => hex((w) => pactValue(w, v));
const typeHex = (t: PactType) => hex((w) => type(w, t));

describe("pactValue", () => {
  it("writes literals as PLiteral [0, literal]", () => {
    assert.equal(value("a"), "8200820061" + "61");
    assert.equal(value(5n), "8200820105");
    assert.equal(value(new Decimal(150n, 2)), "82008202820218" + "96");
    assert.equal(value(UNIT), "82008103");
    assert.equal(value(true), "82008204f5");
  });

  it("writes lists with a definite length and objects as maps in key order", () => {
    assert.equal(value([]), "820180");
    assert.equal(value([1n, 2n]), "8201828200820101" + "8200820102");
    const obj = new Map<string, PactValue>([
      ["b", 1n],
      ["a", 2n],
    ]);
    assert.equal(value(obj), "8203a2" + "6161" + "8200820102" + "6162" + "8200820101");
  });

  it("writes times as microseconds since the Modified Julian Day epoch", () => {
    assert.equal(value(new PactTime(0n)), "82061b000c755721312000"); // 40587 days
  });

  it("writes guards, module references, tables and capability tokens", () => {
    assert.equal(
      value({ kind: "keyset", keys: ["bb", "aa"], pred: "keys-all" }),
      "8202" + "8200" + "82" + "82" + "626161" + "626262" + "8100",
    );
    assert.equal(
      value({ kind: "keyset-ref", namespace: "ns", name: "k" }),
      "8202" + "8201" + "82616b" + "8162" + "6e73",
    );
    assert.equal(
      value({ kind: "modref", module: { namespace: null, name: "m" }, interfaces: [] }),
      "8204" + "82" + "82616d80" + "80",
    );
    const hash = "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g";
    assert.equal(
      value({ kind: "cap-token", name: "m.C", moduleHash: hash, args: [] }),
      `8205828382616d80614358200e5751c026e543b2e8ab2eb06099daa1d1e5df47778f7787faab45cdf12fe3a880`,
    );
  });
});

describe("type", () => {
  it("writes primitive, list and any types", () => {
    assert.equal(typeHex("integer"), "820000");
    assert.equal(typeHex("guard"), "820004");
    assert.equal(typeHex({ kind: "list", element: "string" }), "8201820003");
    assert.equal(typeHex("list"), "8102");
    assert.equal(typeHex("object"), "8105");
    assert.equal(typeHex("*"), "8108");
  });

  it("writes schemas with their qualified name and fields in key order", () => {
    const schema = {
      name: "ns.m.s",
      fields: new Map<string, PactType>([
        ["z", "bool"],
        ["a", "time"],
      ]),
    };
    assert.equal(
      typeHex({ kind: "object", schema }),
      "8204" + "82" + "826173" + "82616d81626e73" + "a2" + "6161820005" + "617a820002",
    );
  });

  it("writes module reference types as a sorted set of interface names", () => {
    assert.equal(
      hex((w) =>
        moduleNameSet(w, [
          { namespace: "ns", name: "b" },
          { namespace: null, name: "b" },
          { namespace: null, name: "a" },
          { namespace: null, name: "b" },
        ]),
      ),
      "83" + "82616180" + "82616280" + "8261628162" + "6e73",
    );
  });
});

describe("hashBytes", () => {
  it("decodes base64url hashes and keeps the REPL's marker as text", () => {
    assert.equal(Buffer.from(hashBytes("AAEC")).toString("hex"), "000102");
    assert.equal(Buffer.from(hashBytes("#repl")).toString(), "#repl");
  });
});
