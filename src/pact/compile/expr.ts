/**
 * Expressions: parse tree → IR. Names are resolved here, once, in Pact 5's order: natives first
 * (they cannot be shadowed), then the desugared names (`constantly`, `CHARSET_*`), locals, names in
 * scope (module members, imports, top-level names), and finally a module of that name (a module
 * reference). Special forms become their own IR nodes; binding forms (`{ "f" := x }`) become
 * one-argument lambdas, as in Pact.
 */
import type { NativeDef } from "../runtime/types.ts";
import type {
  AppExpr,
  Arg,
  BareName,
  BindingExpr,
  DynamicName,
  Expr,
  LambdaExpr,
  LetExpr,
  QualifiedName,
} from "../syntax/ast.ts";
import type { Span } from "../syntax/span.ts";
import { type CompileUnit, desugarError, isSuspending } from "./context.ts";
import {
  type Definition,
  type LambdaInfo,
  type Node,
  type Param,
  SignatureDef,
  type TermDefinition,
} from "./ir.ts";
import { LIST_ARGUMENT_BUILTINS } from "./module-hash/builtins.ts";
import { resolveBareName, resolveQualifiedName } from "./resolve.ts";
import { bind, type FrameLayout, type Locals, lookupLocal } from "./scope.ts";
import { resolveType } from "./type-resolve.ts";

/** Where an expression is compiled. */
export interface ExprScope {
  readonly unit: CompileUnit;
  readonly layout: FrameLayout;
  readonly locals: Locals | null;
  /** Inside a `defcap` body, where `with-capability` is not allowed. */
  readonly inDefcap: boolean;
  /** Coverage bookkeeping: the line of the enclosing covered node (null without coverage). */
  readonly cover: { line: number } | null;
}

export function compileExpr(e: Expr, s: ExprScope): Node {
  if (s.cover === null) return compileNode(e, s);
  const line = e.span.line;
  if (line === s.cover.line) return compileNode(e, s);
  const outer = s.cover.line;
  s.cover.line = line;
  const body = compileNode(e, s);
  s.cover.line = outer;
  s.unit.coverage?.declareLine(s.unit.file, line);
  return { op: "cover", file: s.unit.file, line, fn: null, body, span: e.span };
}

function compileNode(e: Expr, s: ExprScope): Node {
  switch (e.kind) {
    case "constant":
      return { op: "const", value: e.value, span: e.span };
    case "var":
      switch (e.name.kind) {
        case "bare":
          return compileBare(e.name, e.span, s);
        case "qualified":
          return compileQualified(e.name, e.span, s);
        case "dynamic":
          return compileDynamic(e.name, e.span, s);
      }
      break;
    case "let":
      return compileLet(e, s);
    case "lambda":
      return compileLambda(e, s);
    case "app":
      return compileApp(e, s);
    case "list":
      return { op: "list", items: e.items.map((x) => compileExpr(x, s)), span: e.span };
    case "object":
      return {
        op: "object",
        keys: e.fields.map((f) => f.field),
        values: e.fields.map((f) => compileExpr(f.value, s)),
        span: e.span,
      };
    case "binding":
      return compileBinding(e, s);
  }
}

// ---------------------------------------------------------------------------------------------
// Names

function compileBare(name: BareName, span: Span, s: ExprScope): Node {
  const n = name.name;
  const native = s.unit.natives.get(n);
  if (native !== undefined) return { op: "native", native, span };
  switch (n) {
    case "constantly":
      return constantlyLambda(span, s);
    case "CHARSET_ASCII":
      return { op: "const", value: 0n, span };
    case "CHARSET_LATIN1":
      return { op: "const", value: 1n, span };
  }
  const local = lookupLocal(s.locals, n, s.layout);
  if (local !== null) return { op: "local", depth: local.depth, index: local.index, name: n, span };
  const resolved = resolveBareName(n, span, s.unit);
  if (resolved.kind === "modref") return { op: "const", value: resolved.value, span };
  return defRef(resolved.def, n, span, s);
}

