import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { findScript, runFile } from "./run-file.ts";

const testdata = join(dirname(fileURLToPath(import.meta.url)), "testdata");

function run(file: string, options = {}) {
  let stdout = "";
  let stderr = "";
  const written = new Map<string, string>();
  const code = runFile(join(testdata, file), options, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    readFile: (p) => readFileSync(p, "utf8"),
    writeFile: (p, t) => {
      written.set(p, t);
    },
  });
  return { code, stdout, stderr, written };
}

describe("runFile", () => {
  for (const file of ["language.repl", "modules.repl", "environment.repl"]) {
    it(`runs ${file}: every expectation holds`, () => {
      const r = run(file);
      assert.equal(r.stdout, "Load successful\n");
      assert.equal(r.stderr, "");
      assert.equal(r.code, 0);
    });
  }

  it("lists failed expectations on stdout, then Load failed on stderr", () => {
    const r = run("failing.repl");
    const f = join(testdata, "failing.repl");
    assert.equal(
      r.stdout,
      [
        `{"a": 1,"b": [1.5 "s"]}`,
        `${f}:1:0-1:20:FAILURE: fails expected: 1, received: 2`,
        `${f}:2:0-2:37:FAILURE: no failure: expected failure, got result`,
        `${f}:3:0-3:63:FAILURE: wrong message: expected error message 'other', got 'boom'`,
        `${f}:4:0-4:49:FAILURE: Expect-that: Did not satisfy condition: condition`,
        `${f}:6:0-6:47:FAILURE: actual fails evaluation of actual failed with error message:`,
        "bad",
        "",
      ].join("\n"),
    );
    assert.equal(r.stderr, "Load failed\n");
    assert.equal(r.code, 1);
  });

  it("renders an uncaught error with the source line, a marker and the call stack", () => {
    const r = run("uncaught.repl");
    const f = join(testdata, "uncaught.repl");
    // The module hash of uncaught.repl's module `m` (Pact's CBOR-based module hash).
    const hash = "NyTCQ--AKQX-k-M9Z_YMyCKE1OzZDuYffd4g0nRqaCc";
    assert.equal(
      r.stderr,
      [
        `${f}:3:19: x must be positive`,
        ` 3 |   (defun inner (x) (enforce (> x 0) "x must be positive"))`,
        `   |                    ${"^".repeat(38)}`,
        `  at(m.inner.{${hash}} -1):${f}:3:19-3:28`,
        `  at(m.outer.{${hash}} -1):${f}:4:0-4:10`,
        "",
        "Load failed",
        "",
      ].join("\n"),
    );
    assert.equal(r.stdout, "");
    assert.equal(r.code, 1);
  });

  it("with trace, shows each top-level result and print output with its location", () => {
    const r = run("failing.repl", { trace: true });
    const f = join(testdata, "failing.repl");
    const lines = r.stdout.split("\n");
    assert.equal(lines[0], `${f}:0:0-0:21:Trace: "Expect: success passes"`);
    assert.equal(lines[1], `${f}:1:0-1:20:Trace: "FAILURE: fails expected: 1, received: 2"`);
    assert.equal(lines[5], `${f}:5:0-5:32:Print: {"a": 1,"b": [1.5 "s"]}`);
  });

  it("with coverage, writes an lcov report next to the file", () => {
    const r = run("uncaught.repl", { coverage: true });
    const report = r.written.get(join(testdata, "coverage", "lcov.info"));
    assert.ok(report !== undefined);
    assert.match(report, /^TN:\nSF:.*uncaught\.repl\n/);
    assert.match(report, /\nend_of_record\n$/);
  });
});

describe("findScript", () => {
  it("prefers the .repl named like the .pact file", () => {
    assert.equal(
      findScript("dir/coin.pact", () => ["coin.pact", "coin.repl", "other.repl"]),
      join("dir", "coin.repl"),
    );
  });

  it("else takes the only .repl in the directory", () => {
    assert.equal(
      findScript("dir/coin.pact", () => ["coin.pact", "tests.repl"]),
      join("dir", "tests.repl"),
    );
  });

  it("finds nothing when the choice is ambiguous", () => {
    assert.equal(
      findScript("dir/coin.pact", () => ["a.repl", "b.repl"]),
      null,
    );
  });

  it("finds the testdata scripts by listing the directory", () => {
    const scripts = readdirSync(testdata).filter((n) => n.endsWith(".repl"));
    assert.ok(scripts.length > 1);
    assert.equal(findScript(join(testdata, "language.pact")), join(testdata, "language.repl"));
  });
});
