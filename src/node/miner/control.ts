/** What the node asks of a mining mode (modes.ts starts one). */
export interface MiningControl {
  /** Commands were added to the chain's mempool. */
  commandsArrived(chainId: number): void;
  stop(): void;
}