function compileQualified(name: QualifiedName, span: Span, s: ExprScope): Node {
  const resolved = resolveQualifiedName(name.module, name.name, span, s.unit);
  if (resolved.kind === "modref") return { op: "const", value: resolved.value, span };
  return defRef(resolved.def, name.name, span, s);
}

function compileDynamic(name: DynamicName, span: Span, s: ExprScope): Node {
  const local = lookupLocal(s.locals, name.ref, s.layout);
  if (local === null) {
    if (s.unit.natives.has(name.ref) || s.unit.names.bare(name.ref) !== undefined) {
      throw desugarError(`Invalid dynamic call: ${name.ref}::${name.name}`, span, s.unit.file);
    }
    throw desugarError(`Unbound variable ${name.ref}`, span, s.unit.file);
  }
  return { op: "dynamic", ...local, ref: name.ref, member: name.name, span };
}

/** A definition in term position: schemas are not values. */
function defRef(def: Definition, written: string, span: Span, s: ExprScope): Node {
  if (!isTermDefinition(def)) {
    throw desugarError(
      `Invalid definition in term variable position: ${written}`,
      span,
      s.unit.file,
    );
  }
  return { op: "def", def, span };
}

export function isTermDefinition(def: Definition): def is TermDefinition {
  return def.defKind !== "defschema" && !(def instanceof SignatureDef);
}

// ---------------------------------------------------------------------------------------------
// Binders

function compileLet(e: LetExpr, s: ExprScope): Node {
  // `let` and `let*` are the same in Pact 5: each binding sees the ones before it.
  return compileBindings(e.bindings, 0, e.body, e.span, s);
}

function compileBindings(
  bindings: LetExpr["bindings"],
  i: number,
  body: readonly Expr[],
  span: Span,
  s: ExprScope,
): Node {
  const binding = bindings[i];
  if (binding === undefined) return compileSequence(body, span, s);
  const value = compileExpr(binding.value, s);
  const type = argType(binding.arg, s);
  const locals = bind(s.locals, binding.arg.name, s.layout);
  const inner = compileBindings(bindings, i + 1, body, span, { ...s, locals });
  return { op: "let", index: locals.index, type, value, body: inner, span };
}

function compileLambda(e: LambdaExpr, s: ExprScope): Node {
  return {
    op: "lambda",
    lambda: lambdaInfo(e.params, (inner) => compileSequence(e.body, e.span, inner), s),
    span: e.span,
  };
}

/** Compiles a function body in a new frame whose first slots are `params`. */
export function lambdaInfo(
  params: readonly Arg[],
  compileBody: (inner: ExprScope) => Node,
  s: ExprScope,
): LambdaInfo {
  const layout = s.layout.nested();
  let locals = s.locals;
  const compiled: Param[] = [];
  for (const p of params) {
    compiled.push({ name: p.name, type: argType(p, s), span: p.span });
    locals = bind(locals, p.name, layout);
  }
  const body = compileBody({ ...s, layout, locals });
  return { params: compiled, frameSize: layout.size, body, code: undefined };
}

/** A nullary function of one expression (Pact's `suspend`, used for lazy native arguments). */
function suspend(e: Expr, s: ExprScope): Node {
  return {
    op: "lambda",
    lambda: lambdaInfo([], (inner) => compileExpr(e, inner), s),
    span: e.span,
  };
}

function argType(arg: Arg, s: ExprScope) {
  return arg.type === null ? null : resolveType(arg.type, arg.span, s.unit);
}

/** `{ "f" := x, … } body…` as a one-argument function of the object. */
function compileBinding(e: BindingExpr, s: ExprScope): Node {
  if (e.body.length === 0) {
    throw desugarError("Bind expression lacks an accompanying body", e.span, s.unit.file);
  }
  const at = s.unit.natives.get("at");
  if (at === undefined) throw new Error("binding forms need the `at` native");
  const objectParam: Arg = { name: "#bindObject", type: null, span: e.span };
  const lambda = lambdaInfo([objectParam], (inner) => compileFieldBindings(e, 0, at, inner), s);
  return { op: "lambda", lambda, span: e.span };
}

