import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeHex } from "../crypto/index.ts";
import { commandHash, DEFAULT_COMMAND_HASH, parseCommandHashAlgorithm } from "./hash-algorithm.ts";

describe("command hash algorithm", () => {
  it("defaults to the spec's Blake2s-256", () => {
    assert.equal(DEFAULT_COMMAND_HASH, "blake2s");
  });

  it("hashes with the named algorithm", () => {
    assert.equal(
      encodeHex(commandHash("abc", "blake2s")),
      "508c5e8c327c14e2e1a72ba34eeb452f37458b209ed63a294d999b4c86675982",
    );
    assert.equal(
      encodeHex(commandHash("abc", "blake2b")),
      "bddd813c634239723171ef3fee98579b94964e3bb1cb3e427262c8c068d52319",
    );
  });

  it("reads a configured name and refuses others", () => {
    assert.equal(parseCommandHashAlgorithm("Blake2b"), "blake2b");
    assert.equal(parseCommandHashAlgorithm(" blake2s "), "blake2s");
    assert.throws(() => parseCommandHashAlgorithm("sha256"), {
      message: 'unknown command hash algorithm "sha256": expected one of blake2s, blake2b',
    });
  });
});
