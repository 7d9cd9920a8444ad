import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "./decimal.ts";
import { pactValueEquals } from "./equality.ts";
import {
  decodePactValue,
  encodePactValue,
  pactValueHashInput,
  parsePactValue,
  TAG_FIELDS,
} from "./json.ts";
import { JsonDepthError } from "./json-text.ts";
import { makeKeySet } from "./keyset.ts";
import { PactTime } from "./time.ts";
import { parseIsoTime } from "./time-format.ts";
import type {
  CapToken,
  Guard,
  ModuleName,
  PactType,
  PactValue,
  Schema,
  TableRef,
} from "./types.ts";
import { UNIT } from "./types.ts";

const HASH = "rE7DU8jlQL9x_MPYuniZJf5ICBTAEHAIFQCB4blofP4";
const d = (s: string) => Decimal.parseLiteral(s);
const obj = (entries: [string, PactValue][]) => new Map(entries);
const mod = (name: string, namespace: string | null = null): ModuleName => ({ namespace, name });
const ks = (keys: string[], pred = "keys-all") => makeKeySet(keys, pred);

describe("encodePactValue", () => {
  it("writes literals", () => {
    assert.equal(encodePactValue('a"b\n/é'), '"a\\"b\\n/é"');
    assert.equal(encodePactValue(true), "true");
    assert.equal(encodePactValue(false), "false");
    assert.equal(encodePactValue(UNIT), "null");
    assert.equal(encodePactValue(1n), '{"int":1}');
    assert.equal(encodePactValue(-9007199254740991n), '{"int":-9007199254740991}');
    assert.equal(encodePactValue(9007199254740992n), '{"int":"9007199254740992"}');
    assert.equal(encodePactValue(-9007199254740992n), '{"int":"-9007199254740992"}');
    assert.equal(encodePactValue(d("1.50")), "1.5");
    assert.equal(encodePactValue(d("0.05")), "5.0e-2");
    assert.equal(encodePactValue(d("100.0")), "100");
    assert.equal(encodePactValue(d("123456789.0123456789")), '{"decimal":"123456789.0123456789"}');
  });
  it("writes times, dropping milliseconds when the microseconds are a multiple of 1000", () => {
    const t = parseIsoTime("2016-07-22T12:00:00Z") as PactTime;
    assert.equal(encodePactValue(t), '{"time":"2016-07-22T12:00:00Z"}');
    assert.equal(
      encodePactValue(new PactTime(t.micros + 123000n)),
      '{"time":"2016-07-22T12:00:00Z"}',
    );
    assert.equal(
      encodePactValue(new PactTime(t.micros + 123456n)),
      '{"timep":"2016-07-22T12:00:00.123456Z"}',
    );
    assert.equal(
      encodePactValue(new PactTime(t.micros + 1n)),
      '{"timep":"2016-07-22T12:00:00.000001Z"}',
    );
  });
  it("writes lists and objects in legacy HashMap key order", () => {
    assert.equal(encodePactValue([1n, "a", [true]]), '[{"int":1},"a",[true]]');
    assert.equal(encodePactValue([]), "[]");
    assert.equal(encodePactValue(new Map()), "{}");
    const account = obj([
      ["account", "test"],
      ["balance", d("1.20342")],
      ["guard", ks(["55c6d18b855820af917b49d49a60e944728a0691a4a9c414a7c0d6b6e31de0ea"])],
    ]);
    assert.equal(
      encodePactValue(account),
      '{"guard":{"pred":"keys-all","keys":["55c6d18b855820af917b49d49a60e944728a0691a4a9c414a7c0d6b6e31de0ea"]},"balance":1.20342,"account":"test"}',
    );
    assert.equal(
      encodePactValue(
        obj([
          ["language", "pact"],
          ["name", "x"],
        ]),
      ),
      '{"name":"x","language":"pact"}',
    );
  });
  it("writes guards", () => {
    const guards: [Guard, string][] = [
      [ks(["b", "a", "b"], "keys-2"), '{"pred":"keys-2","keys":["a","b"]}'],
      [{ kind: "keyset-ref", namespace: null, name: "admin" }, '{"keysetref":"admin"}'],
      [
        { kind: "keyset-ref", namespace: "free", name: "admin" },
        '{"keysetref":{"ns":"free","ksn":"admin"}}',
      ],
      [
        { kind: "user-guard", fun: "free.m.f", args: [1n, "x"] },
        '{"args":[{"int":1},"x"],"fun":"free.m.f"}',
      ],
      [
        { kind: "capability-guard", name: "m.CAP", args: [d("2.0")], pactId: null },
        '{"cgPactId":null,"cgArgs":[2],"cgName":"m.CAP"}',
      ],
      [
        { kind: "capability-guard", name: "m.CAP", args: [], pactId: "pid" },
        '{"cgPactId":"pid","cgArgs":[],"cgName":"m.CAP"}',
      ],
      [
        { kind: "module-guard", module: mod("m"), name: "g" },
        '{"moduleName":{"namespace":null,"name":"m"},"name":"g"}',
      ],
      [{ kind: "pact-guard", pactId: "pid", name: "g" }, '{"pactId":"pid","name":"g"}'],
    ];
    for (const [g, json] of guards) assert.equal(encodePactValue(g), json);
  });
  it("writes module references, capability tokens and tables", () => {
    assert.equal(
      encodePactValue({
        kind: "modref",
        module: mod("coin"),
        interfaces: [mod("fungible-v2"), mod("b", "ns"), mod("b")],
      }),
      '{"refSpec":[{"namespace":null,"name":"b"},{"namespace":"ns","name":"b"},{"namespace":null,"name":"fungible-v2"}],"refName":{"namespace":null,"name":"coin"}}',
    );
    assert.equal(
      encodePactValue({
        kind: "cap-token",
        name: "coin.TRANSFER",
        moduleHash: HASH,
        args: ["a", d("1.0")],
      }),
      `{"#ctName":"coin.TRANSFER.{${HASH}}","#ctArgs":["a",1]}`,
    );
    const schema: Schema = {
      name: "free.m.s",
      fields: new Map<string, PactType>([
        ["a", "integer"],
        ["b", { kind: "list", element: "string" }],
      ]),
    };
    const table: TableRef = {
      kind: "table",
      module: mod("m", "free"),
      name: "t",
      moduleHash: HASH,
      schema,
    };
    assert.equal(
      encodePactValue(table),
      `{":tableName":"free.m:t",":moduleHash":"${HASH}",":schema":{"sc_name":"free.m.s","sc_fields":{"a":"integer","b":{"tylist":"string"}}}}`,
    );
  });
  it("gives hash input: a string's own bytes, other values' JSON", () => {
    assert.deepEqual(pactValueHashInput("hé"), new Uint8Array([104, 195, 169]));
    assert.deepEqual(pactValueHashInput(1n), new TextEncoder().encode('{"int":1}'));
  });
});

