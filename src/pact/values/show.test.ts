import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "./decimal.ts";
import { makeKeySet } from "./keyset.ts";
import { pactValueToAbbrev, pactValueToPretty, pactValueToText } from "./show.ts";
import { PactTime } from "./time.ts";
import { parseIsoTime } from "./time-format.ts";
import type { Guard, PactValue, TableRef } from "./types.ts";
import { UNIT } from "./types.ts";

const d = (s: string) => Decimal.parseLiteral(s);
const KEY = "e4c6807d79d8bf4695e10e5678ebf72862f59b71f971d39dd3349f4beeacd6e3";
const capGuard = (args: PactValue[], pactId: string | null): Guard => ({
  kind: "capability-guard",
  name: "some-module.CAPGUARD",
  args,
  pactId,
});

describe("show / format text (format-regression.repl)", () => {
  it("writes literals and collections", () => {
    assert.equal(pactValueToText(123n), "123");
    assert.equal(pactValueToText(d("123.0")), "123.0");
    assert.equal(pactValueToText(Decimal.fromInteger(123n)), "123.0");
    assert.equal(pactValueToText(d("123.456")), "123.456");
    assert.equal(pactValueToText(d("1.00")), "1.00");
    assert.equal(pactValueToText([true, false]), "[true, false]");
    assert.equal(
      pactValueToText(parseIsoTime("2024-07-22T12:00:00Z") as PactTime),
      '"2024-07-22T12:00:00Z"',
    );
    assert.equal(
      pactValueToText(
        new Map<string, PactValue>([
          ["hello", 1n],
          ["goodbye", "bob"],
        ]),
      ),
      '{"goodbye": "bob","hello": 1}',
    );
    assert.equal(pactValueToText([1n, 2n, 3n, d("4.567")]), "[1, 2, 3, 4.567]");
    assert.equal(pactValueToText('a"b'), '"a"b"');
    assert.equal(pactValueToText(UNIT), "()");
    assert.equal(pactValueToText([]), "[]");
  });
  it("writes module references, tokens, tables and guards", () => {
    assert.equal(
      pactValueToText({
        kind: "modref",
        module: { namespace: null, name: "some-module" },
        interfaces: [],
      }),
      "some-module",
    );
    assert.equal(
      pactValueToText({
        kind: "cap-token",
        name: "some-module.CAPGUARD",
        moduleHash: "h",
        args: [1n, 2n],
      }),
      "CapToken(some-module.CAPGUARD 1 2)",
    );
    assert.equal(
      pactValueToText({ kind: "cap-token", name: "m.C", moduleHash: "h", args: [] }),
      "CapToken(m.C)",
    );
    assert.equal(
      pactValueToText(makeKeySet(["robert"], "keys-all")),
      "KeySet {keys: [robert],pred: keys-all}",
    );
    assert.equal(
      pactValueToText(makeKeySet(["robert", "jose", "edmund", "chessai"], "keys-2")),
      "KeySet {keys: [chessai, edmund, jose, robert],pred: keys-2}",
    );
    assert.equal(
      pactValueToText(capGuard([2n, 3n], null)),
      "CapabilityGuard {name: some-module.CAPGUARD,args: [2, 3],pactId: }",
    );
    assert.equal(
      pactValueToText(capGuard([1n, 23n], "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g")),
      "CapabilityGuard {name: some-module.CAPGUARD,args: [1, 23],pactId: DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g}",
    );
    assert.equal(
      pactValueToText({
        kind: "module-guard",
        module: { namespace: null, name: "some-module" },
        name: "beepboop",
      }),
      "ModuleGuard {module: some-module,name: beepboop}",
    );
    assert.equal(pactValueToText({ kind: "keyset-ref", namespace: null, name: "my-ks" }), "'my-ks");
    assert.equal(
      pactValueToText({ kind: "keyset-ref", namespace: "free", name: "ks" }),
      "'free.ks",
    );
    assert.equal(
      pactValueToText({
        kind: "pact-guard",
        pactId: "DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g",
        name: "1",
      }),
      "PactGuard {pactId: DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g,name: 1}",
    );
    assert.equal(
      pactValueToText({ kind: "user-guard", fun: "free.m.f", args: ["a"] }),
      'UserGuard {fun: free.m.f,args: ["a"]}',
    );
    const table: TableRef = {
      kind: "table",
      module: { namespace: "free", name: "m" },
      name: "t",
      moduleHash: "h",
      schema: { name: "free.m.s", fields: new Map() },
    };
    assert.equal(pactValueToText(table), "free.m_t");
  });
});

