/**
 * The Pact 5 parse tree (`Pact.Core.Syntax.ParseTree`): the surface syntax after parsing and
 * before name resolution and desugaring. Nothing here is resolved or checked beyond the grammar:
 * `(if a b c)`, `(with-capability …)`, `(bind o {…} …)` are ordinary applications, and names are
 * just text.
 *
 * Every node is a plain object tagged by `kind`. Every node with a `span` covers its whole source
 * text: from `(` to `)` for forms, from the first to the last token otherwise.
 *
 * Program shapes:
 * - `.pact` files and transaction code: `TopLevel[]` (`parseProgram`).
 * - `.repl` files: `ReplTopLevel[]` (`parseReplProgram`), which also allows `defun` and
 *   `defconst` at the top level.
 */
import type { Decimal } from "../values/decimal.ts";
import type { ModuleName, Unit } from "../values/types.ts";
import type { Span } from "./span.ts";

export type { ModuleName };

// ---------------------------------------------------------------------------------------------
// Names

/** `x` */
export interface BareName {
  readonly kind: "bare";
  readonly name: string;
}

/** `m.x` or `ns.m.x`: a member of a module, which may sit in a namespace. */
export interface QualifiedName {
  readonly kind: "qualified";
  readonly module: ModuleName;
  readonly name: string;
}

/** `ref::x`: member `x` of the module that the module reference `ref` (a variable) points to. */
export interface DynamicName {
  readonly kind: "dynamic";
  readonly ref: string;
  readonly name: string;
}

/** A name in expression position. */
export type ParsedName = BareName | QualifiedName | DynamicName;

/** A schema name inside `object{…}` / `table{…}` types: no `::` form. */
export type TypeName = BareName | QualifiedName;

// ---------------------------------------------------------------------------------------------
// Types

/** The primitive type names. (`keyset` is listed here; Pact keeps it as a separate constructor.) */
export type PrimTypeName =
  | "integer"
  | "decimal"
  | "bool"
  | "string"
  | "time"
  | "unit"
  | "guard"
  | "keyset";

/**
 * A type annotation, written after `:`.
 * - `prim`: `integer decimal bool string time unit guard keyset`
 * - `list`: `[t]`; `any-list`: bare `list`
 * - `object`: `object{schema}`; `any-object`: bare `object`; `table`: `table{schema}`
 * - `modref`: `module{iface, ns.iface2}`
 * - `any`: an untyped schema field (`(defschema s f)`); never written by the user.
 */
export type PactType =
  | { readonly kind: "prim"; readonly name: PrimTypeName }
  | { readonly kind: "list"; readonly elem: PactType }
  | { readonly kind: "any-list" }
  | { readonly kind: "object"; readonly schema: TypeName }
  | { readonly kind: "any-object" }
  | { readonly kind: "table"; readonly schema: TypeName }
  | { readonly kind: "modref"; readonly interfaces: readonly ModuleName[] }
  | { readonly kind: "any" };

