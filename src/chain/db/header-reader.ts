/**
 * Reading block headers, whoever holds them: the chain database implements it over its own file,
 * and the node's sync can implement it over what peers serve. Synchronous, like the database;
 * a remote implementation answers from the headers it has fetched so far.
 */
import type { BlockHeader } from "../header/types.ts";

export interface HeaderReader {
  /** The header with this hash; undefined when it is not known. */
  header(hash: Uint8Array): BlockHeader | undefined;
  /**
   * The ancestor (or the header itself) of `hash` at `height`; undefined when `hash` is not
   * known or `height` is above it or below its chain's genesis.
   */
  ancestorAt(hash: Uint8Array, height: number): BlockHeader | undefined;
  /** Whether `ancestor` is `descendant` or one of its ancestors; false for unknown hashes. */
  isAncestor(ancestor: Uint8Array, descendant: Uint8Array): boolean;
  /** Every known header of a chain at a height (forks included), ordered by hash bytes. */
  headersAtHeight(chainId: number, height: number): BlockHeader[];
  /** The heaviest header of a chain (ties: greater height, then smaller hash bytes). */
  bestHead(chainId: number): BlockHeader | undefined;
  /** One head per chain with blocks, the whole set braided, on the heaviest branches. */
  cut(): Map<number, BlockHeader>;
}
