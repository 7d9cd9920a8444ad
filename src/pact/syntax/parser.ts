/**
 * The Pact 5 parser (`Pact.Core.Syntax.Parser`), as recursive descent over the token array.
 *
 * Pact's grammar is an LALR(1) `happy` grammar with a few ambiguities that happy settles by
 * shifting. The choices below reproduce those, so the same inputs are accepted:
 * - A string right after a `defun`/`defcap` parameter list is always the docstring, so
 *   `(defun f () "a")` has an empty body and is rejected.
 * - A type name followed by `{` always starts `object{…}`/`table{…}`, so
 *   `(defconst x:object {"a": 1})` is rejected.
 * - `@managed` followed by an identifier always takes `param manager-fn`.
 * - `(step a b)` has entity `a` and body `b`; `(step-with-rollback a b c)` has entity `a`.
 * - A decimal is `number "." number`, so `1 . 5` is 1.5.
 * - An object may start with one comma (`{, "a": 1}`); lists use commas everywhere or nowhere.
 */
import { Decimal, MAX_DECIMAL_PLACES } from "../values/decimal.ts";
import { UNIT } from "../values/types.ts";
import type {
  Annotation,
  Arg,
  BareName,
  BindingField,
  Bless,
  CapMeta,
  ConstantExpr,
  Def,
  DefCap,
  DefConst,
  DefPact,
  DefSchema,
  DefTable,
  Defun,
  Doc,
  Expr,
  Governance,
  Implements,
  Interface,
  InterfaceDef,
  InterfaceDefCap,
  InterfaceDefPact,
  InterfaceDefun,
  LetBinding,
  Module,
  ModuleExtension,
  ModuleName,
  ObjectField,
  PactStep,
  PactType,
  ParsedName,
  PrimTypeName,
  PropertyExpr,
  ReplTopLevel,
  SchemaField,
  TopLevel,
  TypeName,
  Use,
  VarExpr,
} from "./ast.ts";
import { PactSyntaxError } from "./errors.ts";
import { DEFAULT_FILE_NAME, lexToBuffer } from "./lexer.ts";
import { MAX_NESTING_DEPTH } from "./limits.ts";
import type { Span } from "./span.ts";
import { Tk, type TokenBuffer } from "./token-buffer.ts";
import { TOKEN_KINDS } from "./tokens.ts";

/** Parses a `.pact` file or transaction code: modules, interfaces, `use` and expressions. */
export function parseProgram(source: string, file: string = DEFAULT_FILE_NAME): TopLevel[] {
  return new Parser(lexToBuffer(source, file), file).program(false) as TopLevel[];
}

/** Parses a `.repl` file: as `parseProgram`, plus `defun` and `defconst` at the top level. */
export function parseReplProgram(source: string, file: string = DEFAULT_FILE_NAME): ReplTopLevel[] {
  return new Parser(lexToBuffer(source, file), file).program(true);
}

/** Parses exactly one expression (Pact's `parseExpr`). */
export function parseExpression(source: string, file: string = DEFAULT_FILE_NAME): Expr {
  return new Parser(lexToBuffer(source, file), file).singleExpression();
}

const NO_ANNOTATIONS: readonly Annotation[] = Object.freeze([]);

const PRIM_TYPES: ReadonlyMap<string, PactType> = new Map<string, PactType>([
  ...(["integer", "decimal", "bool", "string", "time", "unit", "guard", "keyset"] as const).map(
    (name: PrimTypeName): [string, PactType] => [name, { kind: "prim", name }],
  ),
  ["list", { kind: "any-list" }],
  ["object", { kind: "any-object" }],
]);
const ANY_TYPE: PactType = { kind: "any" };

/** Why a reserved word cannot appear where it was found. */
const MISPLACED: ReadonlyMap<number, string> = new Map([
  [
    Tk.Defun,
    "defun is only allowed inside a module or interface, or at the top level of a .repl file",
  ],
  [
    Tk.DefConst,
    "defconst is only allowed inside a module or interface, or at the top level of a .repl file",
  ],
  [Tk.DefCap, "defcap is only allowed inside a module or interface"],
  [Tk.DefSchema, "defschema is only allowed inside a module or interface"],
  [Tk.DefPact, "defpact is only allowed inside a module or interface"],
  [Tk.DefTable, "deftable is only allowed inside a module"],
  [Tk.Implements, "implements is only allowed inside a module"],
  [Tk.Bless, "bless is only allowed inside a module"],
  [Tk.Module, "module is only allowed at the top level"],
  [Tk.Interface, "interface is only allowed at the top level"],
  [Tk.Use, "use is only allowed at the top level or inside a module or interface"],
  [Tk.Step, "step is only allowed inside a defpact"],
  [Tk.StepWithRollback, "step-with-rollback is only allowed inside a defpact"],
  [Tk.DocAnn, "@doc belongs right after a definition's name or parameters"],
  [Tk.ModelAnn, "@model belongs right after a definition's name or parameters, or ends a step"],
  [Tk.EventAnn, "@event belongs in a defcap, after its parameters and documentation"],
  [Tk.ManagedAnn, "@managed belongs in a defcap, after its parameters and documentation"],
]);

