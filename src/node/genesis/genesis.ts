/**
 * The genesis blocks of Braid's development network. Each chain's genesis payload holds our own
 * contracts and the funding of the development accounts (transactions.ts), run without gas and
 * with the `coin.GENESIS` and `coin.COINBASE` capabilities granted, as Chainweb runs genesis
 * transactions. The payload hashes that come out are the network's genesis payload hashes:
 * `networkVersion` puts them into the version the node's headers are built with.
 */

import type { ChainwebVersion } from "../../chain/version/version.ts";
import {
  commandHash,
  DEFAULT_COMMAND_HASH,
  encodeCommandPayload,
  type ParsedCommand,
} from "../../command/index.ts";
import { encodeBase64Url } from "../../crypto/index.ts";
import { encodeCommandResultAround, executeCommand, FREE_GAS } from "../../execution/index.ts";
import type { VersionedPactDb } from "../../pact/db/index.ts";
import { JsonNumber, PactTime, parseJson } from "../../pact/values/index.ts";
import { transactionBytes } from "../block-execution/block-executor.ts";
import { grantedCaps } from "../block-execution/system-calls.ts";
import { SYSTEM_RULES } from "../execution-rules.ts";
import { genesisTransactions } from "./transactions.ts";

const utf8 = new TextEncoder();

/** The genesis commands of a chain, as stored in its genesis payload. */
export function genesisCommands(networkId: string, chainId: number): ParsedCommand[] {
  return genesisTransactions(String(chainId)).map((tx, i) => {
    const payload = {
      payload: { kind: "exec" as const, code: tx.code, data: parseJson(JSON.stringify(tx.data)) },
      meta: {
        kind: "public" as const,
        creationTime: 0,
        ttl: 0,
        gasLimit: 0,
        chainId: String(chainId),
        gasPrice: new JsonNumber("0"),
        sender: "",
      },
      signers: [],
      verifiers: null,
      networkId,
      nonce: `braid-genesis-${i}`,
    };
    const cmd = encodeCommandPayload(payload);
    const hashBytes = commandHash(cmd, DEFAULT_COMMAND_HASH);
    return {
      cmd,
      hash: encodeBase64Url(hashBytes),
      hashBytes,
      hashAlgorithm: DEFAULT_COMMAND_HASH,
      sigs: [],
      payload,
    };
  });
}

/**
 * Runs the genesis commands on `db` (its genesis block open); throws when one fails, since a
 * genesis that does not load is a fault of Braid's own contracts.
 */
export function executeGenesis(
  db: VersionedPactDb,
  networkId: string,
  chainId: number,
  commands: readonly ParsedCommand[],
): GenesisOutput[] {
  const block = { height: 0n, time: PACT_EPOCH, prevBlockHash: "" };
  const grants = genesisTransactions(String(chainId)).map((tx) => grantedCaps(tx.grants));
  return commands.map((command, i) => {
    const outcome = executeCommand(command, {
      db,
      mode: "transactional",
      block,
      gas: FREE_GAS,
      ...SYSTEM_RULES,
      grantedCaps: grants[i] ?? [],
    });
    if (outcome.result.status !== "success") {
      throw new Error(
        `genesis transaction ${i} of chain ${chainId} (${networkId}) failed: ${outcome.result.error.message}`,
      );
    }
    const [head, tail] = encodeCommandResultAround(outcome);
    return {
      command,
      transaction: transactionBytes(command),
      output: utf8.encode(`${head}null${tail}`),
      metaOffset: utf8.encode(head).length,
    };
  });
}

/** A genesis command with its payload bytes. */
export interface GenesisOutput {
  readonly command: ParsedCommand;
  readonly transaction: Uint8Array;
  readonly output: Uint8Array;
  readonly metaOffset: number;
}

/** Genesis transactions see block time 0 (the UNIX epoch) and height 0. */
const PACT_EPOCH = new PactTime(0n);

/** `base` with its genesis payload hashes replaced by `payloadHashes` (one per chain). */
export function networkVersion(
  base: ChainwebVersion,
  payloadHashes: readonly Uint8Array[],
): ChainwebVersion {
  return Object.freeze({
    ...base,
    genesis: { ...base.genesis, payloadHashes: payloadHashes.map(encodeBase64Url) },
  });
}
