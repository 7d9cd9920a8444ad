/** What the node asks of a mining mode (modes.ts starts one), and what the mode answers. */
export interface MiningControl {
  /**
   * Whether blocks are made as requests need them (on-demand): `send` answers once its block is
   * made, and confirmations, SPV targets and development funding are mined at once.
   */
  readonly makesBlocksOnRequest: boolean;
  /**
   * Whether every block needs its nonce search (pow): the mining coordination API is served, and
   * the development control `mine` is refused.
   */
  readonly searchesNonces: boolean;
  /** Commands were added to the chain's mempool. */
  commandsArrived(chainId: number): void;
  /** Commands for the chain are being checked (their signatures, off the event loop). */
  admissionStarted(chainId: number): void;
  /** That check ended: its commands were added, or refused. */
  admissionEnded(chainId: number): void;
  stop(): void;
}
