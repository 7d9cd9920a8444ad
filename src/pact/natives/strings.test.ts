import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactError } from "../runtime/errors.ts";
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import { call, testFn } from "../test-support/test-context.ts";
import { Decimal } from "../values/decimal.ts";
import { PactTime } from "../values/time.ts";
import { type TableRef, UNIT } from "../values/types.ts";
import {
  BASE64_DECODE,
  BASE64_ENCODE,
  CONCAT,
  decodeBase64UrlLenient,
  HASH_KECCAK256,
  INT_TO_STR,
  IS_CHARSET,
  MAX_STR_TO_INT_LENGTH,
  STR_TO_INT,
  STR_TO_LIST,
  TYPE_OF,
} from "./strings.ts";

const fails = (message: string, native: NativeDef, ...args: RuntimeValue[]) =>
  assert.throws(
    () => call(native, ...args),
    (e: unknown) => e instanceof PactError && e.kind === "execution" && e.message === message,
  );

describe("concat and str-to-list", () => {
  it("join and split by code point", () => {
    assert.equal(call(CONCAT, []), "");
    assert.equal(call(CONCAT, ["aa", "bb", "cc"]), "aabbcc");
    assert.deepEqual(call(STR_TO_LIST, "a\u{1f600}c"), ["a", "\u{1f600}", "c"]);
    assert.deepEqual(call(STR_TO_LIST, ""), []);
  });
  it("name the offending element's type", () => {
    fails(
      "Type error: failed to call native function concat with argument(s) of type(s): integer",
      CONCAT,
      ["a", "b", 2n],
    );
    fails(
      "Type error: failed to call native function concat with argument(s) of type(s): string",
      CONCAT,
      "hello",
    );
    fails(
      "Type error: failed to call native function str-to-list with argument(s) of type(s): list",
      STR_TO_LIST,
      [],
    );
  });
});

describe("str-to-int", () => {
  it("parses bases 2-16 and base64url", () => {
    assert.equal(call(STR_TO_INT, "12345"), 12345n);
    assert.equal(call(STR_TO_INT, 16n, "12345abcdef"), 1251004370415n);
    assert.equal(call(STR_TO_INT, 16n, "FF"), 255n);
    assert.equal(
      call(STR_TO_INT, 2n, "101010111100110111101111000100100011010001010110"),
      188900967593046n,
    );
    assert.equal(call(STR_TO_INT, 64n, "q80"), 43981n);
    assert.equal(call(STR_TO_INT, 64n, ""), 0n);
  });
  it("reports bad input with the reference's texts", () => {
    fails(
      "native execution failure, str-to-int-base failed with message: Base value must be >= 2 and <= 16, or 64",
      STR_TO_INT,
      1n,
      "12345",
    );
    fails("Decoding error: empty text: ", STR_TO_INT, "");
    fails("Decoding error: character '8' is out of range for base 8: 18", STR_TO_INT, 8n, "18");
    fails("Decoding error: character 'a' is out of range for base 10: a", STR_TO_INT, "a");
    fails("Decoding error: invalid digit: supported digits are 0-9, A-F", STR_TO_INT, "-123");
    fails("Decoding error: invalid b64 encoding", STR_TO_INT, 64n, "a");
    fails(
      `Decoding error: Invalid input, only up to ${MAX_STR_TO_INT_LENGTH} length supported`,
      STR_TO_INT,
      "1".repeat(MAX_STR_TO_INT_LENGTH + 1),
    );
    assert.equal(call(STR_TO_INT, "0".repeat(MAX_STR_TO_INT_LENGTH)), 0n);
    // The limit counts code points: 512 astral characters pass it and fail as digits.
    fails(
      "Decoding error: invalid digit: supported digits are 0-9, A-F",
      STR_TO_INT,
      "\u{1f600}".repeat(MAX_STR_TO_INT_LENGTH),
    );
    fails(
      "Type error: failed to call native function str-to-int-base with argument(s) of type(s): string, string",
      STR_TO_INT,
      "10",
      "12",
    );
  });
});

describe("int-to-str", () => {
  it("writes bases 2-16 in lowercase and base 64 as big-endian bytes", () => {
    assert.equal(call(INT_TO_STR, 16n, 1251004370415n), "12345abcdef");
    assert.equal(call(INT_TO_STR, 10n, 12345n), "12345");
    assert.equal(call(INT_TO_STR, 64n, 43981n), "q80");
    assert.equal(call(INT_TO_STR, 64n, 0n), "AA");
    assert.equal(call(INT_TO_STR, 64n, 256n), "AQA");
  });
  it("rejects negative numbers and other bases", () => {
    fails(
      "native execution failure, int-to-str failed with message: int-to-str error: cannot show negative integer",
      INT_TO_STR,
      10n,
      -36n,
    );
    fails(
      "native execution failure, int-to-str failed with message: invalid base for base64URL conversion",
      INT_TO_STR,
      17n,
      3n,
    );
  });
});

