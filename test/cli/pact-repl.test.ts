/**
 * `braid FILE`, `-t`, `-c`, `-r`, `-b` and the interactive REPL, run for real in a child process:
 * exact output, streams and exit codes.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { CORE_NATIVE_ORDER } from "../../src/pact/index.ts";
import { runBraid } from "../support/braid-cli.ts";

const dir = mkdtempSync(join(tmpdir(), "braid-pact-"));
after(() => rmSync(dir, { recursive: true, force: true }));

const braid = (args: string[], stdin = "") => runBraid(dir, args, stdin);

function file(name: string, text: string): string {
  writeFileSync(join(dir, name), text);
  return name;
}

const PASSING = file(
  "ok.repl",
  '(module m G (defcap G () true) (defun f (x) (* x 2)))\n(expect "f" 4 (m.f 2))\n(print "hi")\n',
);

describe("braid FILE", () => {
  it("prints Load successful and exits 0 when every expectation holds", () => {
    assert.deepEqual(braid([PASSING]), { code: 0, stdout: '"hi"\nLoad successful\n', stderr: "" });
  });

  it("lists failures on stdout and Load failed on stderr, exit 1", () => {
    const f = file("bad.repl", '(expect "sum" 3 (+ 1 1))\n');
    assert.deepEqual(braid([f]), {
      code: 1,
      stdout: "bad.repl:0:0-0:24:FAILURE: sum expected: 3, received: 2\n",
      stderr: "Load failed\n",
    });
  });

  it("renders an uncaught error on stderr", () => {
    const f = file("err.repl", "(+ 1 nope)\n");
    assert.deepEqual(braid([f]), {
      code: 1,
      stdout: "",
      stderr:
        "err.repl:1:5: Cannot find module:  nope\n 1 | (+ 1 nope)\n   |      ^^^^\n\n\nLoad failed\n",
    });
  });

  it("-t traces each top-level result with its location", () => {
    const r = braid(["-t", PASSING]);
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      [
        `ok.repl:0:0-0:53:Trace: Loaded module m, hash ${r.stdout.match(/hash (\S+)/)?.[1]}`,
        'ok.repl:1:0-1:22:Trace: "Expect: success f"',
        'ok.repl:2:0-2:12:Print: "hi"',
        "Load successful",
        "",
      ].join("\n"),
    );
  });

  it("-c writes coverage/lcov.info next to the file", () => {
    assert.equal(braid(["-c", PASSING]).code, 0);
    const lcov = readFileSync(join(dir, "coverage", "lcov.info"), "utf8");
    assert.match(lcov, /^TN:\nSF:\/.*ok\.repl\nFN:1,m\.G\nFN:1,m\.f\n/);
    assert.match(lcov, /\nDA:2,1\n/);
    assert.ok(lcov.endsWith("end_of_record\n"));
  });

  it("-r runs the .repl script of a .pact file", () => {
    const pact = file("lib.pact", "(module lib G (defcap G () true) (defun one () 1))\n");
    file("lib.repl", '(load "lib.pact")\n(expect "one" 1 (lib.one))\n');
    assert.deepEqual(braid(["-r", pact]), { code: 0, stdout: "Load successful\n", stderr: "" });
    assert.deepEqual(braid([pact]), { code: 0, stdout: "Load successful\n", stderr: "" });
  });

  it("a .pact file runs without the REPL natives", () => {
    const f = file("core.pact", '(expect "x" 1 1)\n');
    const r = braid([f]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^core\.pact:1:1: Cannot find module: {2}expect\n/);
  });

  it("rejects -t without a file", () => {
    assert.deepEqual(braid(["-t"]), {
      code: 1,
      stdout: "",
      stderr: "braid: -t/--trace needs a FILE to run\n",
    });
  });
});

describe("braid -b", () => {
  it("lists the natives in Pact's order, one per line in quotes", () => {
    const r = braid(["-b"]);
    assert.equal(r.code, 0);
    const lines = r.stdout.split("\n");
    assert.deepEqual(lines.slice(0, 5), ['"+"', '"-"', '"*"', '"/"', '"negate"']);
    assert.ok(lines.includes('"expect-failure"'));
    const core = lines.map((l) => l.slice(1, -1)).filter((n) => CORE_NATIVE_ORDER.includes(n));
    assert.deepEqual(
      core,
      CORE_NATIVE_ORDER.filter((n) => core.includes(n)),
    );
  });
});

describe("braid (interactive)", () => {
  it("prompts, continues unfinished forms, shows results and errors, says goodbye", () => {
    const r = braid([], '(+ 1 2)\n(let ((x 1))\n  (+ x 1))\nnope\n"s"\n');
    assert.equal(r.code, 0);
    assert.equal(
      r.stdout,
      [
        "pact> 3",
        "pact> ....> 2",
        "pact> (interactive):1:0: Cannot find module:  nope",
        " 1 | nope",
        "   | ^^^^",
        "",
        'pact> "s"',
        "pact> goodbye",
        "",
      ].join("\n"),
    );
  });
});
