import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PactSyntaxError } from "./errors.ts";
import { lex } from "./lexer.ts";
import { MAX_SOURCE_LENGTH } from "./limits.ts";
import { Tk } from "./token-buffer.ts";
import { KEYWORDS, PUNCTUATION, TOKEN_KINDS } from "./tokens.ts";

/** Tokens as `[kind, value, "line:col-endLine:endCol", start, end]`. */
function toks(source: string): [string, string, string, number, number][] {
  return lex(source).map((t) => [
    t.kind,
    t.value,
    `${t.span.line}:${t.span.col}-${t.span.endLine}:${t.span.endCol}`,
    t.span.start,
    t.span.end,
  ]);
}

/** `[kind, value]` pairs only. */
function kinds(source: string): [string, string][] {
  return lex(source).map((t) => [t.kind, t.value]);
}

/** The error `lex` throws, checked to be a lexer `PactSyntaxError`. */
function lexError(source: string): PactSyntaxError {
  try {
    lex(source, "t.pact");
  } catch (e) {
    assert.ok(e instanceof PactSyntaxError);
    assert.equal(e.phase, "lex");
    return e;
  }
  assert.fail(`expected a lexer error for ${JSON.stringify(source)}`);
}

function errorAt(source: string): [string, string] {
  const e = lexError(source);
  const s = e.span;
  return [e.message, `${s.line}:${s.col}-${s.endLine}:${s.endCol}`];
}

describe("lexer: punctuation and positions", () => {
  it("lexes every punctuation token with 0-based, end-exclusive spans", () => {
    assert.deepEqual(toks("( ) [ ] { } , : :: := ."), [
      ["(", "(", "0:0-0:1", 0, 1],
      [")", ")", "0:2-0:3", 2, 3],
      ["[", "[", "0:4-0:5", 4, 5],
      ["]", "]", "0:6-0:7", 6, 7],
      ["{", "{", "0:8-0:9", 8, 9],
      ["}", "}", "0:10-0:11", 10, 11],
      [",", ",", "0:12-0:13", 12, 13],
      [":", ":", "0:14-0:15", 14, 15],
      ["::", "::", "0:16-0:18", 16, 18],
      [":=", ":=", "0:19-0:21", 19, 21],
      [".", ".", "0:22-0:23", 22, 23],
    ]);
  });

  it("takes ':' ':' as '::' and ': =' as ':' then an identifier", () => {
    assert.deepEqual(kinds(":::"), [
      ["::", "::"],
      [":", ":"],
    ]);
    assert.deepEqual(kinds(": ="), [
      [":", ":"],
      ["ident", "="],
    ]);
  });

  it("counts lines on \\n only; \\r, tabs and form feeds are one column each", () => {
    assert.deepEqual(toks("a\r\n\tb\f\vc\n\nd"), [
      ["ident", "a", "0:0-0:1", 0, 1],
      ["ident", "b", "1:1-1:2", 4, 5],
      ["ident", "c", "1:4-1:5", 7, 8],
      ["ident", "d", "3:0-3:1", 10, 11],
    ]);
  });

  it("returns no tokens for empty, blank and comment-only input", () => {
    assert.deepEqual(lex(""), []);
    assert.deepEqual(lex(" \n\t "), []);
    assert.deepEqual(lex("; only a comment"), []);
  });

  it("skips comments to the end of the line", () => {
    assert.deepEqual(toks('(a ; (b "c\n d)'), [
      ["(", "(", "0:0-0:1", 0, 1],
      ["ident", "a", "0:1-0:2", 1, 2],
      ["ident", "d", "1:1-1:2", 12, 13],
      [")", ")", "1:2-1:3", 13, 14],
    ]);
    assert.deepEqual(kinds(";;; x\n;\ny"), [["ident", "y"]]);
  });

  it("numbers the token kinds in TOKEN_KINDS order", () => {
    const codes = Object.entries(Tk).filter(([name]) => name !== "Eof");
    assert.deepEqual(
      codes.map(([, code]) => code),
      [...TOKEN_KINDS.keys()],
    );
    assert.equal(TOKEN_KINDS[Tk.Ident], "ident");
    assert.equal(TOKEN_KINDS[Tk.StepWithRollback], "step-with-rollback");
    assert.equal(TOKEN_KINDS[Tk.ManagedAnn], "@managed");
    for (const kind of [...PUNCTUATION, ...KEYWORDS]) assert.equal(lex(kind)[0]?.kind, kind);
  });
});

