import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DTerm } from "./desugar.ts";
import { definitionOrder, type GraphNode, SiblingRefs } from "./order.ts";

const span = { start: 0, end: 0, line: 0, col: 0, endLine: 0, endCol: 0 };
const v = (name: string): DTerm => ({ t: "var", name: { kind: "bare", name }, span });
const node = (key: string, ...refs: string[]) => ({ key, refs: new Set(refs) });
const keys = (nodes: GraphNode[]) => definitionOrder(nodes).map((i) => nodes[i]!.key);

describe("definitionOrder", () => {
  it("follows Data.Graph.stronglyConnComp, not source order", () => {
    // A schema, its table, a constant and two functions using the table and the constant.
    const nodes = [
      node("sysdata"),
      node("systbl", "sysdata"),
      node("KEY"),
      node("set-system-time", "systbl", "KEY"),
      node("get-system-time", "systbl", "KEY"),
    ];
    assert.deepEqual(keys(nodes), [
      "sysdata",
      "systbl",
      "KEY",
      "get-system-time",
      "set-system-time",
    ]);
  });

  it("lists independent definitions in reverse key order", () => {
    assert.deepEqual(keys([node("b"), node("c"), node("a")]), ["c", "b", "a"]);
  });

  it("ignores references to names that are not definitions", () => {
    assert.deepEqual(keys([node("f", "g", "coin"), node("g")]), ["g", "f"]);
  });

  it("rejects cycles", () => {
    assert.throws(() => definitionOrder([node("f", "g"), node("g", "f")]), /recursive/);
    assert.throws(() => definitionOrder([node("f", "f")]), /recursive definitions f/);
  });
});

describe("SiblingRefs", () => {
  const siblings = new Set(["f", "g", "s"]);
  const self = { namespace: "ns", name: "m" };

  it("collects siblings, except where a lambda or let binds the same name", () => {
    const r = new SiblingRefs(siblings, self);
    r.term({
      t: "app",
      fn: v("f"),
      args: [
        { t: "lam", args: [{ name: "g", type: null, span }], body: v("g"), span },
        { t: "let", arg: { name: "s", type: null, span }, value: v("s"), body: v("s"), span },
      ],
      span,
    });
    assert.deepEqual([...r.refs].sort(), ["f", "s"]);
  });

  it("counts a qualified name only when it names the module exactly (namespace included)", () => {
    const r = new SiblingRefs(siblings, self);
    r.name({ kind: "qualified", module: { namespace: null, name: "m" }, name: "f" });
    r.name({ kind: "qualified", module: { namespace: "ns", name: "m" }, name: "g" });
    assert.deepEqual([...r.refs], ["g"]);
  });

  it("collects schema names from types, and types of binders", () => {
    const r = new SiblingRefs(siblings, self);
    r.term({
      t: "lam",
      args: [
        {
          name: "x",
          type: { kind: "list", elem: { kind: "object", schema: { kind: "bare", name: "s" } } },
          span,
        },
      ],
      body: { t: "const", value: 1n, span },
      span,
    });
    assert.deepEqual([...r.refs], ["s"]);
  });
});
