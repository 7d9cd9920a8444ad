/**
 * The braiding rule of a cut (Chainweb's `isBraidingOfCutPair`, `Cut.hs`). A cut holds one
 * header per chain. For each pair of adjacent chains with heads `a` and `b`:
 * - their heights differ by at most one;
 * - at equal heights each records the other's parent as its adjacent parent
 *   (`a.adjacents[b.chain] = b.parent` and `b.adjacents[a.chain] = a.parent`);
 * - when `a` is one higher, `a` records `b` itself (`a.adjacents[b.chain] = b.hash`).
 * Adjacency is read from the headers' own `adjacents`, so a pair is checked from each side that
 * lists the other chain.
 */
import { equalBytes } from "../bytes.ts";
import type { BlockHeader } from "../header/types.ts";

/**
 * Whether `head` cannot stay in any braided cut whose head on the adjacent chain is `other` or
 * one of its ancestors: the pair breaks the rule and `head` is the header that has to give way.
 * (When `head` is lower than `other`, the pair is judged from `other`'s side.)
 */
export function mustStepBack(head: BlockHeader, other: BlockHeader): boolean {
  const recorded = head.adjacents.get(other.chainId);
  if (recorded === undefined) return false;
  if (head.height > other.height + 1) return true;
  if (head.height === other.height + 1) return !equalBytes(recorded, other.hash);
  if (head.height === other.height) return !equalBytes(recorded, other.parent);
  return false;
}

/** Whether a set of chain heads (at most one per chain) is braided. */
export function isBraided(heads: Iterable<BlockHeader>): boolean {
  const byChain = new Map<number, BlockHeader>();
  for (const head of heads) {
    if (byChain.has(head.chainId)) return false;
    byChain.set(head.chainId, head);
  }
  for (const head of byChain.values()) {
    for (const chain of head.adjacents.keys()) {
      const other = byChain.get(chain);
      if (other !== undefined && mustStepBack(head, other)) return false;
    }
  }
  return true;
}
