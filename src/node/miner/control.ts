/** What the node asks of a mining mode (modes.ts starts one). */
export interface MiningControl {
  /** Commands were added to the chain's mempool. */
  commandsArrived(chainId: number): void;
  /** Commands for the chain are being checked (their signatures, off the event loop). */
  admissionStarted(chainId: number): void;
  /** That check ended: its commands were added, or refused. */
  admissionEnded(chainId: number): void;
  stop(): void;
}
