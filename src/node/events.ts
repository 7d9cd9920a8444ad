/**
 * What the node announces: each stored block, with its request keys; each move of the cut (the
 * heads of the chains: read it with `BraidNode.cut()`); each change of a chain's branch that
 * left blocks behind; commands admitted to a chain's mempool (for mempool sync's push). The only bridge from the node to listeners outside it (the API's `listen`
 * waiters, the header stream, and later the peers).
 */
import { EventEmitter } from "node:events";
import type { BlockHeader } from "../chain/header/types.ts";
import type { StoredBlock } from "./node-chain.ts";

interface NodeEventMap {
  block: [chainId: number, block: StoredBlock];
  cut: [];
  /** The chain's head moved from `from` to `to`, which does not descend from it. */
  reorg: [chainId: number, from: BlockHeader, to: BlockHeader];
  /**
   * Commands entered the chain's mempool: admitted (`send`, `private`, a peer's `insert`), or back
   * from blocks that left the chain's branch. Mining is told (node.ts), and the node's peers.
   */
  pending: [chainId: number];
}

export class NodeEvents extends EventEmitter<NodeEventMap> {
  constructor() {
    super();
    // Every `listen` call and stream subscriber adds a listener; they are bounded elsewhere.
    this.setMaxListeners(0);
  }
}
