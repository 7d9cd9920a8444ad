import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Decimal } from "../values/decimal.ts";
import { UNIT } from "../values/types.ts";
import type { AppExpr, DefPact, LetExpr, Module } from "./ast.ts";
import { PactSyntaxError } from "./errors.ts";
import { MAX_NESTING_DEPTH } from "./limits.ts";
import { parseExpression, parseProgram, parseReplProgram } from "./parser.ts";
import type { Span } from "./span.ts";

function sp(
  line: number,
  col: number,
  endLine: number,
  endCol: number,
  start: number,
  end: number,
): Span {
  return { line, col, endLine, endCol, start, end };
}

/** A copy of a parse tree without `span`/`nameSpan` fields, for tests about structure. */
function strip(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strip);
  if (
    node === null ||
    typeof node !== "object" ||
    Object.getPrototypeOf(node) !== Object.prototype
  ) {
    return node;
  }
  if (node === UNIT) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== "span" && key !== "nameSpan") out[key] = strip(value);
  }
  return out;
}

const expr = (source: string) => strip(parseExpression(source));
const program = (source: string) => strip(parseProgram(source));
const repl = (source: string) => strip(parseReplProgram(source));

const bare = (name: string) => ({ kind: "var", name: { kind: "bare", name } });
const str = (value: string) => ({ kind: "constant", value });
const int = (value: bigint) => ({ kind: "constant", value });
const app = (fn: string, ...args: unknown[]) => ({ kind: "app", fn: bare(fn), args });
const arg = (name: string, type: unknown = null) => ({ name, type });
const prim = (name: string) => ({ kind: "prim", name });