function compileFieldBindings(e: BindingExpr, i: number, at: NativeDef, s: ExprScope): Node {
  const field = e.fields[i];
  if (field === undefined) return compileSequence(e.body, e.span, s);
  const object = lookupLocal(s.locals, "#bindObject", s.layout)!;
  const span = field.arg.span;
  const value: Node = {
    op: "call-native",
    native: at,
    args: [
      { op: "const", value: field.field, span },
      { op: "local", depth: object.depth, index: object.index, name: "#bindObject", span },
    ],
    span,
  };
  const type = argType(field.arg, s);
  const locals = bind(s.locals, field.arg.name, s.layout);
  const body = compileFieldBindings(e, i + 1, at, { ...s, locals });
  return { op: "let", index: locals.index, type, value, body, span: e.span };
}

/** Several expressions evaluated in order (Pact's `Sequence`). */
export function compileSequence(body: readonly Expr[], span: Span, s: ExprScope): Node {
  if (body.length === 1) return compileExpr(body[0]!, s);
  return { op: "seq", items: body.map((x) => compileExpr(x, s)), span };
}

// ---------------------------------------------------------------------------------------------
// Applications and special forms

function compileApp(e: AppExpr, s: ExprScope): Node {
  const fn = e.fn;
  if (fn.kind === "var" && fn.name.kind === "bare") {
    const special = compileSpecialForm(fn.name.name, fn.span, e, s);
    if (special !== null) return special;
  }
  const head = compileExpr(fn, s);
  if (head.op === "native") return compileNativeCall(head.native, e, s);
  const args = e.args.map((x) => compileExpr(x, s));
  if (head.op === "def" && head.def.defKind === "defun" && args.length === head.def.arity) {
    return { op: "call-defun", def: head.def, args, span: e.span };
  }
  return { op: "apply", fn: head, args, span: e.span };
}

/** Overloads Pact resolves by argument count at compile time: `(- x)` is `negate`. */
const ARITY_OVERLOADS: ReadonlyMap<string, { readonly count: number; readonly native: string }> =
  new Map([["-", { count: 1, native: "negate" }]]);

function compileNativeCall(native: NativeDef, e: AppExpr, s: ExprScope): Node {
  const overload = ARITY_OVERLOADS.get(native.name);
  if (overload !== undefined && overload.count === e.args.length) {
    native = s.unit.natives.get(overload.native) ?? native;
  }
  if (LIST_ARGUMENT_BUILTINS.has(native.name)) {
    // `(hash-poseidon 1 2)` is `(hash-poseidon [1 2])`: the list literal is built (and charged) as written.
    const items = e.args.map((x) => compileExpr(x, s));
    return { op: "call-native", native, args: [{ op: "list", items, span: e.span }], span: e.span };
  }
  const lazy = isSuspending(native) ? native.suspends(e.args.length) : null;
  const args = e.args.map((x, i) => (lazy?.[i] === true ? suspend(x, s) : compileExpr(x, s)));
  return { op: "call-native", native, args, span: e.span };
}

type SpecialFormCompiler = (e: AppExpr, s: ExprScope, headSpan: Span) => Node;

const SPECIAL_FORMS: ReadonlyMap<string, SpecialFormCompiler> = new Map<
  string,
  SpecialFormCompiler
