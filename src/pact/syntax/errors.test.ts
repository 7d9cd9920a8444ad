import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactSyntaxError, renderSourceError, renderSyntaxError } from "./errors.ts";
import { parseProgram } from "./parser.ts";
import type { Span } from "./span.ts";

function sp(line: number, col: number, endLine: number, endCol: number): Span {
  return { line, col, endLine, endCol, start: 0, end: 0 };
}

const SOURCE = '(module m g\n  (defun f ()\n    (+ 1 "a")))\n';

describe("PactSyntaxError", () => {
  it("puts the file and the 1-based line and column in the message", () => {
    const error = new PactSyntaxError("parse", "a.pact", sp(2, 4, 2, 7), "something is off");
    assert.equal(error.message, "a.pact:3:5: something is off");
    assert.equal(error.name, "PactSyntaxError");
    assert.equal(error.reason, "something is off");
    assert.equal(error.file, "a.pact");
    assert.equal(error.phase, "parse");
    assert.ok(error instanceof Error);
  });
});

describe("renderSourceError", () => {
  it("renders the header, the numbered line and a caret marker like the Pact CLI", () => {
    assert.equal(
      renderSourceError({
        file: "a.pact",
        source: SOURCE,
        span: sp(2, 4, 2, 13),
        message: "bad call",
      }),
      'a.pact:3:4: bad call\n 3 |     (+ 1 "a")))\n   |     ^^^^^^^^^\n\n',
    );
  });

  it("shows endLine - line lines of a multi-line span, at least one", () => {
    assert.equal(
      renderSourceError({ file: "a.pact", source: SOURCE, span: sp(0, 0, 2, 14), message: "m" }),
      "a.pact:1:0: m\n 1 | (module m g\n 2 |   (defun f ()\n   | ^^^^^^^^^^^^^^\n\n",
    );
    assert.equal(
      renderSourceError({ file: "a.pact", source: SOURCE, span: sp(1, 2, 1, 2), message: "m" }),
      "a.pact:2:2: m\n 2 |   (defun f ()\n   |   ^\n\n",
    );
  });

  it("pads line numbers to the width of the last line number", () => {
    const source = `${"\n".repeat(9)}(f)`;
    assert.equal(
      renderSourceError({ file: "b.repl", source, span: sp(9, 1, 9, 2), message: "m" }),
      "b.repl:10:1: m\n 10 | (f)\n    |  ^\n\n",
    );
  });

  it("prints frame lines after the marker", () => {
    assert.equal(
      renderSourceError({
        file: "a.pact",
        source: SOURCE,
        span: sp(0, 1, 0, 7),
        message: "m",
        frames: ["  at m.f:1:2", "  at m.g:3:4"],
      }),
      "a.pact:1:1: m\n 1 | (module m g\n   |  ^^^^^^\n  at m.f:1:2\n  at m.g:3:4\n",
    );
  });

  it("shows no source line when the span is past the end of the source", () => {
    assert.equal(
      renderSourceError({ file: "a.pact", source: "x\n", span: sp(1, 0, 1, 0), message: "m" }),
      "a.pact:2:0: m\n   | ^\n\n",
    );
  });
});

describe("renderSyntaxError", () => {
  it("renders a parser error at the offending token", () => {
    const source = "(module m g\n  (defun f () 1]\n";
    try {
      parseProgram(source, "c.pact");
      assert.fail("expected a syntax error");
    } catch (e) {
      assert.ok(e instanceof PactSyntaxError);
      assert.equal(
        renderSyntaxError(e, source),
        "c.pact:2:15: expected ')' to close defun f opened at 2:3, found ']'\n" +
          " 2 |   (defun f () 1]\n" +
          "   |                ^\n\n",
      );
    }
  });

  it("renders an unterminated string at its opening quote", () => {
    const source = '(print "hello)';
    try {
      parseProgram(source, "d.repl");
      assert.fail("expected a syntax error");
    } catch (e) {
      assert.ok(e instanceof PactSyntaxError);
      assert.equal(
        renderSyntaxError(e, source),
        'd.repl:1:7: unterminated string: the string starting at 1:8 has no closing "\n' +
          ' 1 | (print "hello)\n' +
          "   |        ^\n\n",
      );
    }
  });
});