describe("lexer: identifiers and keywords", () => {
  it("accepts letters, digits and %#+-_&$@<>=^?*!|/~ in identifiers", () => {
    assert.deepEqual(kinds("a-b? + %x#&$@<>=^?*!|/~_9 A1 - -> --1 x.y"), [
      ["ident", "a-b?"],
      ["ident", "+"],
      ["ident", "%x#&$@<>=^?*!|/~_9"],
      ["ident", "A1"],
      ["ident", "-"],
      ["ident", "->"],
      ["ident", "--1"],
      ["ident", "x"],
      [".", "."],
      ["ident", "y"],
    ]);
  });

  it("lexes each keyword as its own kind", () => {
    const source =
      "let let* lambda module interface use defun defcap defconst defschema deftable defpact " +
      "bless implements step step-with-rollback true false @doc @model @event @managed";
    const result = lex(source);
    assert.deepEqual(
      result.map((t) => t.kind),
      source.split(" "),
    );
    assert.deepEqual(
      result.map((t) => t.value),
      source.split(" "),
    );
  });

  it("prefers the longer identifier over a keyword prefix", () => {
    assert.deepEqual(kinds("letx let** @docs step- stepper truthy modules usex"), [
      ["ident", "letx"],
      ["ident", "let**"],
      ["ident", "@docs"],
      ["ident", "step-"],
      ["ident", "stepper"],
      ["ident", "truthy"],
      ["ident", "modules"],
      ["ident", "usex"],
    ]);
  });

  it("ends an identifier at punctuation, quotes and comments", () => {
    assert.deepEqual(kinds('a(b)c[d]e{f}g,h:i"s"j\'k;l'), [
      ["ident", "a"],
      ["(", "("],
      ["ident", "b"],
      [")", ")"],
      ["ident", "c"],
      ["[", "["],
      ["ident", "d"],
      ["]", "]"],
      ["ident", "e"],
      ["{", "{"],
      ["ident", "f"],
      ["}", "}"],
      ["ident", "g"],
      [",", ","],
      ["ident", "h"],
      [":", ":"],
      ["ident", "i"],
      ["string", "s"],
      ["ident", "j"],
      ["symbol", "k"],
    ]);
  });

  it("reuses one string per distinct identifier", () => {
    const [a, b] = lex("transfer transfer");
    assert.equal(a?.value, "transfer");
    assert.equal(b?.value, "transfer");
  });
});

describe("lexer: numbers", () => {
  it("lexes -?[0-9]+ and leaves decimals to the parser", () => {
    assert.deepEqual(toks("0 123 -5 1.50"), [
      ["number", "0", "0:0-0:1", 0, 1],
      ["number", "123", "0:2-0:5", 2, 5],
      ["number", "-5", "0:6-0:8", 6, 8],
      ["number", "1", "0:9-0:10", 9, 10],
      [".", ".", "0:10-0:11", 10, 11],
      ["number", "50", "0:11-0:13", 11, 13],
    ]);
  });

  it("splits digits from a following word and a minus sign from earlier digits", () => {
    assert.deepEqual(kinds("12abc 1-2 -5a (-1)"), [
      ["number", "12"],
      ["ident", "abc"],
      ["number", "1"],
      ["number", "-2"],
      ["ident", "-5a"],
      ["(", "("],
      ["number", "-1"],
      [")", ")"],
    ]);
  });
});