describe("encodePactValue of deep and long values", () => {
  /** A list `levels` lists deep around `inner`. */
  const nested = (levels: number, inner: PactValue): PactValue => {
    let v = inner;
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };

  it("writes a value nested 100,000 deep and a list of 200,000 values", () => {
    assert.equal(
      encodePactValue(nested(100_000, true)),
      `${"[".repeat(100_000)}true${"]".repeat(100_000)}`,
    );
    const long = Array.from({ length: 200_000 }, () => "x");
    assert.equal(encodePactValue(long), `[${Array(200_000).fill('"x"').join(",")}]`);
  });

  it("bounded by a depth, writes up to it and refuses one level more", () => {
    const limit = 900;
    const deepest = nested(limit, 1n);
    assert.ok(pactValueEquals(parsePactValue(encodePactValue(deepest, limit)), deepest));
    assert.throws(() => encodePactValue(nested(limit + 1, 1n), limit), JsonDepthError);
    const guard = (levels: number): PactValue => ({
      kind: "user-guard",
      fun: "m.f",
      args: [nested(levels, 1n)],
    });
    assert.ok(
      pactValueEquals(parsePactValue(encodePactValue(guard(limit - 2), limit)), guard(limit - 2)),
    );
    assert.throws(() => encodePactValue(guard(limit - 1), limit), {
      message: "Resource limit exceeded: a value nested deeper than 900 levels cannot be stored",
    });
  });
});

