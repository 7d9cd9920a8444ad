/**
 * The genesis blocks of a fresh data directory: each chain's genesis transactions run on its
 * state, the genesis payloads and headers made from what they give, all stored together and the
 * states committed. The network version comes out of them (its genesis payload hashes are the
 * payloads'). On reopen, the version is read back from the stored genesis blocks.
 */
import type { ChainDatabase } from "../../chain/db/index.ts";
import { genesisHeader } from "../../chain/header/genesis.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../../chain/payload/constants.ts";
import { makePayloadWithOutputs } from "../../chain/payload/payload.ts";
import { allChainIds, type ChainwebVersion } from "../../chain/version/version.ts";
import type { ChainState } from "../executor/chain-state.ts";
import { genesisCommands, networkVersion } from "../genesis/genesis.ts";

/**
 * Runs the genesis transactions of every chain, stores the genesis blocks and commits each
 * state; returns the network version with the resulting genesis payload hashes.
 */
export function createGenesis(
  chainDb: ChainDatabase,
  states: readonly ChainState[],
  base: ChainwebVersion,
): ChainwebVersion {
  const network = base.name;
  const executed = states.map((state, chainId) =>
    state.executeGenesis(network, genesisCommands(network, chainId)),
  );
  const payloads = executed.map((outputs) =>
    makePayloadWithOutputs(outputs, NO_MINER_DATA, NO_COINBASE_OUTPUT),
  );
  const version = networkVersion(
    base,
    payloads.map((p) => p.payloadHash),
  );
  const headers: BlockHeader[] = payloads.map((_, chainId) => genesisHeader(version, chainId));
  chainDb.insertBlocks(
    headers.map((header, chainId) => ({
      header,
      payload: payloads[chainId]!,
      index: executed[chainId]!.map((c) => ({
        requestKey: c.command.hashBytes,
        metaOffset: c.metaOffset,
      })),
    })),
  );
  states.forEach((state, chainId) => {
    state.commit(headers[chainId]!.hash);
  });
  return version;
}

/** The network version whose genesis payloads are the stored genesis blocks'. */
export function storedVersion(chainDb: ChainDatabase, base: ChainwebVersion): ChainwebVersion {
  const hashes = allChainIds(base).map((chainId) => {
    const [genesis] = chainDb.headersAtHeight(chainId, 0);
    if (genesis === undefined)
      throw new Error(`the chain database has no genesis block of chain ${chainId}`);
    return genesis.payloadHash;
  });
  return networkVersion(base, hashes);
}
