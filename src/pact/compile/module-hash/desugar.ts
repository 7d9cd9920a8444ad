/**
 * The parse tree → Pact 5's desugared term (`Pact.Core.IR.Desugar`, before renaming), the shape
 * Pact hashes. Special forms become builtin forms, `do` and bodies become right-nested sequences,
 * `let` one nested `Let` per binding, argument-less lambdas `Nullary`, binding forms
 * (`{ "f" := x }`) a lambda of `#bindObject` with one `Let` per field, and direct calls of natives
 * pick their overload by argument count. Names stay as written; `rename.ts` resolves them.
 * Every node carries the span Pact gives it (its info, whose first line Pact stores): the
 * expression it comes from, or for the nodes the desugarer makes, the form that made them (the
 * enclosing definition, `let`, lambda or application, as `Pact.Core.IR.Desugar` chooses).
 *
 * The module compiler (src/pact/compile) accepted the code before this runs, so the syntax
 * errors Pact raises here cannot happen; they are reported as internal errors.
 */
import type {
  AppExpr,
  Arg,
  BindingExpr,
  Expr,
  LiteralValue,
  PactType,
  ParsedName,
} from "../../syntax/ast.ts";
import type { Span } from "../../syntax/span.ts";
import { LIST_ARGUMENT_BUILTINS, overloadFor } from "./builtins.ts";

/** Pact's `BuiltinForm` constructors, numbered as its module encoding tags them. */
export enum Form {
  And = 0,
  Or = 1,
  If = 2,
  EnforceOne = 3,
  Enforce = 4,
  WithCapability = 5,
  Try = 6,
  CreateUserGuard = 7,
  Error = 8,
  Pure = 9,
}

/** A binder: a parameter, a `let` name, a bound field. */
export interface DArg {
  readonly name: string;
  readonly type: PactType | null;
  readonly span: Span;
}

export type DTerm = (
  | { readonly t: "var"; readonly name: ParsedName }
  | { readonly t: "lam"; readonly args: readonly DArg[]; readonly body: DTerm }
  | { readonly t: "let"; readonly arg: DArg; readonly value: DTerm; readonly body: DTerm }
  | { readonly t: "app"; readonly fn: DTerm; readonly args: readonly DTerm[] }
  | { readonly t: "seq"; readonly first: DTerm; readonly rest: DTerm }
  | { readonly t: "nullary"; readonly body: DTerm }
  | { readonly t: "form"; readonly form: Form; readonly args: readonly DTerm[] }
  | { readonly t: "builtin"; readonly name: string }
  | { readonly t: "const"; readonly value: LiteralValue }
  | { readonly t: "list"; readonly items: readonly DTerm[] }
  | { readonly t: "object"; readonly fields: readonly (readonly [string, DTerm])[] }
) & { readonly span: Span };

/** Names the desugarer replaces before renaming (`desugarLispTerm`'s special variables). */
const CONSTANTLY_ARGS = ["#constantlyA1", "#constantlyA2"] as const;
const CONDITION_ARGS = ["#condArg1", "#condArg2"] as const;
const BIND_OBJECT = "#bindObject";
const MAP_ARG = ":ijHO1";

export class Desugarer {
  /** @param natives the natives by name (a native wins over every other meaning of its name) */
  constructor(private readonly natives: { has(name: string): boolean }) {}

  term(e: Expr): DTerm {
    switch (e.kind) {
      case "constant":
        return { t: "const", value: e.value, span: e.span };
      case "var":
        return e.name.kind === "bare"
          ? this.bareVar(e.name.name, e.span)
          : this.varOf(e.name, e.span);
      case "let": {
        // Each binder takes the whole form's span, not its name's (a quirk Pact keeps).
        let body = this.sequence(e.body, e.span);
        for (let i = e.bindings.length - 1; i >= 0; i--) {
          const b = e.bindings[i]!;
          const arg = { name: b.arg.name, type: b.arg.type, span: e.span };
          body = { t: "let", arg, value: this.term(b.value), body, span: e.span };
        }
        return body;
      }
      case "lambda":
        return this.lambda(e.params, this.sequence(e.body, e.span), e.span);
      case "app":
        if (e.fn.kind === "var" && e.fn.name.kind === "bare") {
          return this.special(e.fn.name.name, e.fn.span, e);
        }
        return this.call(
          this.term(e.fn),
          e.args.map((x) => this.term(x)),
          e.span,
        );
      case "list":
        return { t: "list", items: e.items.map((x) => this.term(x)), span: e.span };
      case "object":
        return {
          t: "object",
          fields: e.fields.map((f) => [f.field, this.term(f.value)] as const),
          span: e.span,
        };
      case "binding":
        return this.binding(e);
    }
  }

