/**
 * The dependency order of a module's definitions, and Pact's rejection of recursion: members that
 * refer to each other (directly or through others) form a cycle, which is an error at module
 * definition ("Recursive cycle detected in Module …").
 */
import type { NativeDef } from "../runtime/types.ts";
import type { Arg, Expr, ModuleName, PactType, ParsedName } from "../syntax/ast.ts";
import { sameModuleName } from "./names.ts";

/** What the analysis needs to know about one definition. */
export interface DefNode<T> {
  readonly name: string;
  readonly def: T;
  /** Names of sibling definitions this one refers to. */
  readonly refs: ReadonlySet<string>;
}

/**
 * Orders definitions so that each comes after those it refers to (Tarjan's algorithm; ties keep
 * source order). Returns the cycle, in source order, when there is one.
 */
export function dependencyOrder<T>(
  nodes: readonly DefNode<T>[],
): { readonly order: readonly DefNode<T>[] } | { readonly cycle: readonly DefNode<T>[] } {
  const byName = new Map(nodes.map((n, i) => [n.name, i]));
  const index: number[] = new Array(nodes.length).fill(-1);
  const low: number[] = new Array(nodes.length).fill(0);
  const onStack: boolean[] = new Array(nodes.length).fill(false);
  const stack: number[] = [];
  const order: DefNode<T>[] = [];
  let counter = 0;
  let cycle: DefNode<T>[] | null = null;

  const visit = (v: number): void => {
    index[v] = low[v] = counter++;
    stack.push(v);
    onStack[v] = true;
    for (const ref of nodes[v]!.refs) {
      const w = byName.get(ref);
      if (w === undefined) continue;
      if (index[w] === -1) {
        visit(w);
        if (cycle !== null) return;
        low[v] = Math.min(low[v]!, low[w]!);
      } else if (onStack[w]) {
        low[v] = Math.min(low[v]!, index[w]!);
      }
    }
    if (low[v] !== index[v]) return;
    const component: number[] = [];
    let w: number;
    do {
      w = stack.pop()!;
      onStack[w] = false;
      component.push(w);
    } while (w !== v);
    const selfLoop = nodes[v]!.refs.has(nodes[v]!.name);
    if (component.length > 1 || selfLoop) {
      cycle = component.sort((a, b) => a - b).map((i) => nodes[i]!);
      return;
    }
    order.push(nodes[v]!);
  };

  for (let v = 0; v < nodes.length && cycle === null; v++) {
    if (index[v] === -1) visit(v);
  }
  return cycle !== null ? { cycle } : { order };
}

/** Collects the sibling names an expression refers to (locals and natives shadow them). */
export class ReferenceCollector {
  readonly refs = new Set<string>();
  constructor(
    private readonly siblings: ReadonlySet<string>,
    private readonly module: ModuleName,
    private readonly natives: ReadonlyMap<string, NativeDef>,
  ) {}

  expr(e: Expr, bound: ReadonlySet<string>): void {
    switch (e.kind) {
      case "constant":
        return;
      case "var":
        this.name(e.name, bound);
        return;
      case "let": {
        let inner = bound;
        for (const b of e.bindings) {
          this.expr(b.value, inner);
          this.arg(b.arg);
          inner = withName(inner, b.arg.name);
        }
        for (const x of e.body) this.expr(x, inner);
        return;
      }
      case "lambda": {
        let inner = bound;
        for (const p of e.params) {
          this.arg(p);
          inner = withName(inner, p.name);
        }
        for (const x of e.body) this.expr(x, inner);
        return;
      }
      case "app":
        this.expr(e.fn, bound);
        for (const x of e.args) this.expr(x, bound);
        return;
      case "list":
        for (const x of e.items) this.expr(x, bound);
        return;
      case "object":
        for (const f of e.fields) this.expr(f.value, bound);
        return;
      case "binding": {
        let inner = bound;
        for (const f of e.fields) {
          this.arg(f.arg);
          inner = withName(inner, f.arg.name);
        }
        for (const x of e.body) this.expr(x, inner);
        return;
      }
    }
  }

  arg(a: Arg): void {
    if (a.type !== null) this.type(a.type);
  }

  type(t: PactType): void {
    switch (t.kind) {
      case "list":
        this.type(t.elem);
        return;
      case "object":
      case "table":
        this.name(t.schema, new Set());
        return;
      default:
        return;
    }
  }

  name(n: ParsedName, bound: ReadonlySet<string>): void {
    if (n.kind === "bare") {
      if (!bound.has(n.name) && !this.natives.has(n.name) && this.siblings.has(n.name)) {
        this.refs.add(n.name);
      }
    } else if (n.kind === "qualified") {
      const m = n.module;
      const self =
        sameModuleName(m, this.module) || (m.namespace === null && m.name === this.module.name);
      if (self && this.siblings.has(n.name)) this.refs.add(n.name);
    }
  }
}

function withName(set: ReadonlySet<string>, name: string): ReadonlySet<string> {
  if (set.has(name)) return set;
  const next = new Set(set);
  next.add(name);
  return next;
}
