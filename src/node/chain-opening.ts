/**
 * Opening the chains on start: each chain's state at the block it last committed (its genesis
 * block replayed on a new state), then every chain brought to the chain database's cut, the
 * blocks a crash or a missing state file left out replayed with progress on the log.
 */
import type { ChainDatabase } from "../chain/db/index.ts";
import { genesisHeader } from "../chain/header/genesis.ts";
import type { ChainState } from "./executor/chain-state.ts";
import type { BlockImporter } from "./import/importer.ts";
import type { NodeLogger } from "./logger.ts";
import { type ChainContext, NodeChain } from "./node-chain.ts";

/**
 * Brings every chain's state to the chain database's cut (replaying the blocks a crash or a
 * deleted state file left out), showing progress on the log.
 */
export function replayToCut(
  importer: BlockImporter,
  chainDb: ChainDatabase,
  chains: readonly NodeChain[],
  log: NodeLogger,
): void {
  const cut = chainDb.cut();
  const behind = chains.reduce(
    (sum, chain) => sum + Math.max(0, cut.get(chain.chainId)!.height - chain.head.height),
    0,
  );
  const started = performance.now();
  let replayed = 0;
  importer.adoptCut((chain) => {
    replayed++;
    log.progress(
      `replaying stored blocks: ${replayed} of ${Math.max(behind, replayed)} (chain ${chain.chainId})`,
    );
  });
  if (replayed > 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    log.progressDone(`replayed ${replayed} stored blocks in ${seconds} s`);
  }
}

/** The chain's state at its last committed block (genesis replayed when it has none). */
export function openChain(chainId: number, state: ChainState, context: ChainContext): NodeChain {
  const db = context.chainDb;
  const latest = state.latestBlock();
  if (latest !== null) {
    const head = db.header(latest.hash);
    if (head === undefined) {
      throw new Error(
        `the state of chain ${chainId} is at a block the chain database does not hold; the data directory is damaged`,
      );
    }
    return new NodeChain(chainId, state, context, head);
  }
  const genesis = genesisHeader(context.version, chainId);
  const chain = new NodeChain(chainId, state, context, genesis);
  chain.replay(genesis);
  return chain;
}