  /**
   * Several expressions evaluated in order: `Sequence a (Sequence b c)`, each `Sequence` with
   * the span of the form whose body it is.
   */
  sequence(body: readonly Expr[], span: Span): DTerm {
    if (body.length === 0) throw internal("an empty body");
    let result = this.term(body[body.length - 1]!);
    for (let i = body.length - 2; i >= 0; i--) {
      result = { t: "seq", first: this.term(body[i]!), rest: result, span };
    }
    return result;
  }

  /** A lambda, or `Nullary` without parameters. */
  lambda(params: readonly Arg[], body: DTerm, span: Span): DTerm {
    return params.length === 0
      ? { t: "nullary", body, span }
      : { t: "lam", args: params.map(toArg), body, span };
  }

  private varOf(name: ParsedName, span: Span): DTerm {
    return { t: "var", name, span };
  }

  private bareVar(name: string, span: Span): DTerm {
    if (this.natives.has(name)) return { t: "builtin", name, span };
    switch (name) {
      case "constantly":
        return {
          t: "lam",
          args: CONSTANTLY_ARGS.map((n) => ({ name: n, type: null, span })),
          body: bare(CONSTANTLY_ARGS[0], span),
          span,
        };
      case "CHARSET_ASCII":
        return { t: "const", value: 0n, span };
      case "CHARSET_LATIN1":
        return { t: "const", value: 1n, span };
      default:
        return bare(name, span);
    }
  }

  /** An application whose head is a bare name: a special form, or an ordinary call. */
  private special(name: string, headSpan: Span, e: AppExpr): DTerm {
    const args = e.args;
    switch (name) {
      case "and":
      case "or":
      case "enforce": {
        const form = name === "and" ? Form.And : name === "or" ? Form.Or : Form.Enforce;
        if (args.length === 2) return this.form(form, args, e.span);
        return {
          t: "app",
          fn: conditionLambda(form, headSpan),
          args: args.map((x) => this.term(x)),
          span: e.span,
        };
      }
      case "if":
        return this.form(Form.If, exactly(args, 3, name), e.span);
      case "do":
        return this.sequence(args, e.span);
      case "with-capability": {
        if (args.length < 2) throw internal(`${name} with ${args.length} arguments`);
        return {
          t: "form",
          form: Form.WithCapability,
          args: [this.term(args[0]!), this.sequence(args.slice(1), e.span)],
          span: e.span,
        };
      }
      case "suspend":
        return { t: "nullary", body: this.term(exactly(args, 1, name)[0]!), span: e.span };
      case "enforce-one":
        return this.form(Form.EnforceOne, exactly(args, 2, name), e.span);
      case "try":
        return this.form(Form.Try, exactly(args, 2, name), e.span);
      case "create-user-guard":
        return this.form(Form.CreateUserGuard, exactly(args, 1, name), e.span);
      case "error":
        return this.form(Form.Error, exactly(args, 1, name), e.span);
      case "pure":
        return this.form(Form.Pure, exactly(args, 1, name), e.span);
      case "map":
        return this.map(headSpan, e);
      case "cond":
        return this.cond(args, e.span);
      default:
        return this.call(
          this.bareVar(name, headSpan),
          args.map((x) => this.term(x)),
          e.span,
        );
    }
  }

  private form(form: Form, args: readonly Expr[], span: Span): DTerm {
    return { t: "form", form, args: args.map((x) => this.term(x)), span };
  }

  /**
   * A call with the application's span; a native called directly resolves its overload by the
   * number of arguments, and takes the application's span too.
   */
  private call(fn: DTerm, args: readonly DTerm[], span: Span): DTerm {
    if (fn.t !== "builtin") return { t: "app", fn, args, span };
    return callBuiltin(fn.name, args, span);
  }

  /**
   * `(map (f a) xs)`: an application as the function is eta-expanded to
   * `(lambda (:ijHO1) (f a :ijHO1))`, so overloaded natives see their full argument count.
   */
  private map(headSpan: Span, e: AppExpr): DTerm {
    const [fn, ...rest] = e.args;
    const head = this.bareVar("map", headSpan);
    if (fn === undefined || fn.kind !== "app") {
      return this.call(
        head,
        e.args.map((x) => this.term(x)),
        e.span,
      );
    }
    const param: Arg = { name: MAP_ARG, type: null, span: fn.span };
    const applied: AppExpr = {
      kind: "app",
      fn: fn.fn,
      args: [...fn.args, { kind: "var", name: { kind: "bare", name: MAP_ARG }, span: e.span }],
      span: fn.span,
    };
    const expanded = this.lambda([param], this.term(applied), fn.span);
    return this.call(head, [expanded, ...rest.map((x) => this.term(x))], e.span);
  }

