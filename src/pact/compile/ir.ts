/**
 * The intermediate representation the compiler produces and the evaluator runs: the parse tree
 * with every name resolved once — locals to frame slots, module members to their definition
 * objects, natives to their `NativeDef` — and special forms turned into their own nodes.
 *
 * Frames: every function body (defun, defcap, defpact, lambda, top-level expression) runs in its
 * own frame, an array whose slot 0 holds the enclosing frame (for lambdas) and whose next slots hold
 * the parameters, then every `let` binding of the body. A local is addressed by `depth` (how many
 * enclosing frames up) and `index`.
 */
import type { NativeDef, RuntimeValue } from "../runtime/types.ts";
import type { Span } from "../syntax/span.ts";
import type { PactType } from "../values/types.ts";
import type { Code, DefunDef, TermDefinition } from "./definitions.ts";

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
  code: Code | undefined;
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
