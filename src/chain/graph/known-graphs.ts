/**
 * The graphs Chainweb networks use (kadena-io/digraph's `petersenGraph` and `twentyChainGraph`).
 * The genesis block hashes commit to them, so they are checked by the golden hash tests.
 */
import { makeChainGraph } from "./graph.ts";

/** Ten chains, degree 3, diameter 2: mainnet's graph below height 852054. */
export const PETERSEN_GRAPH = makeChainGraph("petersen", {
  0: [2, 3, 5],
  1: [3, 4, 6],
  2: [0, 4, 7],
  3: [0, 1, 8],
  4: [1, 2, 9],
  5: [0, 6, 9],
  6: [1, 5, 7],
  7: [2, 6, 8],
  8: [3, 7, 9],
  9: [4, 5, 8],
});

/**
 * Twenty chains, degree 3, diameter 3: a pentagram on chains 5–9, a ten-cycle on 10–19, and
 * each chain i of 0–4 linked to i+5, i+10 and i+15.
 */
export const TWENTY_CHAIN_GRAPH = makeChainGraph("twenty", {
  0: [5, 10, 15],
  1: [6, 11, 16],
  2: [7, 12, 17],
  3: [8, 13, 18],
  4: [9, 14, 19],
  5: [0, 7, 8],
  6: [1, 8, 9],
  7: [2, 5, 9],
  8: [3, 5, 6],
  9: [4, 6, 7],
  10: [0, 11, 19],
  11: [1, 10, 12],
  12: [2, 11, 13],
  13: [3, 12, 14],
  14: [4, 13, 15],
  15: [0, 14, 16],
  16: [1, 15, 17],
  17: [2, 16, 18],
  18: [3, 17, 19],
  19: [4, 10, 18],
});