>([
  ["and", (e, s, head) => logic("and", e, s, head)],
  ["or", (e, s, head) => logic("or", e, s, head)],
  [
    "if",
    (e, s) => {
      const [c, t, f] = exactArgs(e, 3, "if must take three arguments", s);
      return { op: "if", cond: c!, whenTrue: t!, whenFalse: f!, span: e.span };
    },
  ],
  [
    "enforce",
    (e, s, head) => {
      if (e.args.length !== 2) return conditionalLambda("enforce", e, s, head);
      const [cond, message] = e.args.map((x) => compileExpr(x, s)) as [Node, Node];
      return { op: "enforce", cond, message, span: e.span };
    },
  ],
  [
    "do",
    (e, s) => {
      if (e.args.length === 0) {
        throw syntax("do form must have at least 1 expression", e.span, s);
      }
      return compileSequence(e.args, e.span, s);
    },
  ],
  [
    "with-capability",
    (e, s) => {
      if (e.args.length < 2) {
        throw syntax("with-capability must take at least 2 expressions", e.span, s);
      }
      if (s.inDefcap) {
        throw desugarError("with-capability form not allowed within defcap", e.span, s.unit.file);
      }
      const cap = compileExpr(e.args[0]!, s);
      const rest = e.args.slice(1);
      const body = compileSequence(rest, e.span, s);
      return { op: "with-capability", cap, body, span: e.span };
    },
  ],
  [
    "suspend",
    (e, s) => {
      if (e.args.length !== 1) throw syntax("suspend must take only 1 argument", e.span, s);
      return suspend(e.args[0]!, s);
    },
  ],
  [
    "enforce-one",
    (e, s) => {
      const [msg, list] = e.args;
      if (e.args.length !== 2 || msg === undefined || list === undefined) {
        throw syntax("enforce-one must take two arguments", e.span, s);
      }
      const message = compileExpr(msg, s);
      if (list.kind !== "list") {
        compileExpr(list, s);
        return { op: "enforce-one", message, conds: null, span: e.span };
      }
      const conds = list.items.map((x) => compileExpr(x, s));
      return { op: "enforce-one", message, conds, span: e.span };
    },
  ],
  [
    "try",
    (e, s) => {
      const [fallback, body] = exactArgs(e, 2, "try must take two arguments", s);
      return { op: "try", fallback: fallback!, body: body!, span: e.span };
    },
  ],
  ["map", (e, s, head) => compileMap(e, s, head)],
  ["cond", (e, s) => compileCond(e, s)],
  [
    "create-user-guard",
    (e, s) => {
      const [call] = e.args;
      if (e.args.length !== 1 || call === undefined || call.kind !== "app") {
        throw syntax(
          "create-user-guard must take one argument, which must be an application",
          e.span,
          s,
        );
      }
      const target = compileExpr(call.fn, s);
      const args = call.args.map((x) => compileExpr(x, s));
      return {
        op: "create-user-guard",
        target: target.op === "def" ? target.def : null,
        args,
        span: e.span,
      };
    },
  ],
  [
    "error",
    (e, s) => {
      const [message] = exactArgs(e, 1, "error must take only 1 argument", s);
      return { op: "error", message: message!, span: e.span };
    },
  ],
  [
    "pure",
    (e, s) => {
      const [body] = exactArgs(e, 1, "pure must take only 1 argument", s);
      return { op: "pure", body: body!, span: e.span };
    },
  ],
]);

/** The names the compiler treats as special forms (not natives, not shadowable). */
export const SPECIAL_FORM_NAMES: readonly string[] = [...SPECIAL_FORMS.keys()];

function compileSpecialForm(name: string, headSpan: Span, e: AppExpr, s: ExprScope): Node | null {
  const form = SPECIAL_FORMS.get(name);
  return form === undefined ? null : form(e, s, headSpan);
}

function syntax(message: string, span: Span, s: ExprScope) {
  return desugarError(`Desugar syntax failure: ${message}`, span, s.unit.file);
}

function exactArgs(e: AppExpr, count: number, message: string, s: ExprScope): Node[] {
  if (e.args.length !== count) throw syntax(message, e.span, s);
  return e.args.map((x) => compileExpr(x, s));
}

/** `(and a b)` short-circuits; any other use of `and` is a two-argument boolean function. */
function logic(op: "and" | "or", e: AppExpr, s: ExprScope, head: Span): Node {
  if (e.args.length !== 2) return conditionalLambda(op, e, s, head);
  const [left, right] = e.args.map((x) => compileExpr(x, s)) as [Node, Node];
  return { op, left, right, span: e.span };
}

