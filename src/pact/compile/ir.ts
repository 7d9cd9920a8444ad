/**
 * The intermediate representation the compiler produces and the evaluator runs: the parse tree
 * with every name resolved once — locals to frame slots, module members to their definition
 * objects, natives to their `NativeDef` — and special forms turned into their own nodes.
 *
 * Frames: every function body (defun, defcap, defpact, lambda, top-level expression) runs in its
 * own frame, an array whose slot 0 holds the enclosing frame (for lambdas) and whose next slots hold
 * the parameters, then every `let` binding of the body. A local is addressed by `depth` (how many
 * enclosing frames up) and `index`.
 *
 * Module members after compilation (definitions), and the modules and interfaces that hold them,
 * are part of the same structure: IR nodes point at these objects directly, so a call never looks
 * a name up at run time. A module that uses another module's member keeps the definition it was
 * compiled against, as Pact does (a module's dependencies are fixed when it is defined; later
 * upgrades of the dependency do not change it).
 *
 * The IR is plain data: it knows nothing of the evaluator. The slots where the evaluator keeps its
 * executable form of a body (`code`, `stepCode`) are opaque here ({@link CodeSlot}); their real
 * type is `Code` in src/pact/eval/types.ts.
 */
import type { Callable, NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import type { ModuleName, PactType, PactValue, Schema, TableRef } from "../values/types.ts";
import { qualifiedName, renderModuleName } from "./names.ts";

export type Node =
  | ConstNode
  | LocalNode
  | DefRefNode
  | NativeRefNode
  | DynamicRefNode
  | NativeCallNode
  | DefunCallNode
  | ApplyNode
  | LambdaNode
  | LetNode
  | SeqNode
  | ListNode
  | ObjectNode
  | IfNode
  | LogicNode
  | EnforceNode
  | EnforceOneNode
  | TryNode
  | ErrorNode
  | PureNode
  | WithCapabilityNode
  | CreateUserGuardNode
  | CoverNode;

export interface ConstNode {
  readonly op: "const";
  readonly value: RuntimeValue;
  readonly span: Span;
}

export interface LocalNode {
  readonly op: "local";
  readonly depth: number;
  readonly index: number;
  readonly name: string;
  readonly span: Span;
}

/** A module member (or REPL top-level definition) in value position. */
export interface DefRefNode {
  readonly op: "def";
  readonly def: TermDefinition;
  readonly span: Span;
}

/** A native in value position: the native itself as a function value. */
export interface NativeRefNode {
  readonly op: "native";
  readonly native: NativeDef;
  readonly span: Span;
}

/** `ref::member`, where `ref` is a local holding a module reference. */
export interface DynamicRefNode {
  readonly op: "dynamic";
  readonly depth: number;
  readonly index: number;
  readonly ref: string;
  readonly member: string;
  readonly span: Span;
}

/** A call of a native known at compile time. */
export interface NativeCallNode {
  readonly op: "call-native";
  readonly native: NativeDef;
  readonly args: readonly Node[];
  readonly span: Span;
}

/** A call of a `defun` known at compile time with exactly its number of arguments. */
export interface DefunCallNode {
  readonly op: "call-defun";
  readonly def: DefunDef;
  readonly args: readonly Node[];
  readonly span: Span;
}

/** Any other application: the function is computed at run time. */
export interface ApplyNode {
  readonly op: "apply";
  readonly fn: Node;
  readonly args: readonly Node[];
  readonly span: Span;
}

/** A parameter of a function, lambda, capability or defpact. */
export interface Param {
  readonly name: string;
  readonly type: PactType | null;
  readonly span: Span;
}

/** The compiled shape of a lambda (also used for nullary suspensions like `expect`'s arguments). */
export interface LambdaInfo {
  readonly params: readonly Param[];
  readonly frameSize: number;
  readonly body: Node;
  /** Set once by the evaluator. */
  code: CodeSlot | undefined;
}

export interface LambdaNode {
  readonly op: "lambda";
  readonly lambda: LambdaInfo;
  readonly span: Span;
}

/** One `let` binding: evaluates `value` into slot `index` of the current frame, then `body`. */
export interface LetNode {
  readonly op: "let";
  readonly index: number;
  readonly type: PactType | null;
  readonly value: Node;
  readonly body: Node;
  readonly span: Span;
}

/** Evaluates every item in order; the value is the last one's. */
export interface SeqNode {
  readonly op: "seq";
  readonly items: readonly Node[];
  readonly span: Span;
}

export interface ListNode {
  readonly op: "list";
  readonly items: readonly Node[];
  readonly span: Span;
}

/** `{k: v}`; a repeated key keeps its last value. */
export interface ObjectNode {
  readonly op: "object";
  readonly keys: readonly string[];
  readonly values: readonly Node[];
  readonly span: Span;
}

export interface IfNode {
  readonly op: "if";
  readonly cond: Node;
  readonly whenTrue: Node;
  readonly whenFalse: Node;
  readonly span: Span;
}

/** Short-circuit `and` / `or` on booleans. */
export interface LogicNode {
  readonly op: "and" | "or";
  readonly left: Node;
  readonly right: Node;
  readonly span: Span;
}

export interface EnforceNode {
  readonly op: "enforce";
  readonly cond: Node;
  readonly message: Node;
  readonly span: Span;
}

/** `(enforce-one msg [c…])`; `conds` is null when the second argument is not a list literal. */
export interface EnforceOneNode {
  readonly op: "enforce-one";
  readonly message: Node;
  readonly conds: readonly Node[] | null;
  readonly span: Span;
}

/** `(try fallback body)`: a recoverable error in `body` gives `fallback`. */
export interface TryNode {
  readonly op: "try";
  readonly fallback: Node;
  readonly body: Node;
  readonly span: Span;
}

export interface ErrorNode {
  readonly op: "error";
  readonly message: Node;
  readonly span: Span;
}

/** `(pure e)`: evaluates `e` without database writes. */
export interface PureNode {
  readonly op: "pure";
  readonly body: Node;
  readonly span: Span;
}

export interface WithCapabilityNode {
  readonly op: "with-capability";
  readonly cap: Node;
  readonly body: Node;
  readonly span: Span;
}

/**
 * `(create-user-guard (f a…))`; `target` is null when the argument is not a call of a module
 * member (an error at run time, as in Pact).
 */
export interface CreateUserGuardNode {
  readonly op: "create-user-guard";
  readonly target: TermDefinition | null;
  readonly args: readonly Node[];
  readonly span: Span;
}

/**
 * Counts a coverage hit for `line` of `file` (and, at a function body's start, for the function
 * `fn`) before evaluating `body`. Only emitted with coverage on.
 */
export interface CoverNode {
  readonly op: "cover";
  readonly file: string;
  readonly line: number;
  readonly fn: string | null;
  readonly body: Node;
  readonly span: Span;
}

// ---------------------------------------------------------------------------------------------
// Definitions, modules and interfaces

declare const evaluatorCode: unique symbol;

/**
 * Where the evaluator keeps its executable form of a body: opaque to the compiler, which never
 * sets or reads it. The evaluator owns the type (`Code` in src/pact/eval/types.ts) and converts.
 */
export interface CodeSlot {
  readonly [evaluatorCode]: true;
}

/** Tags that let the evaluator dispatch on a function value with one switch. */
export enum FnTag {
  Defun = 1,
  DefCap = 2,
  DefPact = 3,
  Lambda = 4,
  Native = 5,
  Partial = 6,
  /** A defun or defpact reached through a module reference (src/pact/eval/callables.ts). */
  ModRefFunction = 7,
}

/** The identity of a module or interface shared by all its members. */
export interface ModuleInfo {
  readonly name: ModuleName;
  /**
   * The module hash (base64url), Pact's: set once the module's constants are evaluated (see
   * ./module-hash; it covers the hashes of the modules it uses); `#repl` for REPL top-level
   * definitions.
   */
  hash: string;
  /** `ns.m` or `m`. */
  readonly rendered: string;
  /** The hash of the transaction that installed the module (`describe-module`'s `tx_hash`). */
  txHash?: string;
}

export function moduleInfo(name: ModuleName, hash: string): ModuleInfo {
  return { name, hash, rendered: renderModuleName(name) };
}

/** Where a definition's source is: its file, the whole form, and the name. */
export interface DefSource {
  readonly file: string;
  readonly span: Span;
  readonly nameSpan: Span;
  readonly doc: string | null;
}

abstract class MemberBase {
  readonly qualifiedName: string;
  constructor(
    readonly module: ModuleInfo,
    readonly name: string,
    readonly source: DefSource,
  ) {
    this.qualifiedName = qualifiedName(module.name, name);
  }
  /** Pact's fully qualified name with the module hash, `m.f.{hash}`, used in stack traces. */
  get fullyQualifiedName(): string {
    return `${this.qualifiedName}.{${this.module.hash}}`;
  }
}

/** Fields shared by the callable definitions (defun, defcap, defpact). */
abstract class FunctionBase extends MemberBase implements Callable {
  readonly kind = "callable";
  abstract readonly tag: FnTag;
  readonly arity: number;
  /** Set while the function runs: Pact rejects a function that calls itself (even indirectly). */
  active = false;
  /**
   * The evaluator's compiled checks of the parameters (null for an untyped one) and of the return
   * value; set on first call.
   */
  argChecks: readonly (((v: RuntimeValue) => boolean) | null)[] | undefined = undefined;
  returnCheck: ((v: RuntimeValue) => boolean) | null | undefined = undefined;
  constructor(
    module: ModuleInfo,
    name: string,
    source: DefSource,
    readonly params: readonly Param[],
    readonly returnType: PactType | null,
    /** Slots in the body's frame: 1 + parameters + `let` bindings. */
    public frameSize: number,
  ) {
    super(module, name, source);
    this.arity = params.length;
  }
}

export class DefunDef extends FunctionBase {
  readonly defKind = "defun";
  readonly tag = FnTag.Defun;
  /** Filled in by the compiler once the body is compiled (members may refer to each other). */
  body: Node | undefined = undefined;
  /** Set once by the evaluator. */
  code: CodeSlot | undefined = undefined;
}

/**
 * A capability's metadata: `@event`, `@managed` (automatic), or `@managed param manager` with the
 * parameter's index. `Manager` is how the manager function is known: its definition in a module,
 * its name in an interface's signature ({@link SignatureCapMeta}).
 */
export type CapMeta<Manager = DefunDef> =
  | { readonly kind: "event" }
  | { readonly kind: "managed"; readonly manager: null }
  | {
      readonly kind: "managed";
      readonly manager: {
        readonly paramIndex: number;
        readonly param: string;
        readonly fn: Manager;
      };
    };

export class DefCapDef extends FunctionBase {
  readonly defKind = "defcap";
  readonly tag = FnTag.DefCap;
  body: Node | undefined = undefined;
  code: CodeSlot | undefined = undefined;
  meta: CapMeta | null = null;
}

export interface PactStepCode {
  readonly expr: Node;
  readonly rollback: Node | null;
  readonly span: Span;
}

export class DefPactDef extends FunctionBase {
  readonly defKind = "defpact";
  readonly tag = FnTag.DefPact;
  steps: readonly PactStepCode[] = [];
  /** The evaluator's code of each step and rollback, generated on first use. */
  readonly stepCode = new Map<string, CodeSlot>();
}

export class DefConstDef extends MemberBase {
  readonly defKind = "defconst";
  constructor(
    module: ModuleInfo,
    name: string,
    source: DefSource,
    readonly type: PactType | null,
    /** The constant's expression, evaluated once when the module is defined. */
    public init: LambdaInfo | undefined,
  ) {
    super(module, name, source);
  }
  /** The evaluated value; undefined until the module's constants are evaluated. */
  value: PactValue | undefined = undefined;
}

export class DefSchemaDef extends MemberBase {
  readonly defKind = "defschema";
  constructor(
    module: ModuleInfo,
    name: string,
    source: DefSource,
    readonly schema: Schema,
  ) {
    super(module, name, source);
  }
}

export class DefTableDef extends MemberBase {
  readonly defKind = "deftable";
  private value: TableRef | undefined = undefined;
  constructor(
    module: ModuleInfo,
    name: string,
    source: DefSource,
    readonly schema: Schema,
  ) {
    super(module, name, source);
  }
  /**
   * The table value: the defining module's hash and the schema. Made again when the hash changes
   * (a module's hash is known only after its constants are evaluated, which may use the table).
   */
  get table(): TableRef {
    if (this.value === undefined || this.value.moduleHash !== this.module.hash) {
      this.value = {
        kind: "table",
        module: this.module.name,
        name: this.name,
        moduleHash: this.module.hash,
        schema: this.schema,
      };
    }
    return this.value;
  }
}

/** A capability signature's metadata: the manager is named, as it lives in the implementing module. */
export type SignatureCapMeta = CapMeta<string>;

/** A function, capability or defpact signature inside an interface. */
export class SignatureDef extends MemberBase {
  constructor(
    module: ModuleInfo,
    name: string,
    source: DefSource,
    readonly defKind: "defun" | "defcap" | "defpact",
    readonly params: readonly Param[],
    readonly returnType: PactType | null,
    readonly meta: SignatureCapMeta | null,
  ) {
    super(module, name, source);
  }
}

/** Definitions that may appear in term position. */
export type TermDefinition = DefunDef | DefCapDef | DefPactDef | DefConstDef | DefTableDef;

export type ModuleDefinition = TermDefinition | DefSchemaDef;
export type InterfaceDefinition = SignatureDef | DefConstDef | DefSchemaDef;
export type Definition = ModuleDefinition | InterfaceDefinition;

export type Governance =
  | { readonly kind: "keyset"; readonly keyset: string }
  | { readonly kind: "capability"; readonly cap: DefCapDef };

/** The `use` forms of a module or interface, as written. */
export interface Import {
  readonly module: ModuleName;
  readonly hash: string | null;
  readonly names: readonly string[] | null;
}

export interface ModuleData {
  readonly kind: "module";
  readonly info: ModuleInfo;
  readonly governance: Governance;
  /** Members in dependency order (a member comes after everything it uses). */
  readonly defs: ReadonlyMap<string, ModuleDefinition>;
  readonly blessed: ReadonlySet<string>;
  readonly imports: readonly Import[];
  readonly implements: readonly ModuleName[];
  /** The module's source text (what `describe-module` shows and the hash covers). */
  readonly code: string;
  readonly source: DefSource;
  /** Top-level names (from `use` or the REPL) the code refers to, kept to reload it from storage. */
  readonly toplevelNames: ReadonlyMap<string, Definition>;
}

export interface InterfaceData {
  readonly kind: "interface";
  readonly info: ModuleInfo;
  readonly defs: ReadonlyMap<string, InterfaceDefinition>;
  readonly imports: readonly Import[];
  readonly code: string;
  readonly source: DefSource;
  readonly toplevelNames: ReadonlyMap<string, Definition>;
}

export type LoadedModule = ModuleData | InterfaceData;
