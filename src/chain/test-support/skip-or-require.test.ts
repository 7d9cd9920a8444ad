import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { missingDataSkip, skipOrRequire } from "./skip-or-require.ts";

describe("skipOrRequire", () => {
  it("runs when nothing is missing, skips with the reason, and throws where required", () => {
    assert.equal(skipOrRequire(undefined, undefined), false);
    assert.equal(skipOrRequire(undefined, "required on CI"), false);
    assert.equal(skipOrRequire("no nft", undefined), "no nft");
    assert.throws(() => skipOrRequire("no nft", "required on CI"), {
      message: "required on CI, but no nft",
    });
  });
});

describe("missingDataSkip", () => {
  const dir = mkdtempSync(join(tmpdir(), "braid-skip-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const present = join(dir, "present.json");
  const absent = join(dir, "absent.json");
  writeFileSync(present, "{}");

  it("names the first absent file in one line, off CI", () => {
    assert.equal(missingDataSkip([present], {}), false);
    assert.equal(
      missingDataSkip([present, absent, join(dir, "other.json")], { CI: "false" }),
      `${absent} is missing (test data beside the repository)`,
    );
  });
  it("fails on CI (CI=true) when a file is absent", () => {
    assert.equal(missingDataSkip([present], { CI: "true" }), false);
    assert.throws(() => missingDataSkip([absent], { CI: "true" }), {
      message: `this test data is required on CI (CI=true), but ${absent} is missing (test data beside the repository)`,
    });
  });
});
