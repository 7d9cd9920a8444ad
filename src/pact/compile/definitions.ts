/**
 * Module members after compilation, and the modules and interfaces that hold them. IR nodes point
 * at these objects directly, so a call never looks a name up at run time. A module that uses
 * another module's member keeps the definition it was compiled against, as Pact does (a module's
 * dependencies are fixed when it is defined; later upgrades of the dependency do not change it).
 */
import type { Runtime } from "../eval/runtime.ts";
import type { Callable, RuntimeValue } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import type { ModuleName, PactType, PactValue, Schema, TableRef } from "../values/types.ts";
import type { LambdaInfo, Node, Param } from "./ir.ts";
import { qualifiedName, renderModuleName } from "./names.ts";

/** A frame: slot 0 is the enclosing frame (or null), then parameters, then `let` slots. */
export type Frame = unknown[];

/** The evaluator's executable form of an IR body (see src/pact/eval/codegen.ts). */
export type Code = (rt: Runtime, frame: Frame) => RuntimeValue;

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
  code: Code | undefined = undefined;
}

/** `@event`, `@managed` (automatic), or `@managed param manager` with the parameter's index. */
export type CapMeta =
  | { readonly kind: "event" }
  | { readonly kind: "managed"; readonly manager: null }
  | {
      readonly kind: "managed";
      readonly manager: {
        readonly paramIndex: number;
        readonly param: string;
        readonly fn: DefunDef;
      };
    };

export class DefCapDef extends FunctionBase {
  readonly defKind = "defcap";
  readonly tag = FnTag.DefCap;
  body: Node | undefined = undefined;
  code: Code | undefined = undefined;
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
  readonly stepCode = new Map<string, Code>();
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
export type SignatureCapMeta =
  | { readonly kind: "event" }
  | { readonly kind: "managed"; readonly manager: null }
  | {
      readonly kind: "managed";
      readonly manager: {
        readonly paramIndex: number;
        readonly param: string;
        readonly fn: string;
      };
    };

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