describe("pretty (REPL) form", () => {
  it("writes literals and collections", () => {
    assert.equal(pactValueToPretty([1n, 2n, 3n]), "[1 2 3]");
    assert.equal(pactValueToPretty(d("2.50")), "2.50");
    assert.equal(pactValueToPretty(d("2.00")), "2.0");
    assert.equal(pactValueToPretty("hi"), '"hi"');
    assert.equal(
      pactValueToPretty(
        new Map<string, PactValue>([
          ["b", 2n],
          ["a", 1n],
        ]),
      ),
      '{"a": 1,"b": 2}',
    );
    assert.equal(pactValueToPretty(UNIT), "()");
    assert.equal(pactValueToPretty(true), "true");
    assert.equal(
      pactValueToPretty(parseIsoTime("2016-07-22T12:00:00Z") as PactTime),
      '"2016-07-22T12:00:00Z"',
    );
    assert.equal(pactValueToPretty(new PactTime(1469188800123456n)), '"2016-07-22T12:00:00Z"');
    assert.equal(pactValueToPretty([]), "[]");
    assert.equal(
      pactValueToPretty({
        kind: "cap-token",
        name: "coin.TRANSFER",
        moduleHash: "h",
        args: ["a", d("1.0")],
      }),
      'CapToken(coin.TRANSFER "a" 1.0)',
    );
  });
  it("writes short guards on one line", () => {
    assert.equal(
      pactValueToPretty(makeKeySet(["bob"], "keys-all")),
      "KeySet {keys: [bob],pred: keys-all}",
    );
    assert.equal(
      pactValueToPretty(capGuard([2n, 3n], null)),
      "CapabilityGuard {name: some-module.CAPGUARD,args: [2, 3],pactId: }",
    );
    assert.equal(
      pactValueToPretty({
        kind: "module-guard",
        module: { namespace: null, name: "m" },
        name: "g",
      }),
      "ModuleGuard {module: m,name: g}",
    );
  });
  it("breaks guards that do not fit in 80 columns like prettyprinter", () => {
    // the whole record does not fit; the key list alone does
    assert.equal(
      pactValueToPretty(makeKeySet([KEY], "keys-all")),
      `KeySet {keys: [${KEY}]\n,pred: keys-all}`,
    );
    // the key list does not fit either: it breaks too, with "[ " and " ]"
    const long = `${KEY}ff`;
    assert.equal(
      pactValueToPretty(makeKeySet([long], "keys-all")),
      `KeySet {keys: [ ${long} ]\n,pred: keys-all}`,
    );
    const two = makeKeySet([KEY, "a".repeat(64)], "keys-2");
    assert.equal(
      pactValueToPretty(two),
      `KeySet {keys: [ ${"a".repeat(64)}\n, ${KEY} ]\n,pred: keys-2}`,
    );
  });
  it("keeps lists and objects on one line however long", () => {
    const strings = Array.from({ length: 10 }, (_, i) => `item-number-${i}`);
    assert.equal(pactValueToPretty(strings), `[${strings.map((s) => `"${s}"`).join(" ")}]`);
  });
  it("writes lists and objects of 200,000 members", () => {
    const numbers = Array.from({ length: 200_000 }, (_, i) => BigInt(i));
    const printed = pactValueToPretty(numbers);
    assert.equal(printed.length, 1_288_891);
    assert.ok(printed.startsWith("[0 1 2 ") && printed.endsWith(" 199998 199999]"));
    const object = new Map(numbers.map((n) => [`k${n}`, n]));
    const printedObject = pactValueToPretty(object);
    assert.equal(printedObject.length, 3_377_781);
    assert.ok(printedObject.endsWith(',"k99998": 99998,"k99999": 99999}'));
  });
  it("breaks a string's newlines, flattened to spaces inside a group", () => {
    assert.equal(pactValueToPretty("a\nb"), '"a\nb"');
    assert.equal(
      pactValueToPretty({ kind: "user-guard", fun: "m.f", args: ["a\nb"] }),
      'UserGuard {fun: m.f,args: ["a b"]}',
    );
  });
});

describe("abbreviated form (stack frame arguments)", () => {
  it("cuts long strings, numbers and collections", () => {
    assert.equal(pactValueToAbbrev("short string!!"), '"short string!!"');
    assert.equal(pactValueToAbbrev("exactly 15 char"), '"exactly 15 c..."');
    assert.equal(pactValueToAbbrev(123456789012n), "123456789012");
    assert.equal(pactValueToAbbrev(1234567890123n), "123456789012...");
    assert.equal(pactValueToAbbrev(d("12345678901234.0")), "12345678901234.0");
    assert.equal(pactValueToAbbrev(d("1.23456789012345")), "1.2345678901...");
    assert.equal(pactValueToAbbrev([1n, 2n, 3n]), "[1 2 3]");
    assert.equal(
      pactValueToAbbrev([1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n, 10n, 11n]),
      "[1 2 3 4 5 6 ...]",
    );
    assert.equal(pactValueToAbbrev(new Map<string, PactValue>([["a", 1n]])), '{"a": 1}');
    assert.equal(
      pactValueToAbbrev(
        new Map<string, PactValue>([
          ["account", "bob"],
          ["b", 1n],
        ]),
      ),
      '{"account": "...}',
    );
  });
  it("writes times with fractions and tokens with their module hash", () => {
    assert.equal(
      pactValueToAbbrev(new PactTime(1469188800123456n)),
      "2016-07-22 12:00:00.123456 UTC",
    );
    assert.equal(
      pactValueToAbbrev({
        kind: "cap-token",
        name: "coin.TRANSFER",
        moduleHash: "h",
        args: ["alice", d("1.0")],
      }),
      '(coin.TRANSFER.{h} "alice" 1.0)',
    );
    assert.equal(
      pactValueToAbbrev(makeKeySet(["k"], "keys-all")),
      "KeySet {keys: [k],pred: keys-all}",
    );
    assert.equal(
      pactValueToAbbrev({ kind: "user-guard", fun: "m.f", args: ["a very long string"] }),
      'UserGuard {fun: m.f,args: ["a very long ..."]}',
    );
  });
});
