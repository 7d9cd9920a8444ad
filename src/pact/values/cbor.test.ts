import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CBOR_INITIAL_CAPACITY, CborWriter } from "./cbor.ts";

function hex(write: (w: CborWriter) => void): string {
  const w = new CborWriter();
  write(w);
  return Buffer.from(w.bytes()).toString("hex");
}

describe("CborWriter", () => {
  it("writes unsigned words in the shortest head", () => {
    assert.equal(
      hex((w) => w.word(0)),
      "00",
    );
    assert.equal(
      hex((w) => w.word(23)),
      "17",
    );
    assert.equal(
      hex((w) => w.word(24)),
      "1818",
    );
    assert.equal(
      hex((w) => w.word(255)),
      "18ff",
    );
    assert.equal(
      hex((w) => w.word(256)),
      "190100",
    );
    assert.equal(
      hex((w) => w.word(65535)),
      "19ffff",
    );
    assert.equal(
      hex((w) => w.word(65536)),
      "1a00010000",
    );
    assert.equal(
      hex((w) => w.word(0xffffffff)),
      "1affffffff",
    );
    assert.equal(
      hex((w) => w.word(2 ** 32)),
      "1b0000000100000000",
    );
  });

  it("rejects words that are negative or not safe integers", () => {
    assert.throws(() => new CborWriter().word(-1), /not a CBOR word: -1/);
    assert.throws(() => new CborWriter().word(1.5), /not a CBOR word: 1.5/);
  });

  it("writes integers as major type 0/1 up to 64 bits and as bignums beyond", () => {
    assert.equal(
      hex((w) => w.integer(0n)),
      "00",
    );
    assert.equal(
      hex((w) => w.integer(-1n)),
      "20",
    );
    assert.equal(
      hex((w) => w.integer(-24)),
      "37",
    );
    assert.equal(
      hex((w) => w.integer(-25n)),
      "3818",
    );
    assert.equal(
      hex((w) => w.integer(1000n)),
      "1903e8",
    );
    assert.equal(
      hex((w) => w.integer((1n << 64n) - 1n)),
      "1bffffffffffffffff",
    );
    assert.equal(
      hex((w) => w.integer(-(1n << 64n))),
      "3bffffffffffffffff",
    );
    assert.equal(
      hex((w) => w.integer(1n << 64n)),
      "c249010000000000000000",
    );
    assert.equal(
      hex((w) => w.integer(-(1n << 64n) - 1n)),
      "c349010000000000000000",
    );
    assert.equal(
      hex((w) => w.integer(1n << 72n)),
      "c24a01000000000000000000",
    );
  });

  it("writes text as UTF-8 with its byte length", () => {
    assert.equal(
      hex((w) => w.text("")),
      "60",
    );
    assert.equal(
      hex((w) => w.text("ab")),
      "626162",
    );
    assert.equal(
      hex((w) => w.text("é€😀")),
      "69c3a9e282acf09f9880",
    );
    const long = "x".repeat(24);
    assert.equal(
      hex((w) => w.text(long)),
      `7818${"78".repeat(24)}`,
    );
    const multibyte = "é".repeat(130); // 260 bytes: the head needs two length bytes
    assert.equal(
      hex((w) => w.text(multibyte)),
      `790104${"c3a9".repeat(130)}`,
    );
  });

  it("writes byte strings, booleans and null", () => {
    assert.equal(
      hex((w) => w.byteString(new Uint8Array([1, 2, 255]))),
      "430102ff",
    );
    assert.equal(
      hex((w) => w.byteString(new Uint8Array(0))),
      "40",
    );
    assert.equal(
      hex((w) => w.bool(true).bool(false).null()),
      "f5f4f6",
    );
  });

  it("writes Haskell lists indefinite (empty ones as []) and Maybe as a 0/1 array", () => {
    assert.equal(
      hex((w) => w.list([], (x, n: number) => x.word(n))),
      "80",
    );
    assert.equal(
      hex((w) => w.list([1, 2], (x, n) => x.word(n))),
      "9f0102ff",
    );
    assert.equal(
      hex((w) => w.maybe(null, (x, n: number) => x.word(n))),
      "80",
    );
    assert.equal(
      hex((w) => w.maybe(7, (x, n) => x.word(n))),
      "8107",
    );
  });

  it("writes definite array and map heads", () => {
    assert.equal(
      hex((w) => w.listLen(3).mapLen(25)),
      "83b819",
    );
  });

  it("grows past its first buffer", () => {
    const w = new CborWriter();
    const chunk = "y".repeat(CBOR_INITIAL_CAPACITY);
    w.word(1).text(chunk).text(chunk).word(2);
    const bytes = w.bytes();
    assert.equal(bytes.length, 1 + 2 * (3 + CBOR_INITIAL_CAPACITY) + 1);
    assert.equal(bytes[0], 1);
    assert.equal(bytes[bytes.length - 1], 2);
  });

  it("gives its bytes once: the next writers reuse its buffer, and its bytes stay as they were", () => {
    const first = new CborWriter();
    first.text("first");
    const firstBytes = first.bytes();
    assert.throws(() => first.bytes(), /bytes were already taken/);
    assert.throws(() => first.word(1), /written after its bytes were taken/);
    const second = new CborWriter();
    second.text("second, longer");
    const secondBytes = second.bytes();
    assert.equal(Buffer.from(firstBytes).toString("hex"), "656669727374");
    assert.equal(Buffer.from(secondBytes).subarray(1).toString("utf8"), "second, longer");
    assert.notEqual(firstBytes.buffer, secondBytes.buffer);
  });
});