describe("lexer: strings and symbols", () => {
  it("decodes the escapes \\n \\t \\\\ \\\" \\'", () => {
    assert.deepEqual(toks('"a\\nb\\tc\\\\d\\"e\\\'f"'), [
      ["string", "a\nb\tc\\d\"e'f", "0:0-0:18", 0, 18],
    ]);
  });

  it("joins a \\ whitespace … \\ continuation, spanning lines", () => {
    assert.deepEqual(toks('"abc\\  \n   \\def" x'), [
      ["string", "abcdef", "0:0-1:8", 0, 16],
      ["ident", "x", "1:9-1:10", 17, 18],
    ]);
    assert.deepEqual(kinds('"a\\\r\n\\b"'), [["string", "ab"]]);
    assert.deepEqual(kinds('"a\\\u3000\\b"'), [["string", "ab"]]);
  });

  it("keeps any Unicode in strings and counts columns in code points", () => {
    assert.deepEqual(toks('"é😀" x'), [
      ["string", "é😀", "0:0-0:4", 0, 5],
      ["ident", "x", "0:5-0:6", 6, 7],
    ]);
  });

  it("lexes an empty string", () => {
    assert.deepEqual(toks('""'), [["string", "", "0:0-0:2", 0, 2]]);
  });

  it("lexes tick symbols [a-zA-Z][a-zA-Z0-9_-]* without the tick", () => {
    assert.deepEqual(toks("'abc-d_e1 'x.y"), [
      ["symbol", "abc-d_e1", "0:0-0:9", 0, 9],
      ["symbol", "x", "0:10-0:12", 10, 12],
      [".", ".", "0:12-0:13", 12, 13],
      ["ident", "y", "0:13-0:14", 13, 14],
    ]);
    assert.deepEqual(kinds("'a?"), [
      ["symbol", "a"],
      ["ident", "?"],
    ]);
  });
});

describe("lexer: characters beyond ASCII outside strings", () => {
  // Pact's lexer sees the low byte of each code point (alex over Latin-1).
  it("treats a character as the ASCII character sharing its low byte", () => {
    assert.deepEqual(toks("š Ġx"), [
      ["ident", "š", "0:0-0:1", 0, 1],
      ["ident", "x", "0:3-0:4", 3, 4],
    ]);
    assert.deepEqual(kinds("lťt"), [["let", "lťt"]]);
    assert.deepEqual(kinds("aĨb"), [
      ["ident", "a"],
      ["(", "("],
      ["ident", "b"],
    ]);
  });

  it("looks past a surrogate pair for the second character of '::'", () => {
    // U+1F63A's low byte is ':' .
    assert.deepEqual(toks("\u{1F63A}:x"), [
      ["::", "::", "0:0-0:2", 0, 3],
      ["ident", "x", "0:2-0:3", 3, 4],
    ]);
  });

  it("ends a comment at a character whose low byte is a newline", () => {
    assert.deepEqual(toks("; cĊx"), [["ident", "x", "0:4-0:5", 4, 5]]);
  });

  it("counts a surrogate pair as one column", () => {
    // U+1F628's low byte is '(' .
    assert.deepEqual(toks("\u{1F628}a"), [
      ["(", "(", "0:0-0:1", 0, 2],
      ["ident", "a", "0:1-0:2", 2, 3],
    ]);
  });
});

