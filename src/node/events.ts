/**
 * What the node announces: each stored block, with its request keys. The only bridge from the
 * node to listeners outside it (the API's `listen` waiters, the header stream).
 */
import { EventEmitter } from "node:events";
import type { StoredBlock } from "./chain.ts";

interface NodeEventMap {
  block: [chainId: number, block: StoredBlock];
}

export class NodeEvents extends EventEmitter<NodeEventMap> {
  constructor() {
    super();
    // Every `listen` call and stream subscriber adds a listener; they are bounded elsewhere.
    this.setMaxListeners(0);
  }
}