/** The message of the syntax error `run` throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof PactSyntaxError, String(e));
    assert.equal(e.phase, "parse");
    return e.message;
  }
  assert.fail("expected a syntax error");
}
const exprError = (source: string) => failure(() => parseExpression(source, "t.pact"));
const programError = (source: string) => failure(() => parseProgram(source, "t.pact"));

// A module wrapper for definitions: `(module m g <defs>)`.
const inModule = (defs: string) => program(`(module m g ${defs})`) as [{ defs: unknown[] }];
const moduleDefs = (defs: string) => inModule(defs)[0].defs;

describe("parser: atoms and spans", () => {
  it("parses bare, qualified, namespaced and module-reference names with spans", () => {
    assert.deepEqual(parseExpression("x"), {
      kind: "var",
      name: { kind: "bare", name: "x" },
      span: sp(0, 0, 0, 1, 0, 1),
    });
    assert.deepEqual(parseExpression("coin.transfer"), {
      kind: "var",
      name: { kind: "qualified", module: { namespace: null, name: "coin" }, name: "transfer" },
      span: sp(0, 0, 0, 13, 0, 13),
    });
    assert.deepEqual(parseExpression("free.m.f"), {
      kind: "var",
      name: { kind: "qualified", module: { namespace: "free", name: "m" }, name: "f" },
      span: sp(0, 0, 0, 8, 0, 8),
    });
    assert.deepEqual(parseExpression("tok::transfer"), {
      kind: "var",
      name: { kind: "dynamic", ref: "tok", name: "transfer" },
      span: sp(0, 0, 0, 13, 0, 13),
    });
  });

  it("parses literals: strings, symbols, integers, decimals, booleans and unit", () => {
    assert.deepEqual(parseExpression('"hi"'), {
      kind: "constant",
      value: "hi",
      span: sp(0, 0, 0, 4, 0, 4),
    });
    assert.deepEqual(parseExpression("'sym"), {
      kind: "constant",
      value: "sym",
      span: sp(0, 0, 0, 4, 0, 4),
    });
    assert.deepEqual(parseExpression("-42"), {
      kind: "constant",
      value: -42n,
      span: sp(0, 0, 0, 3, 0, 3),
    });
    assert.deepEqual(parseExpression("123456789012345678901234567890"), {
      kind: "constant",
      value: 123456789012345678901234567890n,
      span: sp(0, 0, 0, 30, 0, 30),
    });
    assert.deepEqual(parseExpression("1.50"), {
      kind: "constant",
      value: new Decimal(150n, 2),
      span: sp(0, 0, 0, 4, 0, 4),
    });
    assert.deepEqual(parseExpression("true"), {
      kind: "constant",
      value: true,
      span: sp(0, 0, 0, 4, 0, 4),
    });
    assert.deepEqual(parseExpression("false"), {
      kind: "constant",
      value: false,
      span: sp(0, 0, 0, 5, 0, 5),
    });
    assert.deepEqual(parseExpression("( )"), {
      kind: "constant",
      value: UNIT,
      span: sp(0, 0, 0, 3, 0, 3),
    });
  });

  it("builds decimals from number '.' number, signs and spaces included", () => {
    assert.deepEqual(expr("-0.5"), { kind: "constant", value: new Decimal(-5n, 1) });
    assert.deepEqual(expr("-12.005"), { kind: "constant", value: new Decimal(-12005n, 3) });
    assert.deepEqual(expr("0.0"), { kind: "constant", value: new Decimal(0n, 1) });
    assert.deepEqual(expr("1 . 5"), { kind: "constant", value: new Decimal(15n, 1) });
  });

  it("accepts 255 decimal places and rejects 256", () => {
    const digits = "1".repeat(255);
    assert.deepEqual(expr(`0.${digits}`), {
      kind: "constant",
      value: new Decimal(BigInt(digits), 255),
    });
    assert.equal(
      exprError(`1.${digits}1`),
      "t.pact:1:1: the decimal 1.11111111… has 256 digits after the point; Pact decimals have at most 255",
    );
  });

  it("rejects a fraction without digits or with a sign", () => {
    assert.equal(
      exprError("1.a"),
      "t.pact:1:3: expected the digits after '1.', found identifier a",
    );
    assert.equal(
      exprError("1."),
      "t.pact:1:3: expected the digits after '1.', found the end of the input",
    );
    assert.equal(exprError("1.-5"), "t.pact:1:1: a decimal's fraction cannot have a sign: 1.-5");
  });

  it("spans a multi-line form from '(' to ')'", () => {
    assert.deepEqual(parseExpression("(f\n  1)"), {
      kind: "app",
      fn: { kind: "var", name: { kind: "bare", name: "f" }, span: sp(0, 1, 0, 2, 1, 2) },
      args: [{ kind: "constant", value: 1n, span: sp(1, 2, 1, 3, 5, 6) }],
      span: sp(0, 0, 1, 4, 0, 7),
    });
  });
});

describe("parser: lists and objects", () => {
  it("parses lists with spaces, with commas, and empty", () => {
    assert.deepEqual(expr("[1 'a [] ]"), {
      kind: "list",
      items: [int(1n), str("a"), { kind: "list", items: [] }],
    });
    assert.deepEqual(expr("[1, (f), x]"), { kind: "list", items: [int(1n), app("f"), bare("x")] });
    assert.deepEqual(parseExpression("[]"), {
      kind: "list",
      items: [],
      span: sp(0, 0, 0, 2, 0, 2),
    });
  });

  it("requires commas everywhere or nowhere in a list", () => {
    assert.equal(
      exprError("[1, 2 3]"),
      "t.pact:1:7: expected ',' or ']' (the list opened at 1:1 separates its items with commas), found number 3",
    );
    assert.equal(
      exprError("[1 2, 3]"),
      "t.pact:1:5: unexpected ','; a list separates its items with commas everywhere or nowhere",
    );
    assert.equal(exprError("[1,]"), "t.pact:1:4: expected an expression, found ']'");
    assert.equal(exprError("[,1]"), "t.pact:1:2: expected an expression, found ','");
  });

  it("parses objects with string and symbol keys, keeping order and duplicates", () => {
    assert.deepEqual(parseExpression('{ "a": 1, \'b: "x", "a": 2 }'), {
      kind: "object",
      fields: [
        { field: "a", value: { kind: "constant", value: 1n, span: sp(0, 7, 0, 8, 7, 8) } },
        { field: "b", value: { kind: "constant", value: "x", span: sp(0, 14, 0, 17, 14, 17) } },
        { field: "a", value: { kind: "constant", value: 2n, span: sp(0, 24, 0, 25, 24, 25) } },
      ],
      span: sp(0, 0, 0, 27, 0, 27),
    });
    assert.deepEqual(expr("{}"), { kind: "object", fields: [] });
  });

  it("accepts one leading comma in an object, as Pact's grammar does", () => {
    assert.deepEqual(expr('{, "a": 1}'), {
      kind: "object",
      fields: [{ field: "a", value: int(1n) }],
    });
    assert.equal(
      exprError("{,}"),
      `t.pact:1:3: expected a field name (a string like "name") in the object, found '}'`,
    );
  });

  it("reports malformed objects", () => {
    assert.equal(
      exprError('{"a" 1}'),
      "t.pact:1:6: expected ':' after the field name, found number 1",
    );
    assert.equal(
      exprError('{"a": 1,}'),
      `t.pact:1:9: expected a field name (a string like "name") in the object, found '}'`,
    );
    assert.equal(
      exprError('{"a": 1 "b": 2}'),
      "t.pact:1:9: expected '}' to close the object opened at 1:1, found string \"b\"",
    );
    assert.equal(
      exprError("{a: 1}"),
      `t.pact:1:2: expected a field name (a string like "name") in the object, found identifier a`,
    );
    assert.equal(
      exprError('{"a" := x}'),
      `t.pact:1:6: ':=' binds fields only in a binding form passed to a function, as in (bind obj {"f" := x} x); an object uses ':'`,
    );
  });
});

describe("parser: applications and binding forms", () => {
  it("parses applications, including a form in head position", () => {
    assert.deepEqual(expr("(+ 1 x)"), app("+", int(1n), bare("x")));
    assert.deepEqual(expr("((f) 1)"), { kind: "app", fn: app("f"), args: [int(1n)] });
    assert.deepEqual(expr("(f)"), app("f"));
    assert.deepEqual(
      expr("(if (< a b) a b)"),
      app("if", app("<", bare("a"), bare("b")), bare("a"), bare("b")),
    );
  });

  it("makes a binding form take the arguments after it as its body", () => {
    const tree = parseExpression('(with-read t k { "a" := a, \'b := b:integer } (f a) b)');
    assert.deepEqual(strip(tree), {
      kind: "app",
      fn: bare("with-read"),
      args: [
        bare("t"),
        bare("k"),
        {
          kind: "binding",
          fields: [
            { field: "a", arg: arg("a") },
            { field: "b", arg: arg("b", prim("integer")) },
          ],
          body: [app("f", bare("a")), bare("b")],
        },
      ],
    });
    // As in Pact, the binding form carries the span of the whole application.
    assert.deepEqual((tree as AppExpr).args[2]!.span, sp(0, 0, 0, 53, 0, 53));
  });

  it("nests a second binding form inside the first, and allows an empty body", () => {
    assert.deepEqual(expr('(bind o {"a" := a} x {"b" := b} y)'), {
      kind: "app",
      fn: bare("bind"),
      args: [
        bare("o"),
        {
          kind: "binding",
          fields: [{ field: "a", arg: arg("a") }],
          body: [
            bare("x"),
            { kind: "binding", fields: [{ field: "b", arg: arg("b") }], body: [bare("y")] },
          ],
        },
      ],
    });
    assert.deepEqual(expr('(bind {"a":1} {"a":=a})'), {
      kind: "app",
      fn: bare("bind"),
      args: [
        { kind: "object", fields: [{ field: "a", value: int(1n) }] },
        { kind: "binding", fields: [{ field: "a", arg: arg("a") }], body: [] },
      ],
    });
  });

  it("reports malformed binding forms", () => {
    assert.equal(
      exprError('(bind o {"a" := a, "b": 1})'),
      "t.pact:1:23: expected ':=' after the field name in a binding form, found ':'",
    );
    assert.equal(
      exprError('(bind o {"a" := a "b" := b})'),
      `t.pact:1:19: expected '}' to close the binding form opened at 1:9, found string "b"`,
    );
    assert.equal(
      exprError('(bind o {"a" := a, b := b})'),
      "t.pact:1:20: expected a field name (a string) in the binding form, found identifier b",
    );
    assert.equal(
      exprError('(bind o {"a" := 1})'),
      "t.pact:1:17: expected the variable to bind the field to, found number 1",
    );
    assert.equal(
      exprError('({"a" := a})'),
      "t.pact:1:7: ':=' binds fields only in a binding form passed to a function, as in (bind obj {\"f\" := x} x); an object uses ':'",
    );
  });

  it("reports incomplete names", () => {
    assert.equal(
      exprError("m."),
      "t.pact:1:3: expected a name after '.', found the end of the input",
    );
    assert.equal(exprError("ns.m.(f)"), "t.pact:1:6: expected a name after '.', found '('");
    assert.equal(exprError("m::1"), "t.pact:1:4: expected a name after '::', found number 1");
    assert.equal(exprError("a.b.c.d"), "t.pact:1:6: unexpected '.' after the expression");
  });

  it("reports unclosed and mismatched brackets with where they opened", () => {
    assert.equal(
      exprError("(+ 1\n  (f 2"),
      "t.pact:2:7: expected ')' to close '(' opened at 2:3, found the end of the input",
    );
    assert.equal(
      exprError("(+ 1 2]"),
      "t.pact:1:7: expected ')' to close '(' opened at 1:1, found ']'",
    );
    assert.equal(
      exprError("[1 2)"),
      "t.pact:1:5: expected ']' to close the list opened at 1:1, found ')'",
    );
    assert.equal(exprError("1 2"), "t.pact:1:3: unexpected number 2 after the expression");
    assert.equal(exprError(""), "t.pact:1:1: expected an expression, found the end of the input");
    assert.equal(exprError(")"), "t.pact:1:1: expected an expression, found ')'");
  });
});

describe("parser: let and lambda", () => {
  it("parses let and let* with typed and untyped binders", () => {
    assert.deepEqual(expr("(let ((x 1) (y:[string] [])) x y)"), {
      kind: "let",
      star: false,
      bindings: [
        { arg: arg("x"), value: int(1n) },
        {
          arg: arg("y", { kind: "list", elem: prim("string") }),
          value: { kind: "list", items: [] },
        },
      ],
      body: [bare("x"), bare("y")],
    });
    assert.deepEqual(expr("(let* ((x 1)) x)"), {
      kind: "let",
      star: true,
      bindings: [{ arg: arg("x"), value: int(1n) }],
      body: [bare("x")],
    });
  });

  it("gives binders the span of their name", () => {
    const tree = parseExpression("(let ((xy:integer 1)) xy)") as LetExpr;
    assert.deepEqual(tree.bindings[0]!.arg, {
      name: "xy",
      type: prim("integer"),
      span: sp(0, 7, 0, 9, 7, 9),
    });
  });

  it("parses lambdas with typed and untyped parameters", () => {
    assert.deepEqual(expr("(lambda (a b:decimal) (+ a b))"), {
      kind: "lambda",
      params: [arg("a"), arg("b", prim("decimal"))],
      body: [app("+", bare("a"), bare("b"))],
    });
    assert.deepEqual(expr("(lambda () 1)"), { kind: "lambda", params: [], body: [int(1n)] });
  });

  it("reports malformed let and lambda forms", () => {
    assert.equal(
      exprError("(let () 1)"),
      "t.pact:1:7: let needs at least one binding, as in (let ((x 1)) x)",
    );
    assert.equal(
      exprError("(let ((x 1)))"),
      "t.pact:1:13: expected the body of the let: at least one expression",
    );
    assert.equal(
      exprError("(let (x 1) x)"),
      "t.pact:1:7: expected '(' to start a binding or ')' to end the let bindings, found identifier x",
    );
    assert.equal(
      exprError("(let* x)"),
      "t.pact:1:7: expected '(' to start the let* bindings, as in (let* ((x 1)) x), found identifier x",
    );
    assert.equal(
      exprError("(let ((1 x)) x)"),
      "t.pact:1:8: expected the name to bind in let, found number 1",
    );
    assert.equal(
      exprError("(let ((x 1 2)) x)"),
      "t.pact:1:12: expected ')' to close the let binding opened at 1:7, found number 2",
    );
    assert.equal(
      exprError("(lambda (x))"),
      "t.pact:1:12: expected the body of the lambda: at least one expression",
    );
    assert.equal(
      exprError("(lambda x x)"),
      "t.pact:1:9: expected '(' to start the lambda's parameters, found identifier x",
    );
    assert.equal(
      exprError("(lambda (1) x)"),
      "t.pact:1:10: expected a parameter name or ')', found number 1",
    );
  });
});

describe("parser: types", () => {
  const typeOf = (t: string) =>
    (expr(`(lambda (x:${t}) x)`) as { params: { type: unknown }[] }).params[0]!.type;

  it("parses every primitive type name", () => {
    for (const name of [
      "integer",
      "decimal",
      "bool",
      "string",
      "time",
      "unit",
      "guard",
      "keyset",
    ]) {
      assert.deepEqual(typeOf(name), prim(name));
    }
    assert.deepEqual(typeOf("list"), { kind: "any-list" });
    assert.deepEqual(typeOf("object"), { kind: "any-object" });
  });

  it("parses list, object, table and module types", () => {
    assert.deepEqual(typeOf("[[integer]]"), {
      kind: "list",
      elem: { kind: "list", elem: prim("integer") },
    });
    assert.deepEqual(typeOf("object{account}"), {
      kind: "object",
      schema: { kind: "bare", name: "account" },
    });
    assert.deepEqual(typeOf("object{coin.account}"), {
      kind: "object",
      schema: { kind: "qualified", module: { namespace: null, name: "coin" }, name: "account" },
    });
    assert.deepEqual(typeOf("table{free.m.s}"), {
      kind: "table",
      schema: { kind: "qualified", module: { namespace: "free", name: "m" }, name: "s" },
    });
    assert.deepEqual(typeOf("module{fungible-v2, ns.iface}"), {
      kind: "modref",
      interfaces: [
        { namespace: null, name: "fungible-v2" },
        { namespace: "ns", name: "iface" },
      ],
    });
  });

  it("names unknown types", () => {
    assert.equal(
      exprError("(lambda (x:int) x)"),
      "t.pact:1:12: no such type: int; the types are integer, decimal, bool, string, time, unit, guard, " +
        "keyset, list, [type], object, object{schema}, table{schema} and module{interface}",
    );
    assert.equal(
      exprError("(lambda (x:string{s}) x)"),
      "t.pact:1:12: no such type: string{…}; only object{…} and table{…} take a schema",
    );
    assert.equal(
      exprError("(lambda (x:) x)"),
      "t.pact:1:12: expected a type such as integer, [string] or object{schema}, found ')'",
    );
    assert.equal(
      exprError("(lambda (x:module) x)"),
      "t.pact:1:18: expected '{' and interface names, as in module{fungible-v2}, found ')'",
    );
    assert.equal(
      exprError("(lambda (x:module{}) x)"),
      "t.pact:1:19: expected an interface name, found '}'",
    );
    assert.equal(
      exprError("(lambda (x:[integer) x)"),
      "t.pact:1:20: expected ']' to close the list type opened at 1:12, found ')'",
    );
    assert.equal(
      exprError("(lambda (x:object{a::b}) x)"),
      "t.pact:1:20: expected '}' to close the object type opened at 1:18, found '::'",
    );
  });

  it("always reads a '{' after a type name as a schema, as Pact does", () => {
    assert.equal(
      programError('(module m g (defconst X:object {"a": 1}))'),
      `t.pact:1:33: expected a schema name, found string "a"`,
    );
    assert.equal(
      exprError('(let ((o:object {"a": 1})) o)'),
      `t.pact:1:18: expected a schema name, found string "a"`,
    );
  });
});

describe("parser: definitions", () => {
  it("parses a defun with return type, parameters, docs, model and body, with spans", () => {
    const src =
      '(module m g (defun f:integer (a b:string) @doc "d" @model [(property (> a 0))] a))';
    const [mod] = parseProgram(src) as [Module];
    assert.deepEqual(mod.defs[0], {
      kind: "defun",
      name: "f",
      nameSpan: sp(0, 19, 0, 20, 19, 20),
      returnType: { kind: "prim", name: "integer" },
      params: [
        { name: "a", type: null, span: sp(0, 30, 0, 31, 30, 31) },
        { name: "b", type: { kind: "prim", name: "string" }, span: sp(0, 32, 0, 33, 32, 33) },
      ],
      annotations: [
        { kind: "doc", text: "d", style: "annotation" },
        {
          kind: "model",
          props: [
            {
              kind: "sequence",
              items: [
                {
                  kind: "atom",
                  name: { kind: "bare", name: "property" },
                  span: sp(0, 60, 0, 68, 60, 68),
                },
                {
                  kind: "sequence",
                  items: [
                    {
                      kind: "atom",
                      name: { kind: "bare", name: ">" },
                      span: sp(0, 70, 0, 71, 70, 71),
                    },
                    {
                      kind: "atom",
                      name: { kind: "bare", name: "a" },
                      span: sp(0, 72, 0, 73, 72, 73),
                    },
                    { kind: "constant", value: 0n, span: sp(0, 74, 0, 75, 74, 75) },
                  ],
                  span: sp(0, 69, 0, 76, 69, 76),
                },
              ],
              span: sp(0, 59, 0, 77, 59, 77),
            },
          ],
        },
      ],
      body: [{ kind: "var", name: { kind: "bare", name: "a" }, span: sp(0, 79, 0, 80, 79, 80) }],
      span: sp(0, 12, 0, 81, 12, 81),
    });
  });

  it("accepts @model before @doc, a bare docstring, or no documentation", () => {
    const anns = (d: string) =>
      (moduleDefs(`(defun f () ${d} 1)`)[0] as { annotations: unknown }).annotations;
    assert.deepEqual(anns('@model [] @doc "d"'), [
      { kind: "model", props: [] },
      { kind: "doc", text: "d", style: "annotation" },
    ]);
    assert.deepEqual(anns('"d"'), [{ kind: "doc", text: "d", style: "string" }]);
    assert.deepEqual(anns(""), []);
    assert.deepEqual(anns('@doc "d"'), [{ kind: "doc", text: "d", style: "annotation" }]);
  });

  it("takes a string right after the parameters as the docstring, as Pact does", () => {
    assert.deepEqual(moduleDefs('(defun f () "doc" "body")')[0], {
      kind: "defun",
      name: "f",
      returnType: null,
      params: [],
      annotations: [{ kind: "doc", text: "doc", style: "string" }],
      body: [str("body")],
    });
    assert.equal(
      programError('(module m g (defun f () "a"))'),
      "t.pact:1:28: expected the body of defun f: at least one expression " +
        "(a string right after the parameters is the docstring, not the body)",
    );
  });

  it("parses defcap metadata: @event, @managed, and @managed with a manager", () => {
    const caps = moduleDefs(
      "(defcap A () @event true) (defcap B () @managed true) " +
        '(defcap C (x:decimal) "doc" @managed x C-mgr true) (defcap D (x) @managed x ns.m.mgr 1)',
    );
    assert.deepEqual(caps, [
      {
        kind: "defcap",
        name: "A",
        returnType: null,
        params: [],
        annotations: [],
        meta: { kind: "event" },
        body: [{ kind: "constant", value: true }],
      },
      {
        kind: "defcap",
        name: "B",
        returnType: null,
        params: [],
        annotations: [],
        meta: { kind: "managed", manager: null },
        body: [{ kind: "constant", value: true }],
      },
      {
        kind: "defcap",
        name: "C",
        returnType: null,
        params: [arg("x", prim("decimal"))],
        annotations: [{ kind: "doc", text: "doc", style: "string" }],
        meta: { kind: "managed", manager: { param: "x", fn: { kind: "bare", name: "C-mgr" } } },
        body: [{ kind: "constant", value: true }],
      },
      {
        kind: "defcap",
        name: "D",
        returnType: null,
        params: [arg("x")],
        annotations: [],
        meta: {
          kind: "managed",
          manager: {
            param: "x",
            fn: { kind: "qualified", module: { namespace: "ns", name: "m" }, name: "mgr" },
          },
        },
        body: [int(1n)],
      },
    ]);
  });

  it("takes an identifier after @managed as the managed parameter, as Pact does", () => {
    assert.equal(
      programError("(module m g (defcap C (a) @managed a))"),
      "t.pact:1:37: expected the manager function after @managed a, found ')'",
    );
  });

  it("parses defconst with a type and either kind of documentation", () => {
    assert.deepEqual(
      moduleDefs('(defconst A:integer 1 "d") (defconst B "b" @doc "e") (defconst C 3)'),
      [
        {
          kind: "defconst",
          name: "A",
          type: prim("integer"),
          value: int(1n),
          doc: { text: "d", style: "string" },
        },
        {
          kind: "defconst",
          name: "B",
          type: null,
          value: str("b"),
          doc: { text: "e", style: "annotation" },
        },
        { kind: "defconst", name: "C", type: null, value: int(3n), doc: null },
      ],
    );
  });

  it("parses defschema fields, untyped ones as any", () => {
    assert.deepEqual(moduleDefs('(defschema s "d" balance:decimal guard:guard note)')[0], {
      kind: "defschema",
      name: "s",
      annotations: [{ kind: "doc", text: "d", style: "string" }],
      fields: [
        { name: "balance", type: prim("decimal") },
        { name: "guard", type: prim("guard") },
        { name: "note", type: { kind: "any" } },
      ],
    });
    assert.deepEqual(moduleDefs("(defschema empty)")[0], {
      kind: "defschema",
      name: "empty",
      annotations: [],
      fields: [],
    });
  });

  it("parses deftable with a plain, qualified or module-reference schema", () => {
    assert.deepEqual(
      moduleDefs('(deftable t:{s}) (deftable u:{ns.m.s} @doc "d") (deftable v:{r::s} "e")'),
      [
        { kind: "deftable", name: "t", schema: { kind: "bare", name: "s" }, doc: null },
        {
          kind: "deftable",
          name: "u",
          schema: { kind: "qualified", module: { namespace: "ns", name: "m" }, name: "s" },
          doc: { text: "d", style: "annotation" },
        },
        {
          kind: "deftable",
          name: "v",
          schema: { kind: "dynamic", ref: "r", name: "s" },
          doc: { text: "e", style: "string" },
        },
      ],
    );
  });

  it("parses defpact steps, with and without entity, rollback and model", () => {
    const [pact] = moduleDefs(
      '(defpact p:string (a) @doc "d" (step 1) (step \'e 2 @model [x]) ' +
        "(step-with-rollback 3 4) (step-with-rollback 'e 5 6))",
    ) as [{ steps: unknown[] }];
    assert.deepEqual(pact, {
      kind: "defpact",
      name: "p",
      returnType: prim("string"),
      params: [arg("a")],
      annotations: [{ kind: "doc", text: "d", style: "annotation" }],
      steps: [
        { kind: "step", entity: null, expr: int(1n), model: null },
        {
          kind: "step",
          entity: str("e"),
          expr: int(2n),
          model: [{ kind: "atom", name: { kind: "bare", name: "x" } }],
        },
        { kind: "step-with-rollback", entity: null, expr: int(3n), rollback: int(4n), model: null },
        {
          kind: "step-with-rollback",
          entity: str("e"),
          expr: int(5n),
          rollback: int(6n),
          model: null,
        },
      ],
    });
  });

  it("gives steps the span of their form", () => {
    const [mod] = parseProgram("(module m g (defpact p () (step 1)))") as [Module];
    assert.deepEqual((mod.defs[0] as DefPact).steps[0]!.span, sp(0, 26, 0, 34, 26, 34));
  });

  it("reports malformed definitions", () => {
    const bad = (defs: string) => programError(`(module m g ${defs})`);
    assert.equal(
      bad("(defcap 1 () 1)"),
      "t.pact:1:21: expected the capability's name after defcap, found number 1",
    );
    assert.equal(
      bad("(defconst)"),
      "t.pact:1:22: expected the constant's name after defconst, found ')'",
    );
    assert.equal(
      bad("(defschema)"),
      "t.pact:1:23: expected the schema's name after defschema, found ')'",
    );
    assert.equal(
      bad("(deftable)"),
      "t.pact:1:22: expected the table's name after deftable, found ')'",
    );
    assert.equal(
      bad("(deftable t:{})"),
      "t.pact:1:26: expected the table's schema name, found '}'",
    );
    assert.equal(bad("(defpact)"), "t.pact:1:21: expected the defpact's name, found ')'");
    assert.equal(
      bad("(defun (x) 1)"),
      "t.pact:1:20: expected the function's name after defun, found '('",
    );
    assert.equal(
      bad("(defun f x)"),
      "t.pact:1:22: expected '(' to start the parameters of f, as in (defun f (a b) …), found identifier x",
    );
    assert.equal(
      bad("(defun f:foo () 1)"),
      "t.pact:1:22: no such type: foo; the types are integer, decimal, bool, string, time, unit, guard, keyset, list, [type], object, object{schema}, table{schema} and module{interface}",
    );
    assert.equal(
      bad("(defun f ())"),
      "t.pact:1:24: expected the body of defun f: at least one expression",
    );
    assert.equal(
      programError("(module m g (defun f () 1"),
      "t.pact:1:26: expected ')' to close defun f opened at 1:13, found the end of the input",
    );
    assert.equal(
      bad("(defun f () 1]"),
      "t.pact:1:26: expected ')' to close defun f opened at 1:13, found ']'",
    );
    assert.equal(
      bad("(defun f () @doc 1 2)"),
      "t.pact:1:30: expected the documentation string after @doc, found number 1",
    );
    assert.equal(
      bad("(defun f () @model x 1)"),
      "t.pact:1:32: expected '[' to start the @model properties, found identifier x",
    );
    assert.equal(
      bad("(defun f () @model [defun] 1)"),
      "t.pact:1:33: expected a property expression, found keyword defun (defun is only allowed inside a module or interface, or at the top level of a .repl file)",
    );
    assert.equal(
      bad("(defun f () @model [(x] 1)"),
      "t.pact:1:35: expected ')' to close the property expression opened at 1:33, found ']'",
    );
    assert.equal(
      bad('(defun f () "d" @model [] 1)'),
      "t.pact:1:29: expected an expression, found keyword @model (@model belongs right after a definition's name or parameters, or ends a step)",
    );
    assert.equal(
      bad("(defcap C () @event)"),
      "t.pact:1:32: expected the body of defcap C: at least one expression",
    );
    assert.equal(bad("(defconst X)"), "t.pact:1:24: expected an expression, found ')'");
    assert.equal(
      bad("(defconst X 1 2)"),
      "t.pact:1:27: expected ')' to close defconst X opened at 1:13, found number 2",
    );
    assert.equal(
      bad("(defschema s 1)"),
      "t.pact:1:26: expected a field name or ')', found number 1",
    );
    assert.equal(
      bad("(deftable t)"),
      "t.pact:1:24: expected ':' and the table's schema, as in (deftable t:{schema}), found ')'",
    );
    assert.equal(
      bad("(deftable t:s)"),
      "t.pact:1:25: expected '{' and the schema name, as in (deftable t:{schema}), found identifier s",
    );
    assert.equal(bad("(defpact p ())"), "t.pact:1:26: defpact p needs at least one (step …)");
    assert.equal(
      bad("(defpact p () (foo))"),
      "t.pact:1:28: expected step or step-with-rollback, found identifier foo",
    );
    assert.equal(
      bad("(defpact p () 1)"),
      "t.pact:1:27: expected a (step …) or ')' to end defpact p, found number 1",
    );
    assert.equal(bad("(defpact p () (step))"), "t.pact:1:32: expected an expression, found ')'");
    assert.equal(
      bad("(defpact p () (step-with-rollback 1))"),
      "t.pact:1:48: expected an expression, found ')'",
    );
    assert.equal(
      bad("(defpact p () (step 1 2 3))"),
      "t.pact:1:37: expected ')' to close the step opened at 1:27, found number 3",
    );
  });
});

describe("parser: modules, interfaces and use", () => {
  it("parses a module with governance, docs, extensions and definitions in order", () => {
    assert.deepEqual(
      program(
        '(module coin GOV "the coin" (implements fungible-v2) (use util.guards "h" [a b]) ' +
          '(bless "old") (defcap GOV () true) (use x []) (implements ns.i))',
      ),
      [
        {
          kind: "module",
          name: "coin",
          governance: { kind: "capability", name: "GOV" },
          annotations: [{ kind: "doc", text: "the coin", style: "string" }],
          extensions: [
            { kind: "implements", interface: { namespace: null, name: "fungible-v2" } },
            {
              kind: "use",
              module: { namespace: "util", name: "guards" },
              hash: "h",
              imports: ["a", "b"],
            },
            { kind: "bless", hash: "old" },
            { kind: "use", module: { namespace: null, name: "x" }, hash: null, imports: [] },
            { kind: "implements", interface: { namespace: "ns", name: "i" } },
          ],
          defs: [
            {
              kind: "defcap",
              name: "GOV",
              returnType: null,
              params: [],
              annotations: [],
              meta: null,
              body: [{ kind: "constant", value: true }],
            },
          ],
        },
      ],
    );
  });

  it("reads string and symbol governance as keyset names", () => {
    const gov = (g: string) =>
      (parseProgram(`(module m ${g} (defconst X 1))`)[0] as Module).governance;
    assert.deepEqual(gov('"ns.admin"'), { kind: "keyset", keyset: "ns.admin" });
    assert.deepEqual(gov("'admin"), { kind: "keyset", keyset: "admin" });
  });

  it("gives modules the span from '(' to ')' so the source slice is the module's code", () => {
    const src = ";; c\n  (module m g\n  (defconst X 1)) 1";
    const [mod] = parseProgram(src) as [Module];
    assert.deepEqual(mod.span, sp(1, 2, 2, 17, 7, 36));
    assert.deepEqual(mod.nameSpan, sp(1, 10, 1, 11, 15, 16));
    assert.equal(src.slice(mod.span.start, mod.span.end), "(module m g\n  (defconst X 1))");
  });

  it("parses interfaces: signatures, constants, schemas and imports", () => {
    assert.deepEqual(
      program(
        '(interface iface @doc "i" (use util) (defun f:bool (a) "d") (defcap C (x) @managed x m) ' +
          "(defpact p ()) (defconst K 1) (defschema s a:integer))",
      ),
      [
        {
          kind: "interface",
          name: "iface",
          annotations: [{ kind: "doc", text: "i", style: "annotation" }],
          imports: [
            { kind: "use", module: { namespace: null, name: "util" }, hash: null, imports: null },
          ],
          defs: [
            {
              kind: "defun",
              name: "f",
              returnType: prim("bool"),
              params: [arg("a")],
              annotations: [{ kind: "doc", text: "d", style: "string" }],
            },
            {
              kind: "defcap",
              name: "C",
              returnType: null,
              params: [arg("x")],
              annotations: [],
              meta: { kind: "managed", manager: { param: "x", fn: { kind: "bare", name: "m" } } },
            },
            { kind: "defpact", name: "p", returnType: null, params: [], annotations: [] },
            { kind: "defconst", name: "K", type: null, value: int(1n), doc: null },
            {
              kind: "defschema",
              name: "s",
              annotations: [],
              fields: [{ name: "a", type: prim("integer") }],
            },
          ],
        },
      ],
    );
    assert.deepEqual(program("(interface only-use (use m))"), [
      {
        kind: "interface",
        name: "only-use",
        annotations: [],
        imports: [
          { kind: "use", module: { namespace: null, name: "m" }, hash: null, imports: null },
        ],
        defs: [],
      },
    ]);
  });

  it("parses use at the top level, with and without hash and import list", () => {
    assert.deepEqual(program('(use coin) (use free.m "abc") (use m [f g])'), [
      { kind: "use", module: { namespace: null, name: "coin" }, hash: null, imports: null },
      { kind: "use", module: { namespace: "free", name: "m" }, hash: "abc", imports: null },
      { kind: "use", module: { namespace: null, name: "m" }, hash: null, imports: ["f", "g"] },
    ]);
  });

  it("reports malformed modules and interfaces", () => {
    assert.equal(
      programError("(module m g)"),
      "t.pact:1:12: module m has no definitions; a module needs at least one defun, defcap, defconst, defschema, deftable or defpact",
    );
    assert.equal(
      programError("(module m g\n  (use x))"),
      "t.pact:2:3: module m has no definitions; a module needs at least one defun, defcap, defconst, defschema, deftable or defpact",
    );
    assert.equal(
      programError("(module m 1 (defconst X 1))"),
      `t.pact:1:11: expected the governance of module m: a keyset name like "ns.admin" or a capability name, found number 1`,
    );
    assert.equal(
      programError("(module (defconst X 1))"),
      "t.pact:1:9: expected the module's name, found '('",
    );
    assert.equal(
      programError("(module m g (foo))"),
      "t.pact:1:14: expected defun, defcap, defconst, defschema, deftable, defpact, use, implements or bless inside module m, found identifier foo",
    );
    assert.equal(
      programError("(module m g (module n g (defconst X 1)))"),
      "t.pact:1:14: expected defun, defcap, defconst, defschema, deftable, defpact, use, implements or bless inside module m, found keyword module (modules and interfaces cannot nest)",
    );
    assert.equal(
      programError("(module m g x)"),
      "t.pact:1:13: expected a definition such as (defun …) or ')' to close module m, found identifier x",
    );
    assert.equal(
      programError("(module m g (defconst X 1)"),
      "t.pact:1:27: expected ')' to close module m opened at 1:1, found the end of the input",
    );
    assert.equal(
      programError("(interface i)"),
      "t.pact:1:13: interface i is empty; it needs at least one definition or use",
    );
    assert.equal(
      programError("(interface i (deftable t:{s}))"),
      "t.pact:1:15: expected defun, defcap, defconst, defschema, defpact or use inside interface i, found keyword deftable (an interface cannot contain deftable)",
    );
    assert.equal(
      programError("(interface i (defun f () 1))"),
      "t.pact:1:26: expected ')' to close defun f (an interface's defun has no body) opened at 1:14, found number 1",
    );
    assert.equal(
      programError("(interface i (defcap C () true))"),
      "t.pact:1:27: expected ')' to close defcap C (an interface's defcap has no body) opened at 1:14, found true",
    );
    assert.equal(
      programError("(interface i (defpact p () (step 1)))"),
      "t.pact:1:28: expected ')' to close defpact p (an interface's defpact has no steps) opened at 1:14, found '('",
    );
    assert.equal(
      programError("(use)"),
      "t.pact:1:5: expected the module name after use, found ')'",
    );
    assert.equal(
      programError("(use m 'h)"),
      "t.pact:1:8: expected ')' to close the use form opened at 1:1, found symbol 'h",
    );
    assert.equal(
      programError("(use m [f 1])"),
      "t.pact:1:11: expected a name to import or ']', found number 1",
    );
    assert.equal(
      programError("(module m g (bless 1) (defconst X 1))"),
      "t.pact:1:20: expected the module hash to bless, as a string, found number 1",
    );
    assert.equal(
      programError("(module m g (implements) (defconst X 1))"),
      "t.pact:1:24: expected the interface name after implements, found ')'",
    );
  });
});

describe("parser: programs", () => {
  it("parses a sequence of top-level forms, comments included", () => {
    assert.deepEqual(program("; setup\n(f 1) x ; trailing\n[2]"), [
      app("f", int(1n)),
      bare("x"),
      { kind: "list", items: [int(2n)] },
    ]);
    assert.deepEqual(program(""), []);
  });

  it("allows defun and defconst at the top level of a .repl file only", () => {
    assert.deepEqual(repl("(defun f () 1) (defconst X 2) (f)"), [
      { kind: "defun", name: "f", returnType: null, params: [], annotations: [], body: [int(1n)] },
      { kind: "defconst", name: "X", type: null, value: int(2n), doc: null },
      app("f"),
    ]);
    assert.equal(
      programError("(defun f () 1)"),
      "t.pact:1:2: expected an expression, found keyword defun (defun is only allowed inside a module or interface, or at the top level of a .repl file)",
    );
    assert.equal(
      failure(() => parseReplProgram("(defcap G () true)", "t.repl")),
      "t.repl:1:2: expected an expression, found keyword defcap (defcap is only allowed inside a module or interface)",
    );
  });

  it("rejects forms that only belong inside other forms", () => {
    assert.equal(
      programError("(f (step 1))"),
      "t.pact:1:5: expected an expression, found keyword step (step is only allowed inside a defpact)",
    );
    assert.equal(
      programError("(f (use m))"),
      "t.pact:1:5: expected an expression, found keyword use (use is only allowed at the top level or inside a module or interface)",
    );
    assert.equal(
      programError("(bless 'x)"),
      "t.pact:1:2: expected an expression, found keyword bless (bless is only allowed inside a module)",
    );
    assert.equal(
      programError("(f @managed)"),
      "t.pact:1:4: expected an expression, found keyword @managed (@managed belongs in a defcap, after its parameters and documentation)",
    );
    assert.equal(
      programError("(f (module m g (defconst X 1)))"),
      "t.pact:1:5: expected an expression, found keyword module (module is only allowed at the top level)",
    );
  });

  it("reports a stray ')' at the top level", () => {
    assert.equal(programError("(f 1))"), "t.pact:1:6: unexpected ')' with no matching '('");
  });

  it("parses the @model contents Pact 5 accepts", () => {
    const src =
      "(module m g (defun f () @model [(property (forall (a:integer) 1.5)) " +
      "(whatever it parses {}[] let lambda , 'x m::y true)] 1))";
    const [mod] = program(src) as [{ defs: [{ annotations: [{ props: unknown }] }] }];
    const atom = (name: string) => ({ kind: "atom", name: { kind: "bare", name } });
    const delim = (d: string) => ({ kind: "delim", delim: d });
    assert.deepEqual(mod.defs[0].annotations[0].props, [
      {
        kind: "sequence",
        items: [
          atom("property"),
          {
            kind: "sequence",
            items: [
              atom("forall"),
              { kind: "sequence", items: [atom("a"), delim(":"), atom("integer")] },
              { kind: "constant", value: new Decimal(15n, 1) },
            ],
          },
        ],
      },
      {
        kind: "sequence",
        items: [
          atom("whatever"),
          atom("it"),
          atom("parses"),
          delim("{"),
          delim("}"),
          { kind: "sequence", items: [delim("["), delim("]")] },
          { kind: "keyword", keyword: "let" },
          { kind: "keyword", keyword: "lambda" },
          delim(","),
          { kind: "constant", value: "x" },
          { kind: "atom", name: { kind: "dynamic", ref: "m", name: "y" } },
          { kind: "constant", value: true },
        ],
      },
    ]);
  });
});

describe("parser: incomplete input", () => {
  const incomplete = (source: string) => {
    try {
      parseReplProgram(source);
    } catch (e) {
      assert.ok(e instanceof PactSyntaxError);
      return e.incomplete;
    }
    assert.fail("expected a syntax error");
  };

  it("flags input that ends inside an open bracket or string", () => {
    assert.equal(incomplete("(+ 1"), true);
    assert.equal(incomplete("(module m g\n  (defun f ()"), true);
    assert.equal(incomplete("(let ((x"), true);
    assert.equal(incomplete('(f "abc'), true);
    assert.equal(incomplete('"abc \\\n'), true);
  });

  it("does not flag errors that more input cannot fix", () => {
    assert.equal(incomplete("(+ 1 ]"), false);
    assert.equal(incomplete(")"), false);
    assert.equal(incomplete("'"), false);
    assert.equal(incomplete("1."), false);
    assert.equal(incomplete("(".repeat(300)), false);
  });
});

describe("parser: nesting limit", () => {
  it("accepts MAX_NESTING_DEPTH nested forms and rejects one more", () => {
    assert.equal(MAX_NESTING_DEPTH, 256);
    const nested = (depth: number) => `${"(f ".repeat(depth)}${")".repeat(depth)}`;
    assert.doesNotThrow(() => parseExpression(nested(MAX_NESTING_DEPTH)));
    assert.equal(
      exprError(nested(MAX_NESTING_DEPTH + 1)),
      `t.pact:1:${3 * MAX_NESTING_DEPTH + 1}: nesting deeper than 256 levels`,
    );
  });

  it("counts lists, objects and list types too", () => {
    assert.doesNotThrow(() => parseExpression(`${"[".repeat(256)}${"]".repeat(256)}`));
    assert.equal(
      exprError(`${"[".repeat(257)}${"]".repeat(257)}`),
      "t.pact:1:257: nesting deeper than 256 levels",
    );
    assert.equal(
      exprError(`${'{"a": '.repeat(257)}1${"}".repeat(257)}`),
      "t.pact:1:1537: nesting deeper than 256 levels",
    );
    assert.equal(
      exprError(`(lambda (x:${"[".repeat(256)}integer${"]".repeat(256)}) x)`),
      "t.pact:1:266: nesting deeper than 256 levels",
    );
  });

  it("turns 100,000 '(' into a clean syntax error", () => {
    assert.equal(programError("(".repeat(100_000)), "t.pact:1:257: nesting deeper than 256 levels");
  });
});
