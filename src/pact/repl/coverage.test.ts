import assert from "node:assert/strict";
import { resolve } from "node:path";
import { describe, it } from "node:test";
import { Coverage } from "./coverage.ts";
import { ReplSession } from "./session.ts";

const SOURCE = [
  "(module m G",
  "  (defcap G () true)",
  "  (defun f (x)",
  "    (if (> x 0)",
  '      "pos"',
  '      "neg"))',
  "  (defun unused () 1))",
  "(m.f 1)",
  "(m.f 2)",
].join("\n");

/** Checks a tracefile line by line against lcov's grammar. */
function assertLcovSyntax(text: string): void {
  assert.ok(text.endsWith("end_of_record\n"));
  for (const line of text.slice(0, -1).split("\n")) {
    assert.match(
      line,
      /^(TN:.*|SF:\/.+|FN:\d+,.+|FNDA:\d+,.+|FNF:\d+|FNH:\d+|DA:\d+,\d+|LF:\d+|LH:\d+|end_of_record)$/,
    );
  }
}

describe("Coverage", () => {
  it("writes exact lcov for the lines and functions a run covered", () => {
    const session = new ReplSession({ line: () => {}, readFile: () => SOURCE }, { coverage: true });
    session.loadFile("cov.repl", true);
    const lcov = session.coverage!.toLcov();
    assertLcovSyntax(lcov);
    assert.equal(
      lcov,
      [
        "TN:",
        `SF:${resolve("cov.repl")}`,
        "FN:2,m.G",
        "FN:3,m.f",
        "FN:7,m.unused",
        "FNDA:0,m.G",
        "FNDA:2,m.f",
        "FNDA:0,m.unused",
        "FNF:3",
        "FNH:1",
        "DA:2,0",
        "DA:4,2",
        "DA:5,2",
        "DA:6,0",
        "DA:7,0",
        "DA:8,1",
        "DA:9,1",
        "LF:7",
        "LH:4",
        "end_of_record",
        "",
      ].join("\n"),
    );
  });

  it("counts only files it was told about, and is empty without any", () => {
    const c = new Coverage();
    c.declareLine("x.repl", 0);
    c.hit("x.repl", 0);
    assert.equal(c.toLcov(), "");
  });
});