describe("decodePactValue", () => {
  const equal = (text: string, expected: PactValue) => {
    const v = parsePactValue(text);
    assert.ok(pactValueEquals(v, expected), `${text} decoded as ${encodePactValue(v)}`);
  };
  it('reads numbers as decimals and {"int":…} as integers', () => {
    equal("1", d("1.0"));
    equal("1.50", d("1.5"));
    equal('{"int":5}', 5n);
    equal('{"int":"123456789012345678901234567890"}', 123456789012345678901234567890n);
    equal('{"int":2.5}', 2n);
    equal('{"int":1,"extra":true}', 1n);
    equal('{"decimal":"1.500"}', d("1.500"));
    assert.equal((parsePactValue('{"decimal":"1.500"}') as Decimal).places, 3);
    equal('{"int":"abc"}', obj([["int", "abc"]]));
    equal('{"decimal":1.5}', obj([["decimal", d("1.5")]]));
    equal("null", UNIT);
  });
  it("reads guards, with the keyset defaults", () => {
    equal('{"keys":["b","a","a"]}', ks(["a", "b"]));
    equal('{"keys":[],"pred":null}', ks([]));
    equal('{"keys":["k"],"pred":"free.m.p"}', ks(["k"], "free.m.p"));
    equal('{"keys":["k"],"pred":"my-pred"}', ks(["k"], "my-pred"));
    equal(
      '{"keys":["k"],"pred":"bad pred"}',
      obj([
        ["keys", ["k"]],
        ["pred", "bad pred"],
      ]),
    );
    equal('{"keys":[1]}', obj([["keys", [d("1.0")]]]));
    equal('{"keysetref":"ks"}', { kind: "keyset-ref", namespace: null, name: "ks" });
    equal('{"keysetref":{"ksn":"ks","ns":"free"}}', {
      kind: "keyset-ref",
      namespace: "free",
      name: "ks",
    });
    equal('{"fun":"m.f","args":[]}', { kind: "user-guard", fun: "m.f", args: [] });
    equal(
      '{"fun":"f","args":[]}',
      obj([
        ["fun", "f"],
        ["args", []],
      ]),
    );
    equal('{"cgName":"m.C","cgArgs":[1]}', {
      kind: "capability-guard",
      name: "m.C",
      args: [d("1.0")],
      pactId: null,
    });
    equal('{"moduleName":{"name":"m"},"name":"g"}', {
      kind: "module-guard",
      module: mod("m"),
      name: "g",
    });
    equal('{"pactId":"p","name":"g"}', { kind: "pact-guard", pactId: "p", name: "g" });
  });
  it("reads module references, times, capability tokens and tables", () => {
    equal('{"refName":{"namespace":null,"name":"coin"},"refSpec":null}', {
      kind: "modref",
      module: mod("coin"),
      interfaces: [],
    });
    equal('{"time":"2016-07-22T12:00:00Z"}', parseIsoTime("2016-07-22T12:00:00Z") as PactTime);
    equal(
      '{"timep":"2016-07-22T12:00:00.5Z"}',
      new PactTime((parseIsoTime("2016-07-22T12:00:00Z") as PactTime).micros + 500000n),
    );
    equal('{"time":"bad","timep":"2016-07-22T12:00:00.000001Z"}', new PactTime(1469188800000001n));
    equal('{"time":"2016-07-22"}', obj([["time", "2016-07-22"]]));
    const token = parsePactValue(`{"#ctName":"ns.m.C.{${HASH}}","#ctArgs":[]}`) as CapToken;
    assert.deepEqual(token, { kind: "cap-token", name: "ns.m.C", moduleHash: HASH, args: [] });
    equal(
      `{"#ctName":"m.C","#ctArgs":[]}`,
      obj([
        ["#ctName", "m.C"],
        ["#ctArgs", []],
      ]),
    );
    const table = parsePactValue(
      `{":tableName":"m:t",":moduleHash":"${HASH}",":schema":{"sc_name":"m.s","sc_fields":{"a":"integer","o":{"tyobject":{"sc_name":"m.s2","sc_fields":{}}},"r":{"tymodref":[{"name":"i"}]},"x":"*"}}}`,
    ) as TableRef;
    assert.equal(table.kind, "table");
    assert.equal(table.name, "t");
    assert.deepEqual(table.schema.fields.get("r"), { kind: "modref", interfaces: [mod("i")] });
  });
  it("reads JSON.parse output too", () => {
    const v = decodePactValue(JSON.parse('{"a":[1.5,{"int":3}],"ks":{"keys":["x"]}}'));
    assert.ok(
      pactValueEquals(
        v,
        obj([
          ["a", [d("1.5"), 3n]],
          ["ks", ks(["x"])],
        ]),
      ),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Property tests with a seeded generator

class Random {
  constructor(private state: number) {}
  next(): number {
    // xorshift32
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)] as T;
  }
}

const CHARS = [
  "a",
  "b",
  "z",
  "0",
  " ",
  '"',
  "\\",
  "\n",
  "\u0001",
  "é",
  "✓",
  "😀",
  "/",
  "{",
  "\u007f",
];

function randomString(r: Random): string {
  let s = "";
  const n = r.int(8);
  for (let i = 0; i < n; i++) s += r.pick(CHARS);
  return s;
}

function randomKey(r: Random): string {
  for (;;) {
    const k = randomString(r);
    if (!TAG_FIELDS.has(k)) return k;
  }
}

function randomBigInt(r: Random): bigint {
  const digits = 1 + r.int(r.next() < 0.8 ? 15 : 40);
  let s = "";
  for (let i = 0; i < digits; i++) s += r.int(10);
  return BigInt(s) * (r.next() < 0.3 ? -1n : 1n);
}

function randomValue(r: Random, depth: number): PactValue {
  const kinds = depth > 3 ? 6 : 14;
  switch (r.int(kinds)) {
    case 0:
      return randomString(r);
    case 1:
      return r.next() < 0.5;
    case 2:
      return randomBigInt(r);
    case 3:
      return new Decimal(randomBigInt(r), r.int(30));
    case 4:
      // whole seconds or microseconds that are not whole milliseconds round-trip exactly
      return new PactTime(
        BigInt(r.int(4e9)) * 1_000_000n + (r.next() < 0.5 ? 0n : BigInt(1 + r.int(999)) * 1001n),
      );
    case 5:
      return UNIT;
    case 6:
    case 7: {
      const n = r.int(4);
      return Array.from({ length: n }, () => randomValue(r, depth + 1));
    }
    case 8:
    case 9: {
      const m = new Map<string, PactValue>();
      const n = r.int(5);
      for (let i = 0; i < n; i++) m.set(randomKey(r), randomValue(r, depth + 1));
      return m;
    }
    case 10:
      return ks(
        Array.from({ length: r.int(3) }, () => randomString(r)),
        r.pick(["keys-all", "keys-any", "keys-2", "free.m.pred", "m.p"]),
      );
    case 11:
      return r.pick<PactValue>([
        { kind: "user-guard", fun: "free.m.f", args: [randomValue(r, depth + 1)] },
        {
          kind: "capability-guard",
          name: "m.C",
          args: [randomValue(r, depth + 1)],
          pactId: r.next() < 0.5 ? null : "p",
        },
        {
          kind: "module-guard",
          module: mod("m", r.next() < 0.5 ? null : "ns"),
          name: randomString(r),
        },
        { kind: "pact-guard", pactId: randomString(r), name: randomString(r) },
        { kind: "keyset-ref", namespace: r.next() < 0.5 ? null : "ns", name: randomString(r) },
      ]);
    case 12:
      return {
        kind: "modref",
        module: mod("m"),
        interfaces: r.next() < 0.5 ? [] : [mod("i1"), mod("i2", "ns")],
      };
    default:
      return {
        kind: "cap-token",
        name: "ns.m.C",
        moduleHash: HASH,
        args: [randomValue(r, depth + 1)],
      };
  }
}

/** Deep structural sameness, decimals compared numerically. */
function same(a: unknown, b: unknown): boolean {
  if (a instanceof Decimal || b instanceof Decimal)
    return a instanceof Decimal && b instanceof Decimal && a.equals(b);
  if (a instanceof PactTime || b instanceof PactTime)
    return a instanceof PactTime && b instanceof PactTime && a.micros === b.micros;
  if (a instanceof Map || b instanceof Map) {
    if (!(a instanceof Map && b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !same(v, b.get(k))) return false;
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((v, i) => same(v, b[i]))
    );
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return ka.join() === kb.join() && ka.every((k) => same(ra[k], rb[k]));
  }
  return a === b;
}

describe("JSON round trips (seeded random values)", () => {
  it("decode(encode(v)) equals v", () => {
    const r = new Random(20240601);
    for (let i = 0; i < 3000; i++) {
      const v = randomValue(r, 0);
      const text = encodePactValue(v);
      const back = parsePactValue(text);
      assert.ok(same(v, back), `round trip of ${text} gave ${encodePactValue(back)}`);
    }
  });
  it("encode(decode(text)) is the identity on canonical text", () => {
    const r = new Random(7);
    for (let i = 0; i < 3000; i++) {
      const text = encodePactValue(randomValue(r, 0));
      assert.equal(encodePactValue(parsePactValue(text)), text);
      assert.equal(encodePactValue(decodePactValue(JSON.parse(text))).length > 0, true);
    }
  });
});
