import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { genesisHeader } from "../chain/header/genesis.ts";
import { encodeHeaderBase64, encodeHeaderJson } from "../chain/header/json.ts";
import { mainnetHeaders, vectorsSkip } from "../chain/test-support/vectors.ts";
import { DEVELOPMENT } from "../chain/version/known-versions.ts";
import { decodeBase64Url } from "../crypto/index.ts";
import { UserError } from "./errors.ts";
import { readHeaderArgument, runHeaderInspect } from "./header-inspect.ts";

/** Chain 0 at height 1,000,000: its object and binary forms. */
const skip = vectorsSkip("mainnet-headers.json");
const firstMainnetHeader = () => {
  const vectors = mainnetHeaders();
  return { object: vectors.objectHeaders[0]!, base64: vectors.binaryHeadersBase64Url[0]! };
};

describe("braid header inspect", () => {
  it("shows a mainnet header with its verified hash and PoW", { skip }, () => {
    const { base64 } = firstMainnetHeader();
    const shown = JSON.parse(runHeaderInspect(base64));
    assert.equal(shown.header.hash, "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k");
    assert.equal(shown.header.chainwebVersion, "mainnet01");
    assert.equal(shown.header.nonce, "13095611958898437");
    assert.equal(shown.binary, base64);
    assert.equal(shown.computedHash, "k0an0qEORusqQg9ZjKrxa-0Bo0-hQVYLXqWi5LHxg3k");
    assert.equal(shown.hashVerifies, true);
    assert.equal(shown.powHash, "00000000000018080775e8eae2fbd2053efcb410a3255c9bfcbaf7f9baa072d9");
    assert.equal(shown.target, "0000000000002f63321a391693dd0db184043297066008f268ddbe496c2cb742");
    assert.equal(shown.powVerifies, true);
    assert.equal(shown.powRequired, true);
  });
  it("reads base64url, quoted base64url, JSON objects and files of each", { skip }, () => {
    const { object, base64 } = firstMainnetHeader();
    const dir = mkdtempSync(join(tmpdir(), "braid-inspect-"));
    const raw = join(dir, "raw.bin");
    const text = join(dir, "header.txt");
    const json = join(dir, "header.json");
    writeFileSync(raw, decodeBase64Url(base64));
    writeFileSync(text, `${base64}\n`);
    writeFileSync(json, JSON.stringify(object));
    const expected = runHeaderInspect(base64);
    for (const argument of [`"${base64}"`, JSON.stringify(object), raw, text, json]) {
      assert.equal(runHeaderInspect(argument), expected, argument);
    }
  });
  it("says when the hash does not verify, and that development needs no PoW", () => {
    const genesis = genesisHeader(DEVELOPMENT, 0);
    const tampered = { ...genesis, nonce: 1n };
    const shown = JSON.parse(runHeaderInspect(encodeHeaderJson(tampered)));
    assert.equal(shown.hashVerifies, false);
    assert.equal(shown.header.hash, "sI6c8YyJ48Poan9J7F6-u9bRJ5Ss5XLZP3wa_jBLRi0");
    assert.notEqual(shown.computedHash, shown.header.hash);
    assert.equal(shown.powRequired, false);
  });
  it("shows a header of an unknown version", () => {
    const header = { ...genesisHeader(DEVELOPMENT, 0), versionCode: 0x8000_000e };
    const shown = JSON.parse(runHeaderInspect(encodeHeaderBase64(header)));
    assert.equal(shown.header.chainwebVersion, "unknown (0x8000000e)");
    assert.equal(shown.powRequired, "unknown version");
  });
  it("names what is wrong with bad input", () => {
    assert.throws(
      () => readHeaderArgument("AAAA"),
      (e: unknown) =>
        e instanceof UserError &&
        e.message ===
          "cannot read a block header from the argument: a block header is 318 bytes, got 3",
    );
    assert.throws(
      () => readHeaderArgument("./missing.bin"),
      /^UserError: no such file: .\/missing.bin$/,
    );
    assert.throws(
      () => readHeaderArgument("{nope"),
      /cannot read a block header from the argument: .*JSON/,
    );
    assert.throws(
      () => readHeaderArgument('{"nonce":"1"}'),
      /cannot read a block header from the argument: invalid block header object: missing field "featureFlags"/,
    );
  });
});