/**
 * `and`, `or` and `enforce` with other than two arguments: Pact turns the form into a lambda of
 * two booleans and applies it to the arguments given (so `(and)` is a function value, `(and x)` a
 * partial application).
 */
function conditionalLambda(op: "and" | "or" | "enforce", e: AppExpr, s: ExprScope, head: Span) {
  const boolArg = (name: string): Arg => ({
    name,
    type: { kind: "prim", name: "bool" },
    span: head,
  });
  const lambda = lambdaInfo(
    [boolArg("#condArg1"), boolArg("#condArg2")],
    (inner) => {
      const a = lookupLocal(inner.locals, "#condArg1", inner.layout)!;
      const b = lookupLocal(inner.locals, "#condArg2", inner.layout)!;
      const left: Node = { op: "local", ...a, name: "#condArg1", span: head };
      const right: Node = { op: "local", ...b, name: "#condArg2", span: head };
      if (op === "enforce") return { op: "enforce", cond: left, message: right, span: head };
      return { op, left, right, span: head };
    },
    s,
  );
  const fn: Node = { op: "lambda", lambda, span: head };
  const args = e.args.map((x) => compileExpr(x, s));
  const app: Node = { op: "apply", fn, args, span: e.span };
  return app;
}

/** `constantly`: a two-argument function returning its first argument. */
function constantlyLambda(span: Span, s: ExprScope): Node {
  const arg = (name: string): Arg => ({ name, type: null, span });
  const lambda = lambdaInfo(
    [arg("#constantlyA1"), arg("#constantlyA2")],
    (inner) => {
      const a = lookupLocal(inner.locals, "#constantlyA1", inner.layout)!;
      return { op: "local", ...a, name: "#constantlyA1", span };
    },
    s,
  );
  return { op: "lambda", lambda, span };
}

/**
 * `(map (f a) xs)`: Pact eta-expands an application in the function position to
 * `(lambda (x) (f a x))`, so overloaded natives pick their arity from the full call.
 */
function compileMap(e: AppExpr, s: ExprScope, head: Span): Node {
  const mapNative = s.unit.natives.get("map");
  if (mapNative === undefined) throw new Error("the `map` native is missing");
  const [fn, ...rest] = e.args;
  if (fn === undefined || fn.kind !== "app") {
    return compileNativeCall(mapNative, e, s);
  }
  const param = ":ijHO1";
  const expanded: LambdaExpr = {
    kind: "lambda",
    params: [{ name: param, type: null, span: fn.span }],
    body: [
      {
        kind: "app",
        fn: fn.fn,
        args: [...fn.args, { kind: "var", name: { kind: "bare", name: param }, span: e.span }],
        span: fn.span,
      },
    ],
    span: fn.span,
  };
  const app: AppExpr = {
    ...e,
    fn: { kind: "var", name: { kind: "bare", name: "map" }, span: head },
  };
  return compileNativeCall(mapNative, { ...app, args: [expanded, ...rest] }, s);
}

/** `(cond (c1 e1) (c2 e2) … default)` as nested `if`s. */
function compileCond(e: AppExpr, s: ExprScope): Node {
  const defaultCase = e.args[e.args.length - 1];
  if (defaultCase === undefined) {
    throw syntax("cond: expected list of conditions with a default case", e.span, s);
  }
  let result = compileExpr(defaultCase, s);
  for (let i = e.args.length - 2; i >= 0; i--) {
    const branch = e.args[i]!;
    if (branch.kind !== "app" || branch.args.length !== 1) {
      throw syntax("cond: expected application of conditions", e.span, s);
    }
    const cond = compileExpr(branch.fn, s);
    const whenTrue = compileExpr(branch.args[0]!, s);
    result = { op: "if", cond, whenTrue, whenFalse: result, span: branch.span };
  }
  return result;
}
