/**
 * Chain graphs: which chains reference each other's blocks. Every block on chain `c` commits to
 * the latest blocks of the chains adjacent to `c`, so the graph's diameter bounds how quickly a
 * block is witnessed everywhere, and its shortest paths are the routes SPV proofs travel.
 * Facts: `../shared/reference/chainweb-wire.md` §3.
 */

export class ChainGraphError extends Error {
  override name = "ChainGraphError";
}

/** An undirected, regular, connected graph of chain ids. */
export interface ChainGraph {
  readonly name: string;
  /** All chain ids, ascending. */
  readonly chainIds: readonly number[];
  /** Chain id → its neighbours, ascending. */
  readonly adjacency: ReadonlyMap<number, readonly number[]>;
  /** The number of neighbours of every chain. */
  readonly degree: number;
}

/**
 * Builds a graph from an adjacency list (chain id → neighbours). Throws a ChainGraphError
 * naming every problem when the list is not a valid chain graph.
 */
export function makeChainGraph(
  name: string,
  adjacency: Readonly<Record<number, readonly number[]>>,
): ChainGraph {
  const problems = chainGraphProblems(adjacency);
  if (problems.length > 0) {
    throw new ChainGraphError(
      `invalid chain graph ${JSON.stringify(name)}: ${problems.join("; ")}`,
    );
  }
  const map = new Map<number, readonly number[]>();
  for (const id of Object.keys(adjacency).map(Number)) {
    map.set(id, Object.freeze([...adjacency[id]!].sort((a, b) => a - b)));
  }
  const chainIds = Object.freeze([...map.keys()].sort((a, b) => a - b));
  const first = chainIds[0]!;
  return Object.freeze({ name, chainIds, adjacency: map, degree: map.get(first)!.length });
}

/**
 * Everything that keeps an adjacency list from being a chain graph: ids that are not
 * non-negative integers, self loops, repeated or unknown neighbours, asymmetric edges, chains of
 * different degree, and a disconnected graph. Empty when the graph is valid.
 */
export function chainGraphProblems(
  adjacency: Readonly<Record<number, readonly number[]>>,
): string[] {
  const problems: string[] = [];
  const keys = Object.keys(adjacency);
  if (keys.length === 0) return ["the graph has no chains"];
  const ids = new Set<number>();
  for (const key of keys) {
    const id = Number(key);
    if (!Number.isSafeInteger(id) || id < 0 || String(id) !== key) {
      problems.push(`chain id ${JSON.stringify(key)} is not a non-negative integer`);
    } else {
      ids.add(id);
    }
  }
  for (const id of ids) {
    const neighbours = adjacency[id]!;
    const seen = new Set<number>();
    for (const n of neighbours) {
      if (n === id) problems.push(`chain ${id} is adjacent to itself`);
      else if (!ids.has(n)) problems.push(`chain ${id} is adjacent to unknown chain ${n}`);
      else if (!adjacency[n]!.includes(id)) {
        problems.push(`edge ${id}→${n} has no reverse edge ${n}→${id}`);
      }
      if (seen.has(n)) problems.push(`chain ${id} lists neighbour ${n} twice`);
      seen.add(n);
    }
  }
  const degrees = new Set([...ids].map((id) => adjacency[id]!.length));
  if (degrees.size > 1) {
    const list = [...ids].map((id) => `${id}:${adjacency[id]!.length}`).join(" ");
    problems.push(`chains have different degrees (${list})`);
  }
  if (problems.length === 0) {
    const reached = reachableFrom(adjacency, ids.values().next().value!);
    const missing = [...ids].filter((id) => !reached.has(id));
    if (missing.length > 0)
      problems.push(`not connected: chains ${missing.join(", ")} are unreachable`);
  }
  return problems;
}

function reachableFrom(adjacency: Readonly<Record<number, readonly number[]>>, start: number) {
  const seen = new Set([start]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    for (const n of adjacency[queue[i]!]!) {
      if (!seen.has(n)) {
        seen.add(n);
        queue.push(n);
      }
    }
  }
  return seen;
}

export function hasChain(graph: ChainGraph, chainId: number): boolean {
  return graph.adjacency.has(chainId);
}

/** The neighbours of a chain, ascending. Throws when the chain is not in the graph. */
export function adjacentChains(graph: ChainGraph, chainId: number): readonly number[] {
  const neighbours = graph.adjacency.get(chainId);
  if (neighbours === undefined) {
    throw new ChainGraphError(`chain ${chainId} is not in the ${graph.name} graph`);
  }
  return neighbours;
}

/**
 * A shortest path from `from` to `to` by breadth-first search, neighbours tried in ascending
 * order: the chain ids after `from`, ending with `to` (empty when they are equal). Its length is
 * the distance. Where several shortest paths exist, Chainweb may pick another; any of them
 * yields a valid SPV proof.
 */
export function shortestPath(graph: ChainGraph, from: number, to: number): number[] {
  adjacentChains(graph, to);
  const previous = new Map<number, number>([[from, from]]);
  const queue = [from];
  for (let i = 0; i < queue.length && !previous.has(to); i++) {
    const current = queue[i]!;
    for (const n of adjacentChains(graph, current)) {
      if (!previous.has(n)) {
        previous.set(n, current);
        queue.push(n);
      }
    }
  }
  const path: number[] = [];
  for (let at = to; at !== from; at = previous.get(at)!) path.push(at);
  return path.reverse();
}

/** The number of edges on a shortest path between two chains. */
export function distance(graph: ChainGraph, from: number, to: number): number {
  return shortestPath(graph, from, to).length;
}

/** The greatest distance between any two chains. */
export function diameter(graph: ChainGraph): number {
  let max = 0;
  for (const a of graph.chainIds) {
    for (const b of graph.chainIds) max = Math.max(max, distance(graph, a, b));
  }
  return max;
}