/** A name with an optional type: function and lambda parameters, let binders, bind targets. */
export interface Arg {
  readonly name: string;
  readonly type: PactType | null;
  /** The span of the name alone. */
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Expressions

/** The literal values: strings, integers, decimals, booleans, and `()`. */
export type LiteralValue = string | bigint | Decimal | boolean | Unit;

/** A name: `x`, `m.x`, `ns.m.x`, `ref::x`. */
export interface VarExpr {
  readonly kind: "var";
  readonly name: ParsedName;
  readonly span: Span;
}

/** A literal: `"s"`, `'sym` (a string), `12`, `-1.50`, `true`, `()`. */
export interface ConstantExpr {
  readonly kind: "constant";
  readonly value: LiteralValue;
  readonly span: Span;
}

/** `(let ((x 1) (y:integer 2)) body…)`; `let*` sets `star` (the two mean the same in Pact 5). */
export interface LetExpr {
  readonly kind: "let";
  readonly star: boolean;
  /** At least one. */
  readonly bindings: readonly LetBinding[];
  /** At least one. */
  readonly body: readonly Expr[];
  readonly span: Span;
}

export interface LetBinding {
  readonly arg: Arg;
  readonly value: Expr;
}

/** `(lambda (x y:integer) body…)` */
export interface LambdaExpr {
  readonly kind: "lambda";
  readonly params: readonly Arg[];
  /** At least one. */
  readonly body: readonly Expr[];
  readonly span: Span;
}

/** `(f a b)`: any form that is not `let`, `let*` or `lambda`, special forms included. */
export interface AppExpr {
  readonly kind: "app";
  readonly fn: Expr;
  readonly args: readonly Expr[];
  readonly span: Span;
}

/** `[a b c]` or `[a, b, c]` */
export interface ListExpr {
  readonly kind: "list";
  readonly items: readonly Expr[];
  readonly span: Span;
}

/** `{ "k": v, 'k2: w }`: fields in source order, duplicates kept. */
export interface ObjectExpr {
  readonly kind: "object";
  readonly fields: readonly ObjectField[];
  readonly span: Span;
}

export interface ObjectField {
  readonly field: string;
  readonly value: Expr;
}

/**
 * A binding form `{ "f" := x, "g" := y:integer }` used as an application argument, as in
 * `(with-read table key { "balance" := b } body…)`. The arguments after it become its `body`,
 * so that application parses as `app(with-read, [table, key, binding(fields, [body…])])`.
 * The body may be empty (Pact rejects that later, when desugaring). The span is the span of the
 * enclosing application, as in Pact.
 */
export interface BindingExpr {
  readonly kind: "binding";
  readonly fields: readonly BindingField[];
  readonly body: readonly Expr[];
  readonly span: Span;
}

export interface BindingField {
  readonly field: string;
  readonly arg: Arg;
}

export type Expr =
  | VarExpr
  | ConstantExpr
  | LetExpr
  | LambdaExpr
  | AppExpr
  | ListExpr
  | ObjectExpr
  | BindingExpr;

// ---------------------------------------------------------------------------------------------
// Annotations

/** `"…"` (a bare docstring, `style: "string"`) or `@doc "…"` (`style: "annotation"`). */
export interface Doc {
  readonly text: string;
  readonly style: "string" | "annotation";
}

/**
 * The annotations a definition may carry after its name and parameters, in source order:
 * at most one doc and one model (`@doc "d" @model […]`, `@model […] @doc "d"`, or a docstring).
 */
export type Annotation =
  | ({ readonly kind: "doc" } & Doc)
  | { readonly kind: "model"; readonly props: readonly PropertyExpr[] };

/**
 * The contents of `@model [ … ]`, kept as loosely structured tokens (Pact 5 does not check
 * properties; it only parses them). `[ … ]` inside a model becomes a sequence whose first and
 * last items are the `[` and `]` delimiters; `( … )` a sequence without them.
 */
export type PropertyExpr =
  | { readonly kind: "atom"; readonly name: ParsedName; readonly span: Span }
  | { readonly kind: "keyword"; readonly keyword: "let" | "lambda"; readonly span: Span }
  | {
      readonly kind: "delim";
      readonly delim: "[" | "]" | "{" | "}" | "," | ":";
      readonly span: Span;
    }
  | { readonly kind: "sequence"; readonly items: readonly PropertyExpr[]; readonly span: Span }
  | { readonly kind: "constant"; readonly value: LiteralValue; readonly span: Span };

/**
 * `@event`, `@managed` (automatically managed: `manager` is null), or
 * `@managed param manager-fn` (managed through the parameter `param` and manager function).
 */
export type CapMeta =
  | { readonly kind: "event" }
  | {
      readonly kind: "managed";
      readonly manager: { readonly param: string; readonly fn: ParsedName } | null;
    };

// ---------------------------------------------------------------------------------------------
// Definitions

/** Fields shared by every definition: its name, where the name is, and the whole form's span. */
interface DefBase {
  readonly name: string;
  readonly nameSpan: Span;
  readonly span: Span;
}

/** `(defun name:rtype (params…) [annotations] body…)` */
export interface Defun extends DefBase {
  readonly kind: "defun";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
  /** At least one. */
  readonly body: readonly Expr[];
}

/** `(defconst NAME:type value [doc])` */
export interface DefConst extends DefBase {
  readonly kind: "defconst";
  readonly type: PactType | null;
  readonly value: Expr;
  readonly doc: Doc | null;
}

/** `(defcap NAME:rtype (params…) [annotations] [@event | @managed …] body…)` */
export interface DefCap extends DefBase {
  readonly kind: "defcap";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
  readonly meta: CapMeta | null;
  /** At least one. */
  readonly body: readonly Expr[];
}

/** `(defschema name [annotations] field:type …)` */
export interface DefSchema extends DefBase {
  readonly kind: "defschema";
  readonly annotations: readonly Annotation[];
  /** Fields without a type get `{ kind: "any" }`. */
  readonly fields: readonly SchemaField[];
}

export interface SchemaField {
  readonly name: string;
  readonly type: PactType;
  readonly span: Span;
}

/** `(deftable name:{schema} [doc])` */
export interface DefTable extends DefBase {
  readonly kind: "deftable";
  readonly schema: ParsedName;
  readonly doc: Doc | null;
}

/** `(defpact name:rtype (params…) [annotations] step…)` */
export interface DefPact extends DefBase {
  readonly kind: "defpact";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
  /** At least one. */
  readonly steps: readonly PactStep[];
}

/**
 * `(step [entity] expr [@model […]])` or
 * `(step-with-rollback [entity] expr rollback [@model […]])`. The optional leading entity is a
 * Pact 4 relic that Pact 5 parses and ignores.
 */
export type PactStep =
  | {
      readonly kind: "step";
      readonly entity: Expr | null;
      readonly expr: Expr;
      readonly model: readonly PropertyExpr[] | null;
      readonly span: Span;
    }
  | {
      readonly kind: "step-with-rollback";
      readonly entity: Expr | null;
      readonly expr: Expr;
      readonly rollback: Expr;
      readonly model: readonly PropertyExpr[] | null;
      readonly span: Span;
    };

/** A definition inside a module. */
export type Def = Defun | DefConst | DefCap | DefSchema | DefTable | DefPact;

// ---------------------------------------------------------------------------------------------
// Interfaces: signatures without bodies

/** `(defun name:rtype (params…) [annotations])` inside an interface. */
export interface InterfaceDefun extends DefBase {
  readonly kind: "defun";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
}

/** `(defcap NAME:rtype (params…) [annotations] [@event | @managed …])` inside an interface. */
export interface InterfaceDefCap extends DefBase {
  readonly kind: "defcap";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
  readonly meta: CapMeta | null;
}

/** `(defpact name:rtype (params…) [annotations])` inside an interface. */
export interface InterfaceDefPact extends DefBase {
  readonly kind: "defpact";
  readonly returnType: PactType | null;
  readonly params: readonly Arg[];
  readonly annotations: readonly Annotation[];
}

/** A definition inside an interface. Interfaces have no tables. */
export type InterfaceDef =
  | InterfaceDefun
  | DefConst
  | InterfaceDefCap
  | DefSchema
  | InterfaceDefPact;

// ---------------------------------------------------------------------------------------------
// Modules, interfaces, imports

/** `(use ns.m ["hash"] [[f g]])`: at the top level, in a module, or in an interface. */
export interface Use {
  readonly kind: "use";
  readonly module: ModuleName;
  /** The module hash the import is pinned to, as written (not yet checked). */
  readonly hash: string | null;
  /** `null` imports everything; `[]` (from `[]`) imports nothing. */
  readonly imports: readonly string[] | null;
  readonly span: Span;
}

/** `(implements ns.iface)` inside a module. */
export interface Implements {
  readonly kind: "implements";
  readonly interface: ModuleName;
  readonly span: Span;
}

/** `(bless "hash")` inside a module: a previous version's hash that stays usable. */
export interface Bless {
  readonly kind: "bless";
  readonly hash: string;
  readonly span: Span;
}

/** Module declarations other than definitions. */
export type ModuleExtension = Use | Implements | Bless;

/**
 * Who may upgrade the module: a keyset named by a string (`"ns.admin"` or `'admin`),
 * or a capability of the module named by an identifier (`GOVERNANCE`).
 */
export type Governance =
  | { readonly kind: "keyset"; readonly keyset: string }
  | { readonly kind: "capability"; readonly name: string };

/** `(module name governance [annotations] (def | use | implements | bless)…)` */
export interface Module {
  readonly kind: "module";
  readonly name: string;
  readonly nameSpan: Span;
  readonly governance: Governance;
  readonly annotations: readonly Annotation[];
  /** `use`, `implements` and `bless` forms, in source order. */
  readonly extensions: readonly ModuleExtension[];
  /** The definitions in source order; at least one. */
  readonly defs: readonly Def[];
  readonly span: Span;
}

/** `(interface name [annotations] (def | use)…)` */
export interface Interface {
  readonly kind: "interface";
  readonly name: string;
  readonly nameSpan: Span;
  readonly annotations: readonly Annotation[];
  readonly imports: readonly Use[];
  readonly defs: readonly InterfaceDef[];
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Programs

/** One top-level form of a `.pact` file or of transaction code. */
export type TopLevel = Module | Interface | Use | Expr;

/** One top-level form of a `.repl` file: also `defun` and `defconst`. */
export type ReplTopLevel = TopLevel | Defun | DefConst;
