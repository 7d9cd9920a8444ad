/**
 * The genesis blocks of a fresh data directory: each chain's genesis transactions run on its
 * state, the genesis payloads and headers made from what they give, all stored together and the
 * states committed. The transactions are Braid's own (genesis/transactions.ts) or, with
 * `--genesis`, chainweb-node's (genesis/chainweb-genesis.ts), whose every output must be the one
 * chainweb-node recorded. The network version comes out of them (its genesis payload hashes are
 * the payloads'). On reopen, the version is read back from the stored genesis blocks, and the
 * data directory must have been made from the genesis the node is started with.
 */
import type { ChainDatabase } from "../../chain/db/index.ts";
import { genesisHeader } from "../../chain/header/genesis.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import { NO_COINBASE_OUTPUT, NO_MINER_DATA } from "../../chain/payload/constants.ts";
import { makePayloadWithOutputs, type PayloadWithOutputs } from "../../chain/payload/payload.ts";
import { allChainIds, type ChainwebVersion } from "../../chain/version/version.ts";
import { decodeBase64Url, encodeBase64Url } from "../../crypto/index.ts";
import type { GenesisOutput } from "../executor/block/genesis-execution.ts";
import type { ChainState } from "../executor/chain-state.ts";
import { type ChainwebGenesisPayload, outputDifferences } from "../genesis/chainweb-genesis.ts";
import { genesisCommands, networkVersion } from "../genesis/genesis.ts";

/** A start refused because of the genesis: chainweb-node's differs, or the data directory's. */
export class GenesisRefusal extends Error {
  override name = "GenesisRefusal";
}

/** The genesis a data directory was made from, kept in the chain database's settings. */
export type GenesisKind = "braid" | "chainweb-node development";

/** The setting naming it; a data directory made before it existed holds Braid's own genesis. */
const GENESIS_SETTING = "genesis";

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
  storeGenesis(chainDb, states, version, "braid", payloads, executed);
  return version;
}

/**
 * Runs chainweb-node's genesis payloads (`payloads[chainId]`) on every chain, as chainweb-node
 * runs them, and stores their blocks; a {@link GenesisRefusal} naming the chain, the transaction,
 * the field and both values at the first output that is not the one chainweb-node recorded
 * (nothing stored then: the states' genesis blocks are left open, for the caller to discard).
 */
export function createChainwebGenesis(
  chainDb: ChainDatabase,
  states: readonly ChainState[],
  base: ChainwebVersion,
  payloads: readonly ChainwebGenesisPayload[],
): ChainwebVersion {
  const version = networkVersion(
    base,
    payloads.map((p) => decodeBase64Url(p.expectedPayloadHash)),
  );
  const executed = states.map((state, chainId) => {
    const payload = payloads[chainId]!;
    const outputs = state.executeChainwebGenesis(
      genesisHeader(version, chainId),
      payload.transactions.map((tx) => tx.command),
    );
    outputs.forEach((out, i) => {
      const [first] = outputDifferences(i, out.output, payload.transactions[i]!.output);
      if (first !== undefined) {
        throw new GenesisRefusal(
          `chainweb-node's genesis, chain ${chainId}, transaction ${i} (${out.command.hash}): its ${first.field} differs: Braid ${first.braid}, chainweb-node ${first.chainweb}`,
        );
      }
    });
    return outputs;
  });
  const made = executed.map((outputs, chainId) =>
    makePayloadWithOutputs(outputs, payloads[chainId]!.minerData, payloads[chainId]!.coinbase),
  );
  made.forEach((payload, chainId) => {
    const expected = payloads[chainId]!.expectedPayloadHash;
    if (encodeBase64Url(payload.payloadHash) !== expected) {
      throw new GenesisRefusal(
        `chainweb-node's genesis, chain ${chainId}: the payload hash is ${encodeBase64Url(payload.payloadHash)}, chainweb-node's ${expected}`,
      );
    }
  });
  storeGenesis(chainDb, states, version, "chainweb-node development", made, executed);
  return version;
}

/** Stores the genesis blocks made from `payloads` and commits each chain's state on its block. */
function storeGenesis(
  chainDb: ChainDatabase,
  states: readonly ChainState[],
  version: ChainwebVersion,
  kind: GenesisKind,
  payloads: readonly PayloadWithOutputs[],
  executed: readonly (readonly GenesisOutput[])[],
): void {
  const headers: BlockHeader[] = payloads.map((_, chainId) => genesisHeader(version, chainId));
  // Named before the blocks are stored: a start that stops between the two finds no blocks and
  // makes them again, while blocks without the name would be taken for Braid's genesis.
  chainDb.saveSetting(GENESIS_SETTING, kind);
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
}

/**
 * The network version of a data directory opened again, after checking that it was made from
 * the genesis the node is started with (`chainweb`: chainweb-node's payloads, whose hashes the
 * stored genesis blocks must carry; null: Braid's own).
 */
export function reopenedVersion(
  chainDb: ChainDatabase,
  base: ChainwebVersion,
  chainweb: readonly ChainwebGenesisPayload[] | null,
  dataDir: string,
): ChainwebVersion {
  const stored = (chainDb.setting(GENESIS_SETTING) ?? "braid") as GenesisKind;
  const wanted: GenesisKind = chainweb === null ? "braid" : "chainweb-node development";
  if (stored !== wanted) {
    throw new GenesisRefusal(
      stored === "braid"
        ? `${dataDir} was made from Braid's own genesis; it cannot be opened with --genesis (chainweb-node's): start without --genesis, or give another dataDir`
        : `${dataDir} was made from chainweb-node's genesis (--genesis); it cannot be opened with Braid's own: start with --genesis, or give another dataDir`,
    );
  }
  const version = storedVersion(chainDb, base);
  chainweb?.forEach((payload, chainId) => {
    const hash = version.genesis.payloadHashes[chainId]!;
    if (hash !== payload.expectedPayloadHash) {
      throw new GenesisRefusal(
        `${dataDir}: chain ${chainId}'s genesis payload is ${hash}, chainweb-node's in --genesis ${payload.expectedPayloadHash}`,
      );
    }
  });
  return version;
}

/** The network version whose genesis payloads are the stored genesis blocks'. */
function storedVersion(chainDb: ChainDatabase, base: ChainwebVersion): ChainwebVersion {
  const hashes = allChainIds(base).map((chainId) => {
    const [genesis] = chainDb.headersAtHeight(chainId, 0);
    if (genesis === undefined)
      throw new Error(`the chain database has no genesis block of chain ${chainId}`);
    return genesis.payloadHash;
  });
  return networkVersion(base, hashes);
}
