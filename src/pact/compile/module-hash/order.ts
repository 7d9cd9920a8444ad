/**
 * The order in which Pact 5 lists a module's definitions, which its module hash covers: the
 * order of `Data.Graph.stronglyConnComp` (containers 0.7) over the definitions keyed by name, with
 * an edge to every sibling a definition mentions (`defSCC` in Pact's renamer). That order is
 * "dependencies first", but which of the valid orders depends on the algorithm's details, so
 * this is a faithful reimplementation rather than any topological sort.
 */
import type { ModuleName, PactType, ParsedName } from "../../syntax/ast.ts";
import type { DArg, DTerm } from "./desugar.ts";
import { compareText } from "./text-order.ts";

const NONE: ReadonlySet<string> = new Set();

/**
 * Collects the sibling definitions a definition mentions (Pact's `termSCC`, `typeSCC`, …). A name
 * bound by an enclosing lambda or `let` is not a sibling there.
 */
export class SiblingRefs {
  readonly refs = new Set<string>();
  constructor(
    private readonly siblings: ReadonlySet<string>,
    /** The module's name with its namespace: `m.f` counts only when `m` is written that way. */
    private readonly module: ModuleName,
  ) {}

  term(t: DTerm, bound: ReadonlySet<string> = NONE): void {
    switch (t.t) {
      case "var":
        this.name(t.name, bound);
        return;
      case "lam":
        for (const a of t.args) this.arg(a, bound);
        this.term(t.body, withNames(bound, t.args));
        return;
      case "let":
        this.arg(t.arg, bound);
        this.term(t.value, bound);
        this.term(t.body, withNames(bound, [t.arg]));
        return;
      case "app":
        this.term(t.fn, bound);
        for (const a of t.args) this.term(a, bound);
        return;
      case "seq":
        this.term(t.first, bound);
        this.term(t.rest, bound);
        return;
      case "nullary":
        this.term(t.body, bound);
        return;
      case "form":
        for (const a of t.args) this.term(a, bound);
        return;
      case "list":
        for (const a of t.items) this.term(a, bound);
        return;
      case "object":
        for (const [, v] of t.fields) this.term(v, bound);
        return;
      case "builtin":
      case "const":
        return;
    }
  }

  arg(a: DArg, bound: ReadonlySet<string> = NONE): void {
    if (a.type !== null) this.type(a.type, bound);
  }

  type(t: PactType, bound: ReadonlySet<string> = NONE): void {
    if (t.kind === "list") this.type(t.elem, bound);
    else if (t.kind === "object" || t.kind === "table") this.name(t.schema, bound);
  }

  name(n: ParsedName, bound: ReadonlySet<string> = NONE): void {
    if (n.kind === "dynamic" || !this.siblings.has(n.name) || bound.has(n.name)) return;
    if (n.kind === "bare") {
      this.refs.add(n.name);
      return;
    }
    const m = n.module;
    if (m.name === this.module.name && m.namespace === this.module.namespace) {
      this.refs.add(n.name);
    }
  }
}

function withNames(bound: ReadonlySet<string>, args: readonly DArg[]): ReadonlySet<string> {
  const next = new Set(bound);
  for (const a of args) next.add(a.name);
  return next;
}

/** One definition for ordering: its name and the siblings it mentions. */
export interface GraphNode {
  readonly key: string;
  readonly refs: ReadonlySet<string>;
}

/**
 * The positions of `nodes` in `stronglyConnComp` order. Vertices are numbered by key order, each
 * vertex's edges follow key order, the transposed graph lists predecessors in descending order
 * (`accumArray (flip (:))`), and the components come from a depth-first search of the graph from
 * the vertices in reverse post-order of a search of the transposed graph.
 * Throws if the graph has a cycle (the compiler has already rejected recursion).
 */
export function definitionOrder(nodes: readonly GraphNode[]): number[] {
  const n = nodes.length;
  const sorted = nodes.map((_, i) => i).sort((a, b) => compareText(nodes[a]!.key, nodes[b]!.key));
  const vertexOf = new Map(sorted.map((node, v) => [nodes[node]!.key, v]));
  const graph: number[][] = sorted.map((node) =>
    [...nodes[node]!.refs]
      .sort(compareText)
      .map((k) => vertexOf.get(k))
      .filter((v): v is number => v !== undefined),
  );
  const transposed: number[][] = graph.map(() => []);
  // `accumArray (flip (:))` prepends: each vertex lists its predecessors in descending order.
  for (let v = n - 1; v >= 0; v--) for (const w of graph[v]!) transposed[w]!.push(v);

  // Post-order (finishing order) of a depth-first search of the transposed graph.
  const finished: number[] = [];
  const seen = new Uint8Array(n);
  const finish = (v: number): void => {
    seen[v] = 1;
    for (const w of transposed[v]!) if (seen[w] === 0) finish(w);
    finished.push(v);
  };
  for (let v = 0; v < n; v++) if (seen[v] === 0) finish(v);

  const order: number[] = [];
  const taken = new Uint8Array(n);
  const component: number[] = [];
  const collect = (v: number): void => {
    taken[v] = 1;
    component.push(v);
    for (const w of graph[v]!) if (taken[w] === 0) collect(w);
  };
  for (let i = n - 1; i >= 0; i--) {
    const root = finished[i]!;
    if (taken[root] === 1) continue;
    component.length = 0;
    collect(root);
    if (component.length > 1 || graph[root]!.includes(root)) {
      throw new Error(`module hash: recursive definitions ${nodes[sorted[root]!]!.key}`);
    }
    order.push(sorted[root]!);
  }
  return order;
}