  /** `(cond (c1 e1) … default)`: `cond` applied to a suspended chain of `if`s. */
  private cond(args: readonly Expr[], span: Span): DTerm {
    if (args.length === 0) throw internal("cond without cases");
    let body = this.term(args[args.length - 1]!);
    for (let i = args.length - 2; i >= 0; i--) {
      const branch = args[i]!;
      if (branch.kind !== "app" || branch.args.length !== 1) throw internal("a malformed cond");
      body = {
        t: "form",
        form: Form.If,
        args: [this.term(branch.fn), this.term(branch.args[0]!), body],
        span: branch.span,
      };
    }
    return {
      t: "app",
      fn: { t: "builtin", name: "cond", span },
      args: [{ t: "nullary", body, span }],
      span,
    };
  }

  /**
   * `{ "f" := x, … } body…` as `(lambda (#bindObject) (let ((x (at "f" #bindObject))) …))`.
   * Pact's parser keeps the fields of a binding form in reverse order, so the last field's `Let`
   * is the outermost.
   */
  private binding(e: BindingExpr): DTerm {
    let body = this.sequence(e.body, e.span);
    for (const f of e.fields) {
      // The field's access takes the bound name's span (Pact's `bindToLetPostFork`).
      const at = f.arg.span;
      const value: DTerm = {
        t: "app",
        fn: { t: "builtin", name: "at", span: at },
        args: [{ t: "const", value: f.field, span: at }, bare(BIND_OBJECT, e.span)],
        span: at,
      };
      body = { t: "let", arg: toArg(f.arg), value, body, span: e.span };
    }
    return {
      t: "lam",
      args: [{ name: BIND_OBJECT, type: null, span: e.span }],
      body,
      span: e.span,
    };
  }
}

/** A direct call of a builtin, with Pact's overload resolution (`desugarAppArity`). */
function callBuiltin(name: string, args: readonly DTerm[], span: Span): DTerm {
  const fn: DTerm = { t: "builtin", name: overloadFor(name, args.length), span };
  if (LIST_ARGUMENT_BUILTINS.has(name)) {
    return { t: "app", fn: { ...fn, name }, args: [{ t: "list", items: args, span }], span };
  }
  // The REPL's `expect` and `expect-failure` take their expressions unevaluated.
  const isNullary = (x: DTerm | undefined) => x?.t === "nullary";
  if (name === "expect" && args.length === 3 && !isNullary(args[2])) {
    return {
      t: "app",
      fn: { ...fn, name },
      args: [args[0]!, suspendTerm(args[1]!), suspendTerm(args[2]!)],
      span,
    };
  }
  if (name === "expect-failure" && args.length === 2 && !isNullary(args[1])) {
    return { t: "app", fn: { ...fn, name }, args: [args[0]!, suspendTerm(args[1]!)], span };
  }
  if (name === "expect-failure" && args.length === 3 && !isNullary(args[1])) {
    return {
      t: "app",
      fn: { ...fn, name: "expect-failure-match" },
      args: [args[0]!, args[1]!, suspendTerm(args[2]!)],
      span,
    };
  }
  return { t: "app", fn, args, span };
}

/** A term suspended, with its own span. */
function suspendTerm(body: DTerm): DTerm {
  return { t: "nullary", body, span: body.span };
}

/**
 * `and`, `or` or `enforce` not called with exactly two arguments: a lambda of two booleans
 * applying the form to them.
 */
function conditionLambda(form: Form, span: Span): DTerm {
  const bool: PactType = { kind: "prim", name: "bool" };
  return {
    t: "lam",
    args: CONDITION_ARGS.map((name) => ({ name, type: bool, span })),
    body: { t: "form", form, args: CONDITION_ARGS.map((n) => bare(n, span)), span },
    span,
  };
}

function bare(name: string, span: Span): DTerm {
  return { t: "var", name: { kind: "bare", name }, span };
}

function toArg(a: Arg): DArg {
  return { name: a.name, type: a.type, span: a.span };
}

function exactly(args: readonly Expr[], count: number, form: string): readonly Expr[] {
  if (args.length !== count) throw internal(`${form} with ${args.length} arguments`);
  return args;
}

function internal(what: string): Error {
  return new Error(`module hash: the compiler accepted ${what}`);
}
