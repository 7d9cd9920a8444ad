import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Expr } from "../../syntax/ast.ts";
import { parseProgram } from "../../syntax/parser.ts";
import { Desugarer, type DTerm, Form } from "./desugar.ts";

const NATIVES = new Set(["+", "-", "at", "map", "read", "with-read", "enumerate", "hash-poseidon"]);

/** A compact rendering of a desugared term, with names as written. */
function show(t: DTerm): string {
  switch (t.t) {
    case "var":
      return t.name.kind === "bare" ? t.name.name : JSON.stringify(t.name);
    case "lam":
      return `(lam [${t.args.map((a) => a.name).join(" ")}] ${show(t.body)})`;
    case "let":
      return `(let ${t.arg.name} ${show(t.value)} ${show(t.body)})`;
    case "app":
      return `(${[show(t.fn), ...t.args.map(show)].join(" ")})`;
    case "seq":
      return `(seq ${show(t.first)} ${show(t.rest)})`;
    case "nullary":
      return `(nullary ${show(t.body)})`;
    case "form":
      return `(${Form[t.form]} ${t.args.map(show).join(" ")})`;
    case "builtin":
      return `#${t.name}`;
    case "const":
      return typeof t.value === "string" ? JSON.stringify(t.value) : String(t.value);
    case "list":
      return `[${t.items.map(show).join(" ")}]`;
    case "object":
      return `{${t.fields.map(([k, x]) => `${k}:${show(x)}`).join(" ")}}`;
  }
}

function desugar(source: string): string {
  const [form] = parseProgram(source, "t.pact");
  return show(new Desugarer(NATIVES).term(form as Expr));
}

describe("Desugarer", () => {
  it("turns special forms into builtin forms, and other uses of and/or/enforce into lambdas", () => {
    assert.equal(desugar("(if a b c)"), "(If a b c)");
    assert.equal(desugar("(and a b)"), "(And a b)");
    assert.equal(desugar("(or a)"), "((lam [#condArg1 #condArg2] (Or #condArg1 #condArg2)) a)");
    assert.equal(desugar("(with-capability (C) a b)"), "(WithCapability (C) (seq a b))");
    assert.equal(desugar("(enforce-one m [a b])"), "(EnforceOne m [a b])");
    assert.equal(desugar("(create-user-guard (f x))"), "(CreateUserGuard (f x))");
    assert.equal(desugar("(try a b)"), "(Try a b)");
    assert.equal(desugar("(error e)"), "(Error e)");
    assert.equal(desugar("(pure e)"), "(Pure e)");
    assert.equal(desugar("(suspend e)"), "(nullary e)");
  });

  it("nests sequences to the right and lets one binding at a time", () => {
    assert.equal(desugar("(do a b c)"), "(seq a (seq b c))");
    assert.equal(desugar("(let ((x 1) (y x)) y x)"), "(let x 1 (let y x (seq y x)))");
    assert.equal(desugar("(lambda () 1)"), "(nullary 1)");
    assert.equal(desugar("(lambda (x y) y)"), "(lam [x y] y)");
  });

  it("binds fields of a binding form with the last field outermost, as Pact's parser orders them", () => {
    assert.equal(
      desugar('(with-read t k { "a" := x, "b" := y } (+ x y))'),
      '(#with-read t k (lam [#bindObject] (let y (#at "b" #bindObject) (let x (#at "a" #bindObject) (#+ x y)))))',
    );
  });

  it("picks native overloads by argument count and wraps list-argument natives", () => {
    assert.equal(desugar("(- 1)"), "(#negate 1)");
    assert.equal(desugar("(- 2 1)"), "(#- 2 1)");
    assert.equal(desugar("(enumerate 0 10 2)"), "(#enumerate-step 0 10 2)");
    assert.equal(desugar("(read t k [])"), "(#read-with-fields t k [])");
    assert.equal(desugar("(hash-poseidon 1 2)"), "(#hash-poseidon [1 2])");
    assert.equal(desugar("(f 1)"), "(f 1)");
  });

  it("eta-expands an application given to map", () => {
    assert.equal(desugar("(map (+ 1) xs)"), "(#map (lam [:ijHO1] (#+ 1 :ijHO1)) xs)");
    assert.equal(desugar("(map f xs)"), "(#map f xs)");
  });

  it("turns cond into a suspended chain of ifs", () => {
    assert.equal(desugar("(cond (a 1) (b 2) 3)"), "(#cond (nullary (If a 1 (If b 2 3))))");
  });

  it("replaces constantly and the charset names", () => {
    assert.equal(desugar("constantly"), "(lam [#constantlyA1 #constantlyA2] #constantlyA1)");
    assert.equal(desugar("[CHARSET_ASCII CHARSET_LATIN1]"), "[0 1]");
  });

  it("keeps objects in source order", () => {
    assert.equal(desugar('{ "b": 1, "a": 2 }'), "{b:1 a:2}");
  });
});