describe("is-charset", () => {
  it("checks ASCII and Latin-1", () => {
    assert.equal(call(IS_CHARSET, 0n, "abc"), true);
    assert.equal(call(IS_CHARSET, 0n, "é"), false);
    assert.equal(call(IS_CHARSET, 1n, "é"), true);
    assert.equal(call(IS_CHARSET, 1n, "\u0100"), false);
    fails(
      "native execution failure, is-charset failed with message: Unsupported character set",
      IS_CHARSET,
      2n,
      "a",
    );
  });
});

describe("base64", () => {
  it("encodes UTF-8 as unpadded base64url and decodes it back", () => {
    assert.equal(call(BASE64_ENCODE, "hello world!"), "aGVsbG8gd29ybGQh");
    assert.equal(call(BASE64_ENCODE, "é?"), "w6k_");
    assert.equal(call(BASE64_DECODE, "aGVsbG8gd29ybGQh"), "hello world!");
    assert.equal(call(BASE64_DECODE, "w6k_"), "é?");
  });
  it("accepts missing or correct padding", () => {
    assert.equal(call(BASE64_DECODE, "ZA"), "d");
    assert.equal(call(BASE64_DECODE, "ZA=="), "d");
    assert.equal(call(BASE64_DECODE, "ZA="), "d");
  });
  it("rejects bad characters, sizes, non-canonical bits and invalid UTF-8", () => {
    for (const bad of ["aGVsbG8gd29ybGQh%", "aaa", "asdflk", "!@#$%&", "ZE==", "a", "Z==="]) {
      fails("Decoding error: invalid b64 encoding", BASE64_DECODE, bad);
    }
    fails("Decoding error: invalid b64 encoding", BASE64_DECODE, "_w");
  });
  it("exposes the lenient decoder", () => {
    assert.deepEqual(decodeBase64UrlLenient("AQA"), new Uint8Array([1, 0]));
    assert.equal(decodeBase64UrlLenient("A"), null);
  });
});

describe("hash-keccak256", () => {
  it("hashes the concatenated decoded inputs", () => {
    assert.equal(call(HASH_KECCAK256, []), "xdJGAYb3IzySfn2y3McDwOUAtlPKgic7e_rYBF2FpHA");
    // keccak256("abc"), split over two inputs
    assert.equal(
      call(HASH_KECCAK256, ["YQ", "YmM"]),
      "TgNleupFqU_H1HuoJsjWZ8DR5uM6ZKA27ET1j6EtbEU",
    );
  });
  it("rejects non-strings and invalid base64url", () => {
    fails(
      "Type error: failed to call native function hash-keccak256 with argument(s) of type(s): integer",
      HASH_KECCAK256,
      ["YQ", 1n],
    );
    fails("Base64URL decode failed: invalid base64url encoding", HASH_KECCAK256, ["a"]);
  });
});

describe("typeof", () => {
  it("names every kind of value", () => {
    const table: TableRef = {
      kind: "table",
      module: { namespace: "free", name: "m" },
      name: "accounts",
      moduleHash: "h",
      schema: { name: "free.m.account", fields: new Map() },
    };
    const cases: [RuntimeValue, string][] = [
      ["a", "string"],
      [1n, "integer"],
      [Decimal.parseLiteral("1.0"), "decimal"],
      [true, "bool"],
      [UNIT, "unit"],
      [new PactTime(0n), "time"],
      [[1n], "list"],
      [new Map(), "object"],
      [{ kind: "keyset", keys: [], pred: "keys-all" }, "guard"],
      [{ kind: "keyset-ref", namespace: null, name: "k" }, "guard"],
      [{ kind: "cap-token", name: "m.C", moduleHash: "h", args: [] }, "CAPTOKEN"],
      [
        {
          kind: "modref",
          module: { namespace: null, name: "m" },
          interfaces: [
            { namespace: "ns", name: "iy" },
            { namespace: null, name: "ix" },
            { namespace: null, name: "iy" },
          ],
        },
        "module{ix, iy, ns.iy}",
      ],
      [table, "table{free.m.account}"],
      [testFn("f", 1, () => 1n), "<<closure>>"],
    ];
    for (const [v, name] of cases) assert.equal(call(TYPE_OF, v), name);
  });
});
