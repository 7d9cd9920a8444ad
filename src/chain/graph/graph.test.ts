import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  adjacentChains,
  ChainGraphError,
  chainGraphProblems,
  diameter,
  distance,
  hasChain,
  makeChainGraph,
  shortestPath,
} from "./graph.ts";
import { PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH } from "./known-graphs.ts";

describe("known chain graphs", () => {
  it("has the Petersen graph's shape", () => {
    assert.deepEqual(PETERSEN_GRAPH.chainIds, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(PETERSEN_GRAPH.degree, 3);
    assert.equal(diameter(PETERSEN_GRAPH), 2);
    assert.deepEqual(adjacentChains(PETERSEN_GRAPH, 7), [2, 6, 8]);
  });
  it("has the twenty-chain graph's shape", () => {
    assert.equal(TWENTY_CHAIN_GRAPH.chainIds.length, 20);
    assert.equal(TWENTY_CHAIN_GRAPH.degree, 3);
    assert.equal(diameter(TWENTY_CHAIN_GRAPH), 3);
    assert.deepEqual(adjacentChains(TWENTY_CHAIN_GRAPH, 10), [0, 11, 19]);
    assert.deepEqual(adjacentChains(TWENTY_CHAIN_GRAPH, 8), [3, 5, 6]);
  });
  it("answers membership and rejects unknown chains by name", () => {
    assert.equal(hasChain(PETERSEN_GRAPH, 9), true);
    assert.equal(hasChain(PETERSEN_GRAPH, 10), false);
    assert.throws(
      () => adjacentChains(PETERSEN_GRAPH, 10),
      /chain 10 is not in the petersen graph/,
    );
  });
});

describe("shortest paths", () => {
  it("is empty from a chain to itself", () => {
    assert.deepEqual(shortestPath(TWENTY_CHAIN_GRAPH, 4, 4), []);
    assert.equal(distance(TWENTY_CHAIN_GRAPH, 4, 4), 0);
  });
  it("lists the chains after the start, ending at the goal", () => {
    assert.deepEqual(shortestPath(TWENTY_CHAIN_GRAPH, 0, 5), [5]);
    assert.deepEqual(shortestPath(TWENTY_CHAIN_GRAPH, 0, 1), [10, 11, 1]);
    assert.deepEqual(shortestPath(TWENTY_CHAIN_GRAPH, 0, 12), [10, 11, 12]);
    assert.deepEqual(shortestPath(PETERSEN_GRAPH, 0, 1), [3, 1]);
  });
  it("every step of a path is an edge, and its length is symmetric", () => {
    for (const g of [PETERSEN_GRAPH, TWENTY_CHAIN_GRAPH]) {
      for (const a of g.chainIds) {
        for (const b of g.chainIds) {
          const path = shortestPath(g, a, b);
          let at = a;
          for (const next of path) {
            assert.ok(
              adjacentChains(g, at).includes(next),
              `${g.name} ${a}→${b} via ${at}→${next}`,
            );
            at = next;
          }
          assert.equal(at, b);
          assert.equal(path.length, distance(g, b, a));
        }
      }
    }
  });
});

describe("graph validation", () => {
  it("accepts a triangle", () => {
    const g = makeChainGraph("triangle", { 0: [1, 2], 1: [2, 0], 2: [0, 1] });
    assert.deepEqual(g.adjacency.get(1), [0, 2]);
    assert.equal(diameter(g), 1);
  });
  it("names a missing reverse edge", () => {
    assert.deepEqual(chainGraphProblems({ 0: [1], 1: [] }), [
      "edge 0→1 has no reverse edge 1→0",
      "chains have different degrees (0:1 1:0)",
    ]);
  });
  it("names self loops, unknown and repeated neighbours", () => {
    assert.deepEqual(chainGraphProblems({ 0: [0, 5, 1, 1], 1: [0] }), [
      "chain 0 is adjacent to itself",
      "chain 0 is adjacent to unknown chain 5",
      "chain 0 lists neighbour 1 twice",
      "chains have different degrees (0:4 1:1)",
    ]);
  });
  it("names a disconnected graph", () => {
    assert.deepEqual(chainGraphProblems({ 0: [1], 1: [0], 2: [3], 3: [2] }), [
      "not connected: chains 2, 3 are unreachable",
    ]);
  });
  it("names bad ids and an empty graph", () => {
    assert.deepEqual(chainGraphProblems({}), ["the graph has no chains"]);
    assert.deepEqual(chainGraphProblems({ "-1": [] } as Record<number, number[]>), [
      'chain id "-1" is not a non-negative integer',
    ]);
  });
  it("throws with the graph's name and every problem", () => {
    assert.throws(
      () => makeChainGraph("broken", { 0: [1], 1: [] }),
      (e: unknown) =>
        e instanceof ChainGraphError &&
        e.message ===
          'invalid chain graph "broken": edge 0→1 has no reverse edge 1→0; chains have different degrees (0:1 1:0)',
    );
  });
});
