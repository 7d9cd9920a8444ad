import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { encodeBase64Url } from "../crypto/index.ts";
import { isRequestKey, parseRequestKey } from "./request-key.ts";

const KEY = encodeBase64Url(new Uint8Array(32).fill(0xab));

describe("parseRequestKey", () => {
  it("reads the one canonical form of 32 bytes", () => {
    const parsed = parseRequestKey(KEY);
    assert.ok(parsed.ok);
    assert.deepEqual(parsed.bytes, new Uint8Array(32).fill(0xab));
    assert.equal(KEY, "q6urq6urq6urq6urq6urq6urq6urq6urq6urq6urq6s");
  });

  it("refuses every other spelling, saying why", () => {
    const reasons = [
      `${KEY}=`,
      KEY.slice(0, 42),
      `${KEY}A`,
      `${KEY.slice(0, 42)}t`,
      KEY.replace("q", "+"),
    ].map((text) => {
      const parsed = parseRequestKey(text);
      return parsed.ok ? "ok" : parsed.reason;
    });
    assert.deepEqual(reasons, [
      "it is padded with '=' (request keys are unpadded base64url)",
      "it has 42 characters, not 43",
      "it has 44 characters, not 43",
      "trailing bits are not zero",
      "it has characters outside A-Z, a-z, 0-9, _ and -",
    ]);
    assert.equal(isRequestKey(`${KEY}=`), false);
    assert.equal(isRequestKey(KEY), true);
  });
});