describe("lexer: errors", () => {
  it("names an unexpected character, with its code point when not plain ASCII", () => {
    assert.deepEqual(errorAt("(a é)"), [
      "t.pact:1:4: unexpected character 'é' (U+00E9)",
      "0:3-0:4",
    ]);
    assert.deepEqual(errorAt("x\n  `"), ["t.pact:2:3: unexpected character '`'", "1:2-1:3"]);
    assert.deepEqual(errorAt("\u0007"), ["t.pact:1:1: unexpected character U+0007", "0:0-0:1"]);
    assert.deepEqual(errorAt("a\\b"), ["t.pact:1:2: unexpected character '\\'", "0:1-0:2"]);
  });

  it("requires a letter after a tick", () => {
    assert.deepEqual(errorAt("'1"), [
      "t.pact:1:2: expected a letter after ' to start a symbol (like 'name), found '1'",
      "0:1-0:2",
    ]);
    assert.deepEqual(errorAt("x '"), [
      "t.pact:1:4: expected a letter after ' to start a symbol (like 'name), found the end of the input",
      "0:3-0:3",
    ]);
  });

  it("reports an unterminated string at its opening quote", () => {
    assert.deepEqual(errorAt('(a\n  "abc'), [
      't.pact:2:3: unterminated string: the string starting at 2:3 has no closing "',
      "1:2-1:3",
    ]);
    assert.deepEqual(errorAt('"abc\\'), [
      't.pact:1:1: unterminated string: the string starting at 1:1 has no closing "',
      "0:0-0:1",
    ]);
    assert.deepEqual(errorAt('"abc\\ \n  '), [
      't.pact:1:1: unterminated string: the string starting at 1:1 has no closing "',
      "0:0-0:1",
    ]);
  });

  it("rejects a line break or carriage return inside a string", () => {
    assert.deepEqual(errorAt('x "ab\ncd"'), [
      "t.pact:1:6: line break inside the string starting at 1:3 " +
        "(write \\n for a newline, or end the line with \\ and resume the string after a \\)",
      "0:5-0:6",
    ]);
    assert.deepEqual(errorAt('"ab\rcd"'), [
      "t.pact:1:4: carriage return inside the string starting at 1:1",
      "0:3-0:4",
    ]);
  });

  it("rejects unknown escapes, naming the escape", () => {
    assert.deepEqual(errorAt('"a\\x41"'), [
      "t.pact:1:3: invalid escape \\x in a string; the escapes are \\n \\t \\\\ \\\" \\' " +
        "and \\ followed by whitespace",
      "0:2-0:4",
    ]);
    assert.deepEqual(errorAt('"a\\r"'), [
      "t.pact:1:3: the escape \\r is not supported in Pact strings",
      "0:2-0:4",
    ]);
    assert.deepEqual(errorAt('"\\u00e9"')[0].slice(0, 30), "t.pact:1:2: invalid escape \\u ");
  });

  it("requires a continuation to resume with a backslash", () => {
    assert.deepEqual(errorAt('"ab\\  \n  cd"'), [
      "t.pact:2:3: a string continuation (\\ followed by whitespace) must resume with \\, found 'c'",
      "1:2-1:3",
    ]);
  });

  it("rejects a digit-like character beyond ASCII in a number", () => {
    // U+0131's low byte is '1': Pact's lexer takes it as a digit, then fails converting it.
    assert.deepEqual(errorAt("ĭ1"), [
      "t.pact:1:1: unexpected character 'ĭ' (U+012D) in a number",
      "0:0-0:1",
    ]);
    assert.deepEqual(errorAt("12ı"), [
      "t.pact:1:3: unexpected character 'ı' (U+0131) in a number",
      "0:2-0:3",
    ]);
  });

  it("refuses sources longer than MAX_SOURCE_LENGTH", () => {
    assert.equal(MAX_SOURCE_LENGTH, 16 * 1024 * 1024);
    assert.deepEqual(lex(" ".repeat(MAX_SOURCE_LENGTH)), []);
    assert.deepEqual(errorAt(" ".repeat(MAX_SOURCE_LENGTH + 1)), [
      `t.pact:1:1: source is ${MAX_SOURCE_LENGTH + 1} characters long; the limit is ${MAX_SOURCE_LENGTH}`,
      "0:0-0:0",
    ]);
  });

  it("uses (interactive) as the file name by default", () => {
    assert.throws(() => lex("é"), {
      name: "PactSyntaxError",
      message: "(interactive):1:1: unexpected character 'é' (U+00E9)",
    });
  });
});