class Parser {
  /** Index of the current token. */
  private i = 0;
  /** Brackets currently open. */
  private depth = 0;
  private readonly values: string[];
  private readonly bareNames = new Map<string, BareName>();

  constructor(
    private readonly t: TokenBuffer,
    private readonly file: string,
  ) {
    this.values = t.values;
  }

  // -------------------------------------------------------------------------------------------
  // Token access (tokens are indices into the buffer)

  /** The kind of the token `ahead` places after the current one. */
  private kind(ahead = 0): number {
    return this.t.kind(this.i + ahead);
  }

  /** Consumes a token of `kind` and returns its index, or fails with "expected <what>, found …". */
  private expect(kind: number, what: string): number {
    if (this.t.kind(this.i) !== kind) this.unexpected(this.i, what);
    return this.i++;
  }

  private expectIdent(what: string): number {
    return this.expect(Tk.Ident, what);
  }

  /** Consumes an opening bracket, counting it against `MAX_NESTING_DEPTH`. */
  private open(): number {
    if (++this.depth > MAX_NESTING_DEPTH) {
      this.fail(this.t.span(this.i), `nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    }
    return this.i++;
  }

  /** Consumes the bracket closing the one at `open`, or explains which bracket is left open. */
  private close(open: number, what?: string): number {
    if (this.t.kind(this.i) !== closerOf(this.t.kind(open))) this.unclosed(open, what);
    this.depth--;
    return this.i++;
  }

  /**
   * True at the bracket closing the one at `open`; fails at the end of the input or at a
   * closing bracket of another kind.
   */
  private atClose(open: number, what?: string): boolean {
    const kind = this.t.kind(this.i);
    if (kind === closerOf(this.t.kind(open))) return true;
    if (kind === Tk.Eof || kind === Tk.RParen || kind === Tk.RBracket || kind === Tk.RBrace) {
      this.unclosed(open, what);
    }
    return false;
  }

  /** The span from token `first` to token `last`. */
  private spanFrom(first: number, last: number): Span {
    return this.t.spanFrom(first, last);
  }

  // -------------------------------------------------------------------------------------------
  // Errors

  private fail(span: Span, reason: string): never {
    const incomplete = this.i >= this.t.count && this.depth > 0;
    throw new PactSyntaxError("parse", this.file, span, reason, incomplete);
  }

  /** Fails at token `at`: "expected <what>, found <token>". */
  private unexpected(at: number, what: string): never {
    const hint = MISPLACED.get(this.t.kind(at));
    const found = this.describe(at);
    this.fail(this.t.span(at), `expected ${what}, found ${found}${hint ? ` (${hint})` : ""}`);
  }

  /** Fails at the current token, which should have closed the bracket at `open`. */
  private unclosed(open: number, what?: string): never {
    const opener = TOKEN_KINDS[this.t.kind(open)]!;
    const closer = TOKEN_KINDS[closerOf(this.t.kind(open))]!;
    const opened = `${what ?? `'${opener}'`} opened at ${position(this.t.span(open))}`;
    this.fail(
      this.t.span(this.i),
      `expected '${closer}' to close ${opened}, found ${this.describe(this.i)}`,
    );
  }

  /** How token `at` is named in error messages. */
  private describe(at: number): string {
    const kind = this.t.kind(at);
    const value = this.values[at]!;
    switch (kind) {
      case Tk.Eof:
        return "the end of the input";
      case Tk.Ident:
        return `identifier ${value}`;
      case Tk.Number:
        return `number ${value}`;
      case Tk.String: {
        const text = JSON.stringify(value);
        return `string ${text.length > 40 ? `${text.slice(0, 36)}…"` : text}`;
      }
      case Tk.Symbol:
        return `symbol '${value}`;
      case Tk.True:
      case Tk.False:
        return value;
      default:
        return kind >= Tk.Let ? `keyword ${value}` : `'${value}'`;
    }
  }

  // -------------------------------------------------------------------------------------------
  // Programs

  program(repl: boolean): ReplTopLevel[] {
    const out: ReplTopLevel[] = [];
    while (this.i < this.t.count) {
      if (this.kind() === Tk.RParen) {
        this.fail(this.t.span(this.i), "unexpected ')' with no matching '('");
      }
      out.push(this.topLevel(repl));
    }
    return out;
  }

  singleExpression(): Expr {
    const expr = this.expr();
    if (this.i < this.t.count) {
      this.fail(this.t.span(this.i), `unexpected ${this.describe(this.i)} after the expression`);
    }
    return expr;
  }

  private topLevel(repl: boolean): ReplTopLevel {
    if (this.kind() === Tk.LParen) {
      switch (this.kind(1)) {
        case Tk.Module:
          return this.module();
        case Tk.Interface:
          return this.interface();
        case Tk.Use:
          return this.use();
        case Tk.Defun:
          if (repl) return this.defun();
          break;
        case Tk.DefConst:
          if (repl) return this.defconst();
          break;
      }
    }
    return this.expr();
  }

  // -------------------------------------------------------------------------------------------
  // Expressions

  private expr(): Expr {
    const at = this.i;
    switch (this.t.kind(at)) {
      case Tk.LParen:
        return this.form();
      case Tk.Ident:
        return this.variable();
      case Tk.Number:
        return this.number();
      case Tk.String:
      case Tk.Symbol:
        this.i++;
        return { kind: "constant", value: this.values[at]!, span: this.t.span(at) };
      case Tk.True:
        this.i++;
        return { kind: "constant", value: true, span: this.t.span(at) };
      case Tk.False:
        this.i++;
        return { kind: "constant", value: false, span: this.t.span(at) };
      case Tk.LBracket:
        return this.list();
      case Tk.LBrace:
        return this.object();
      default:
        this.unexpected(at, "an expression");
    }
  }

  /** `(…)`: unit, lambda, let, or an application. */
  private form(): Expr {
    const open = this.open();
    switch (this.kind()) {
      case Tk.RParen: {
        const close = this.close(open);
        return { kind: "constant", value: UNIT, span: this.spanFrom(open, close) };
      }
      case Tk.Lambda:
        return this.lambda(open);
      case Tk.Let:
      case Tk.LetStar:
        return this.let(open);
    }
    const fn = this.expr();
    const parts: (Expr | BindingField[])[] = [];
    let bindings = false;
    while (!this.atClose(open)) {
      if (this.kind() === Tk.LBrace && this.atBindingForm()) {
        parts.push(this.bindingFields());
        bindings = true;
      } else {
        parts.push(this.expr());
      }
    }
    const span = this.spanFrom(open, this.close(open));
    const args = bindings ? nestBindings(parts, span) : (parts as Expr[]);
    return { kind: "app", fn, args, span };
  }

  /** `{ "f" := …` starts a binding form; any other `{` starts an object. */
  private atBindingForm(): boolean {
    const key = this.kind(1);
    return (key === Tk.String || key === Tk.Symbol) && this.kind(2) === Tk.BindAssign;
  }

  /** `{ "f" := x, 'g := y:integer }` */
  private bindingFields(): BindingField[] {
    const open = this.open();
    const fields: BindingField[] = [];
    for (;;) {
      const key = this.i;
      const keyKind = this.kind();
      if (keyKind !== Tk.String && keyKind !== Tk.Symbol) {
        this.unexpected(key, "a field name (a string) in the binding form");
      }
      this.i++;
      this.expect(Tk.BindAssign, "':=' after the field name in a binding form");
      fields.push({ field: this.values[key]!, arg: this.arg("the variable to bind the field to") });
      const next = this.kind();
      if (next === Tk.Comma) this.i++;
      else if (next === Tk.RBrace) break;
      else this.unclosed(open, "the binding form");
    }
    this.close(open);
    return fields;
  }

  private lambda(open: number): Expr {
    this.i++;
    const params = this.params("the lambda's parameters");
    const body = this.body(open, "the lambda");
    const close = this.close(open, "the lambda");
    return { kind: "lambda", params, body, span: this.spanFrom(open, close) };
  }

  private let(open: number): Expr {
    const star = this.t.kind(this.i++) === Tk.LetStar;
    const form = star ? "let*" : "let";
    if (this.kind() !== Tk.LParen) {
      this.unexpected(this.i, `'(' to start the ${form} bindings, as in (${form} ((x 1)) x)`);
    }
    const listOpen = this.open();
    const bindings: LetBinding[] = [];
    while (this.kind() === Tk.LParen) {
      const bindOpen = this.open();
      const arg = this.arg(`the name to bind in ${form}`);
      const value = this.expr();
      this.close(bindOpen, `the ${form} binding`);
      bindings.push({ arg, value });
    }
    if (this.kind() !== Tk.RParen) {
      this.unexpected(this.i, `'(' to start a binding or ')' to end the ${form} bindings`);
    }
    if (bindings.length === 0) {
      this.fail(
        this.t.span(this.i),
        `${form} needs at least one binding, as in (${form} ((x 1)) x)`,
      );
    }
    this.close(listOpen);
    const body = this.body(open, `the ${form}`);
    const close = this.close(open, `the ${form}`);
    return { kind: "let", star, bindings, body, span: this.spanFrom(open, close) };
  }

  /** One or more expressions up to the `)` closing `what`, the form at `open`. */
  private body(open: number, what: string, hint = ""): Expr[] {
    if (this.kind() === Tk.RParen) {
      this.fail(
        this.t.span(this.i),
        `expected the body of ${what}: at least one expression${hint}`,
      );
    }
    const body: Expr[] = [];
    do body.push(this.expr());
    while (!this.atClose(open, what));
    return body;
  }

  /** `x`, `m.x`, `ns.m.x` or `ref::x`. */
  private variable(): Expr {
    const first = this.i++;
    const next = this.kind();
    if (next === Tk.Dot) {
      const name = this.qualified(first);
      return { kind: "var", name, span: this.spanFrom(first, this.i - 1) };
    }
    if (next === Tk.DynAcc) {
      this.i++;
      const member = this.expectIdent("a name after '::'");
      const name: ParsedName = {
        kind: "dynamic",
        ref: this.values[first]!,
        name: this.values[member]!,
      };
      return { kind: "var", name, span: this.spanFrom(first, member) };
    }
    const name = this.bareName(this.values[first]!);
    return { kind: "var", name, span: this.t.span(first) };
  }

  /** One shared `BareName` per distinct name: variables are the most common node. */
  private bareName(name: string): BareName {
    let bare = this.bareNames.get(name);
    if (bare === undefined) {
      bare = { kind: "bare", name };
      this.bareNames.set(name, bare);
    }
    return bare;
  }

  /** After identifier `first`, at a `.`: `m.x` or `ns.m.x`. */
  private qualified(first: number): TypeName {
    this.i++;
    const second = this.expectIdent("a name after '.'");
    if (this.kind() !== Tk.Dot) {
      const module = { namespace: null, name: this.values[first]! };
      return { kind: "qualified", module, name: this.values[second]! };
    }
    this.i++;
    const third = this.expectIdent("a name after '.'");
    const module = { namespace: this.values[first]!, name: this.values[second]! };
    return { kind: "qualified", module, name: this.values[third]! };
  }

  /** An integer, or `int "." digits` as a decimal. */
  private number(): Expr {
    const whole = this.i++;
    if (this.kind() !== Tk.Dot) {
      return { kind: "constant", value: BigInt(this.values[whole]!), span: this.t.span(whole) };
    }
    this.i++;
    const fraction = this.expect(Tk.Number, `the digits after '${this.values[whole]}.'`);
    const span = this.spanFrom(whole, fraction);
    const value = this.decimal(this.values[whole]!, this.values[fraction]!, span);
    return { kind: "constant", value, span };
  }

  private decimal(whole: string, fraction: string, span: Span): Decimal {
    if (fraction.charCodeAt(0) === 0x2d) {
      this.fail(span, `a decimal's fraction cannot have a sign: ${whole}.${fraction}`);
    }
    if (fraction.length > MAX_DECIMAL_PLACES) {
      this.fail(
        span,
        `the decimal ${whole}.${fraction.slice(0, 8)}… has ${fraction.length} digits after the ` +
          `point; Pact decimals have at most ${MAX_DECIMAL_PLACES}`,
      );
    }
    const negative = whole.charCodeAt(0) === 0x2d;
    const magnitude = BigInt((negative ? whole.slice(1) : whole) + fraction);
    return new Decimal(negative ? -magnitude : magnitude, fraction.length);
  }

  /** `[a b c]` or `[a, b, c]`. */
  private list(): Expr {
    const open = this.open();
    const items: Expr[] = [];
    if (!this.atClose(open, "the list")) {
      items.push(this.expr());
      if (this.kind() === Tk.Comma) {
        while (this.kind() === Tk.Comma) {
          this.i++;
          items.push(this.expr());
        }
        if (this.kind() !== Tk.RBracket) {
          const opened = position(this.t.span(open));
          this.unexpected(
            this.i,
            `',' or ']' (the list opened at ${opened} separates its items with commas)`,
          );
        }
      } else {
        while (!this.atClose(open, "the list")) {
          if (this.kind() === Tk.Comma) {
            this.fail(
              this.t.span(this.i),
              "unexpected ','; a list separates its items with commas everywhere or nowhere",
            );
          }
          items.push(this.expr());
        }
      }
    }
    const close = this.close(open, "the list");
    return { kind: "list", items, span: this.spanFrom(open, close) };
  }

  /** `{ "k": v, 'k2: w }`, optionally with one leading comma. */
  private object(): Expr {
    const open = this.open();
    const fields: ObjectField[] = [];
    if (this.kind() !== Tk.RBrace) {
      if (this.kind() !== Tk.Comma) fields.push(this.objectField());
      while (this.kind() === Tk.Comma) {
        this.i++;
        fields.push(this.objectField());
      }
    }
    const close = this.close(open, "the object");
    return { kind: "object", fields, span: this.spanFrom(open, close) };
  }

  private objectField(): ObjectField {
    const key = this.i;
    const keyKind = this.kind();
    if (keyKind !== Tk.String && keyKind !== Tk.Symbol) {
      this.unexpected(key, `a field name (a string like "name") in the object`);
    }
    this.i++;
    if (this.kind() === Tk.BindAssign) {
      this.fail(
        this.t.span(this.i),
        "':=' binds fields only in a binding form passed to a function, " +
          `as in (bind obj {"f" := x} x); an object uses ':'`,
      );
    }
    this.expect(Tk.Colon, "':' after the field name");
    return { field: this.values[key]!, value: this.expr() };
  }

  // -------------------------------------------------------------------------------------------
  // Names, arguments and types

  /** `name` or `name:type`. */
  private arg(what: string): Arg {
    const name = this.expectIdent(what);
    const type = this.optionalType();
    return { name: this.values[name]!, type, span: this.t.span(name) };
  }

  /** `(a b:integer …)` */
  private params(what: string): Arg[] {
    if (this.kind() !== Tk.LParen) this.unexpected(this.i, `'(' to start ${what}`);
    const open = this.open();
    const params: Arg[] = [];
    while (this.kind() === Tk.Ident) params.push(this.arg("a parameter name"));
    if (this.kind() !== Tk.RParen) this.unexpected(this.i, "a parameter name or ')'");
    this.close(open);
    return params;
  }

  private optionalType(): PactType | null {
    if (this.kind() !== Tk.Colon) return null;
    this.i++;
    return this.type();
  }

  private type(): PactType {
    const at = this.i;
    switch (this.t.kind(at)) {
      case Tk.LBracket: {
        const open = this.open();
        const elem = this.type();
        this.close(open, "the list type");
        return { kind: "list", elem };
      }
      case Tk.Module: {
        this.i++;
        if (this.kind() !== Tk.LBrace) {
          this.unexpected(this.i, "'{' and interface names, as in module{fungible-v2}");
        }
        const open = this.open();
        const interfaces = [this.moduleName("an interface name")];
        while (this.kind() === Tk.Comma) {
          this.i++;
          interfaces.push(this.moduleName("an interface name"));
        }
        this.close(open, "the module type");
        return { kind: "modref", interfaces };
      }
      case Tk.Ident: {
        this.i++;
        const name = this.values[at]!;
        if (this.kind() === Tk.LBrace) {
          const open = this.open();
          const schema = this.typeName();
          this.close(open, `the ${name} type`);
          if (name === "object") return { kind: "object", schema };
          if (name === "table") return { kind: "table", schema };
          this.fail(
            this.t.span(at),
            `no such type: ${name}{…}; only object{…} and table{…} take a schema`,
          );
        }
        const prim = PRIM_TYPES.get(name);
        if (prim === undefined) {
          this.fail(
            this.t.span(at),
            `no such type: ${name}; the types are integer, decimal, bool, string, time, unit, ` +
              "guard, keyset, list, [type], object, object{schema}, table{schema} and " +
              "module{interface}",
          );
        }
        return prim;
      }
      default:
        this.unexpected(at, "a type such as integer, [string] or object{schema}");
    }
  }

  /** `m` or `ns.m` */
  private moduleName(what: string): ModuleName {
    const first = this.expectIdent(what);
    if (this.kind() !== Tk.Dot) return { namespace: null, name: this.values[first]! };
    this.i++;
    const second = this.expectIdent("a name after '.'");
    return { namespace: this.values[first]!, name: this.values[second]! };
  }

  /** A schema name in a type: `s`, `m.s`, `ns.m.s`. */
  private typeName(): TypeName {
    const first = this.expectIdent("a schema name");
    if (this.kind() === Tk.Dot) return this.qualified(first);
    return { kind: "bare", name: this.values[first]! };
  }

  /** `x`, `m.x`, `ns.m.x` or `ref::x`. */
  private parsedName(what: string): ParsedName {
    const first = this.expectIdent(what);
    const next = this.kind();
    if (next === Tk.Dot) return this.qualified(first);
    if (next === Tk.DynAcc) {
      this.i++;
      const member = this.expectIdent("a name after '::'");
      return { kind: "dynamic", ref: this.values[first]!, name: this.values[member]! };
    }
    return { kind: "bare", name: this.values[first]! };
  }

  // -------------------------------------------------------------------------------------------
  // Annotations

  /** Optional `@doc "…"`, `@model […]` (either order, at most one each), or a bare docstring. */
  private annotations(): readonly Annotation[] {
    switch (this.kind()) {
      case Tk.DocAnn: {
        const doc: Annotation = { kind: "doc", ...this.docAnnotation() };
        return this.kind() === Tk.ModelAnn ? [doc, this.model()] : [doc];
      }
      case Tk.ModelAnn: {
        const model = this.model();
        if (this.kind() !== Tk.DocAnn) return [model];
        return [model, { kind: "doc", ...this.docAnnotation() }];
      }
      case Tk.String:
        return [{ kind: "doc", text: this.values[this.i++]!, style: "string" }];
      default:
        return NO_ANNOTATIONS;
    }
  }

  /** The optional documentation of `defconst` and `deftable`: `@doc "…"` or a string. */
  private optionalDoc(): Doc | null {
    const kind = this.kind();
    if (kind === Tk.DocAnn) return this.docAnnotation();
    if (kind === Tk.String) return { text: this.values[this.i++]!, style: "string" };
    return null;
  }

  private docAnnotation(): Doc {
    this.i++;
    const text = this.values[this.expect(Tk.String, "the documentation string after @doc")]!;
    return { text, style: "annotation" };
  }

  private model(): Annotation {
    return { kind: "model", props: this.modelProps() };
  }

  /** `@model [ … ]` */
  private modelProps(): PropertyExpr[] {
    this.i++;
    if (this.kind() !== Tk.LBracket) this.unexpected(this.i, "'[' to start the @model properties");
    const open = this.open();
    return this.propsUntilClose(open, "the @model properties");
  }

  /** Properties up to the bracket closing `open`. Braces are plain delimiters here. */
  private propsUntilClose(open: number, what: string): PropertyExpr[] {
    const closer = closerOf(this.t.kind(open));
    const props: PropertyExpr[] = [];
    for (let kind = this.kind(); kind !== closer; kind = this.kind()) {
      if (kind === Tk.Eof || kind === Tk.RParen || kind === Tk.RBracket) this.unclosed(open, what);
      props.push(this.prop());
    }
    this.close(open, what);
    return props;
  }

  private prop(): PropertyExpr {
    const at = this.i;
    const kind = this.t.kind(at);
    switch (kind) {
      case Tk.Ident: {
        const v = this.variable() as VarExpr;
        return { kind: "atom", name: v.name, span: v.span };
      }
      case Tk.Number:
      case Tk.String:
      case Tk.Symbol:
      case Tk.True:
      case Tk.False: {
        const c = this.expr() as ConstantExpr;
        return { kind: "constant", value: c.value, span: c.span };
      }
      case Tk.Let:
      case Tk.Lambda:
        this.i++;
        return {
          kind: "keyword",
          keyword: kind === Tk.Let ? "let" : "lambda",
          span: this.t.span(at),
        };
      case Tk.LBrace:
      case Tk.RBrace:
      case Tk.Colon:
      case Tk.Comma:
        this.i++;
        return { kind: "delim", delim: DELIMS[kind]!, span: this.t.span(at) };
      case Tk.LParen: {
        const open = this.open();
        const items = this.propsUntilClose(open, "the property expression");
        return { kind: "sequence", items, span: this.spanFrom(open, this.i - 1) };
      }
      case Tk.LBracket: {
        const open = this.open();
        const items = this.propsUntilClose(open, "the property list");
        const close = this.i - 1;
        items.unshift({ kind: "delim", delim: "[", span: this.t.span(open) });
        items.push({ kind: "delim", delim: "]", span: this.t.span(close) });
        return { kind: "sequence", items, span: this.spanFrom(open, close) };
      }
      default:
        this.unexpected(at, "a property expression");
    }
  }

  /** Optional `@event`, `@managed` or `@managed param manager-fn`. */
  private capMeta(): CapMeta | null {
    const kind = this.kind();
    if (kind === Tk.EventAnn) {
      this.i++;
      return { kind: "event" };
    }
    if (kind !== Tk.ManagedAnn) return null;
    this.i++;
    if (this.kind() !== Tk.Ident) return { kind: "managed", manager: null };
    const param = this.values[this.i++]!;
    const fn = this.parsedName(`the manager function after @managed ${param}`);
    return { kind: "managed", manager: { param, fn } };
  }

  // -------------------------------------------------------------------------------------------
  // Definitions

  /** `(defun …)`; in an interface (`signatureOnly`) without a body. */
  private defun(): Defun;
  private defun(signatureOnly: true): InterfaceDefun;
  private defun(signatureOnly = false): Defun | InterfaceDefun {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the function's name after defun")]!;
    const nameSpan = this.t.span(this.i - 1);
    const returnType = this.optionalType();
    const params = this.params(`the parameters of ${name}, as in (defun f (a b) …)`);
    const annotations = this.annotations();
    const what = `defun ${name}`;
    const base = { name, nameSpan, returnType, params, annotations };
    if (signatureOnly) {
      const close = this.close(open, `${what} (an interface's defun has no body)`);
      return { kind: "defun", ...base, span: this.spanFrom(open, close) };
    }
    const body = this.body(open, what, docstringHint(annotations));
    const close = this.close(open, what);
    return { kind: "defun", ...base, body, span: this.spanFrom(open, close) };
  }

  /** `(defcap …)`; in an interface (`signatureOnly`) without a body. */
  private defcap(): DefCap;
  private defcap(signatureOnly: true): InterfaceDefCap;
  private defcap(signatureOnly = false): DefCap | InterfaceDefCap {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the capability's name after defcap")]!;
    const nameSpan = this.t.span(this.i - 1);
    const returnType = this.optionalType();
    const params = this.params(`the parameters of ${name}, as in (defcap C (a b) …)`);
    const annotations = this.annotations();
    const meta = this.capMeta();
    const what = `defcap ${name}`;
    const base = { name, nameSpan, returnType, params, annotations, meta };
    if (signatureOnly) {
      const close = this.close(open, `${what} (an interface's defcap has no body)`);
      return { kind: "defcap", ...base, span: this.spanFrom(open, close) };
    }
    const body = this.body(open, what, meta === null ? docstringHint(annotations) : "");
    const close = this.close(open, what);
    return { kind: "defcap", ...base, body, span: this.spanFrom(open, close) };
  }

  /** `(defpact …)`; in an interface (`signatureOnly`) without steps. */
  private defpact(): DefPact;
  private defpact(signatureOnly: true): InterfaceDefPact;
  private defpact(signatureOnly = false): DefPact | InterfaceDefPact {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the defpact's name")]!;
    const nameSpan = this.t.span(this.i - 1);
    const returnType = this.optionalType();
    const params = this.params(`the parameters of ${name}, as in (defpact p (a b) …)`);
    const annotations = this.annotations();
    const what = `defpact ${name}`;
    const base = { name, nameSpan, returnType, params, annotations };
    if (signatureOnly) {
      const close = this.close(open, `${what} (an interface's defpact has no steps)`);
      return { kind: "defpact", ...base, span: this.spanFrom(open, close) };
    }
    const steps: PactStep[] = [];
    while (this.kind() === Tk.LParen) steps.push(this.step());
    if (this.kind() !== Tk.RParen) this.unexpected(this.i, `a (step …) or ')' to end ${what}`);
    if (steps.length === 0) this.fail(this.t.span(this.i), `${what} needs at least one (step …)`);
    const close = this.close(open, what);
    return { kind: "defpact", ...base, steps, span: this.spanFrom(open, close) };
  }

  /** `(step [entity] expr [@model …])` or `(step-with-rollback [entity] expr rollback [@model …])` */
  private step(): PactStep {
    const open = this.open();
    const kw = this.kind();
    if (kw !== Tk.Step && kw !== Tk.StepWithRollback) {
      this.unexpected(this.i, "step or step-with-rollback");
    }
    this.i++;
    const rollback = kw === Tk.StepWithRollback;
    const what = rollback ? "the step-with-rollback" : "the step";
    const first = this.expr();
    const second = rollback || this.atExprStart() ? this.expr() : null;
    const third = rollback && this.atExprStart() ? this.expr() : null;
    const model = this.kind() === Tk.ModelAnn ? this.modelProps() : null;
    const span = this.spanFrom(open, this.close(open, what));
    if (!rollback) {
      return second === null
        ? { kind: "step", entity: null, expr: first, model, span }
        : { kind: "step", entity: first, expr: second, model, span };
    }
    return third === null
      ? { kind: "step-with-rollback", entity: null, expr: first, rollback: second!, model, span }
      : { kind: "step-with-rollback", entity: first, expr: second!, rollback: third, model, span };
  }

  private atExprStart(): boolean {
    switch (this.kind()) {
      case Tk.LParen:
      case Tk.LBracket:
      case Tk.LBrace:
      case Tk.Ident:
      case Tk.Number:
      case Tk.String:
      case Tk.Symbol:
      case Tk.True:
      case Tk.False:
        return true;
      default:
        return false;
    }
  }

  private defconst(): DefConst {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the constant's name after defconst")]!;
    const nameSpan = this.t.span(this.i - 1);
    const type = this.optionalType();
    const value = this.expr();
    const doc = this.optionalDoc();
    const close = this.close(open, `defconst ${name}`);
    return {
      kind: "defconst",
      name,
      nameSpan,
      type,
      value,
      doc,
      span: this.spanFrom(open, close),
    };
  }

  private defschema(): DefSchema {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the schema's name after defschema")]!;
    const nameSpan = this.t.span(this.i - 1);
    const annotations = this.annotations();
    const fields: SchemaField[] = [];
    while (this.kind() === Tk.Ident) {
      const field = this.i++;
      const type = this.optionalType() ?? ANY_TYPE;
      fields.push({ name: this.values[field]!, type, span: this.t.span(field) });
    }
    if (this.kind() !== Tk.RParen) this.unexpected(this.i, "a field name or ')'");
    const close = this.close(open, `defschema ${name}`);
    return {
      kind: "defschema",
      name,
      nameSpan,
      annotations,
      fields,
      span: this.spanFrom(open, close),
    };
  }

  private deftable(): DefTable {
    const open = this.open();
    this.i++;
    const name = this.values[this.expectIdent("the table's name after deftable")]!;
    const nameSpan = this.t.span(this.i - 1);
    const example = `as in (deftable ${name}:{schema})`;
    this.expect(Tk.Colon, `':' and the table's schema, ${example}`);
    if (this.kind() !== Tk.LBrace) this.unexpected(this.i, `'{' and the schema name, ${example}`);
    const brace = this.open();
    const schema = this.parsedName("the table's schema name");
    this.close(brace, "the table's schema");
    const doc = this.optionalDoc();
    const close = this.close(open, `deftable ${name}`);
    return {
      kind: "deftable",
      name,
      nameSpan,
      schema,
      doc,
      span: this.spanFrom(open, close),
    };
  }

  // -------------------------------------------------------------------------------------------
  // Modules, interfaces, imports

  private module(): Module {
    const open = this.open();
    this.i++;
    const nameAt = this.expectIdent("the module's name");
    const name = this.values[nameAt]!;
    const what = `module ${name}`;
    const gov = this.kind();
    let governance: Governance;
    if (gov === Tk.String || gov === Tk.Symbol) {
      governance = { kind: "keyset", keyset: this.values[this.i]! };
    } else if (gov === Tk.Ident) {
      governance = { kind: "capability", name: this.values[this.i]! };
    } else {
      this.unexpected(
        this.i,
        `the governance of ${what}: a keyset name like "ns.admin" or a capability name`,
      );
    }
    this.i++;
    const annotations = this.annotations();
    const extensions: ModuleExtension[] = [];
    const defs: Def[] = [];
    while (!this.atClose(open, what)) {
      if (this.kind() !== Tk.LParen) {
        this.unexpected(this.i, `a definition such as (defun …) or ')' to close ${what}`);
      }
      switch (this.kind(1)) {
        case Tk.Defun:
          defs.push(this.defun());
          break;
        case Tk.DefCap:
          defs.push(this.defcap());
          break;
        case Tk.DefConst:
          defs.push(this.defconst());
          break;
        case Tk.DefSchema:
          defs.push(this.defschema());
          break;
        case Tk.DefTable:
          defs.push(this.deftable());
          break;
        case Tk.DefPact:
          defs.push(this.defpact());
          break;
        case Tk.Use:
          extensions.push(this.use());
          break;
        case Tk.Implements:
          extensions.push(this.implements());
          break;
        case Tk.Bless:
          extensions.push(this.bless());
          break;
        default: {
          const kind = this.kind(1);
          const nested =
            kind === Tk.Module || kind === Tk.Interface
              ? " (modules and interfaces cannot nest)"
              : "";
          this.fail(
            this.t.span(this.i + 1),
            "expected defun, defcap, defconst, defschema, deftable, defpact, use, implements or " +
              `bless inside ${what}, found ${this.describe(this.i + 1)}${nested}`,
          );
        }
      }
    }
    if (defs.length === 0) {
      this.fail(
        extensions[0]?.span ?? this.t.span(this.i),
        `${what} has no definitions; a module needs at least one defun, defcap, defconst, ` +
          "defschema, deftable or defpact",
      );
    }
    const close = this.close(open, what);
    return {
      kind: "module",
      name,
      nameSpan: this.t.span(nameAt),
      governance,
      annotations,
      extensions,
      defs,
      span: this.spanFrom(open, close),
    };
  }

  private interface(): Interface {
    const open = this.open();
    this.i++;
    const nameAt = this.expectIdent("the interface's name");
    const name = this.values[nameAt]!;
    const what = `interface ${name}`;
    const annotations = this.annotations();
    const imports: Use[] = [];
    const defs: InterfaceDef[] = [];
    if (this.kind() === Tk.RParen) {
      this.fail(this.t.span(this.i), `${what} is empty; it needs at least one definition or use`);
    }
    while (!this.atClose(open, what)) {
      if (this.kind() !== Tk.LParen) {
        this.unexpected(this.i, `a definition such as (defun …) or ')' to close ${what}`);
      }
      switch (this.kind(1)) {
        case Tk.Defun:
          defs.push(this.defun(true));
          break;
        case Tk.DefCap:
          defs.push(this.defcap(true));
          break;
        case Tk.DefPact:
          defs.push(this.defpact(true));
          break;
        case Tk.DefConst:
          defs.push(this.defconst());
          break;
        case Tk.DefSchema:
          defs.push(this.defschema());
          break;
        case Tk.Use:
          imports.push(this.use());
          break;
        default: {
          const kind = this.kind(1);
          const why =
            kind === Tk.DefTable || kind === Tk.Implements || kind === Tk.Bless
              ? ` (an interface cannot contain ${TOKEN_KINDS[kind]})`
              : "";
          this.fail(
            this.t.span(this.i + 1),
            `expected defun, defcap, defconst, defschema, defpact or use inside ${what}, ` +
              `found ${this.describe(this.i + 1)}${why}`,
          );
        }
      }
    }
    const close = this.close(open, what);
    return {
      kind: "interface",
      name,
      nameSpan: this.t.span(nameAt),
      annotations,
      imports,
      defs,
      span: this.spanFrom(open, close),
    };
  }

  /** `(use ns.m ["hash"] [[f g]])` */
  private use(): Use {
    const open = this.open();
    this.i++;
    const module = this.moduleName("the module name after use");
    const hash = this.kind() === Tk.String ? this.values[this.i++]! : null;
    let imports: string[] | null = null;
    if (this.kind() === Tk.LBracket) {
      const listOpen = this.open();
      imports = [];
      while (this.kind() === Tk.Ident) imports.push(this.values[this.i++]!);
      if (this.kind() !== Tk.RBracket) this.unexpected(this.i, "a name to import or ']'");
      this.close(listOpen);
    }
    const close = this.close(open, "the use form");
    return { kind: "use", module, hash, imports, span: this.spanFrom(open, close) };
  }

  private implements(): Implements {
    const open = this.open();
    this.i++;
    const iface = this.moduleName("the interface name after implements");
    const close = this.close(open, "the implements form");
    return { kind: "implements", interface: iface, span: this.spanFrom(open, close) };
  }

  private bless(): Bless {
    const open = this.open();
    this.i++;
    const kind = this.kind();
    if (kind !== Tk.String && kind !== Tk.Symbol) {
      this.unexpected(this.i, "the module hash to bless, as a string");
    }
    const hash = this.values[this.i++]!;
    const close = this.close(open, "the bless form");
    return { kind: "bless", hash, span: this.spanFrom(open, close) };
  }
}

const DELIMS: Partial<Record<number, "{" | "}" | ":" | ",">> = {
  [Tk.LBrace]: "{",
  [Tk.RBrace]: "}",
  [Tk.Colon]: ":",
  [Tk.Comma]: ",",
};

/**
 * Pact's `toAppExprList`: a binding form among an application's arguments takes every argument
 * after it as its body. `parts` holds the arguments in order, binding forms as field arrays.
 */
function nestBindings(parts: (Expr | BindingField[])[], span: Span): Expr[] {
  let reversed: Expr[] = [];
  for (let k = parts.length - 1; k >= 0; k--) {
    const part = parts[k]!;
    if (Array.isArray(part)) {
      reversed = [{ kind: "binding", fields: part, body: reversed.reverse(), span }];
    } else {
      reversed.push(part as Expr);
    }
  }
  return reversed.reverse();
}

function closerOf(kind: number): number {
  return kind === Tk.LParen ? Tk.RParen : kind === Tk.LBracket ? Tk.RBracket : Tk.RBrace;
}

function docstringHint(annotations: readonly Annotation[]): string {
  const only = annotations.length === 1 ? annotations[0]! : null;
  return only?.kind === "doc" && only.style === "string"
    ? " (a string right after the parameters is the docstring, not the body)"
    : "";
}

/** `3:5`, 1-based. */
function position(span: Span): string {
  return `${span.line + 1}:${span.col + 1}`;
}
