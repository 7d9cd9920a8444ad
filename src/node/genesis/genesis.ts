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
import { JsonNumber, parseJson } from "../../pact/values/index.ts";
import { genesisTransactions } from "./transactions.ts";

/** The genesis commands of a chain, as stored in its genesis payload. */
export function genesisCommands(networkId: string, chainId: number): ParsedCommand[] {
  return genesisTransactions(String(chainId)).map((tx, i) => {
    const payload = {
      payload: {
        kind: "exec" as const,
        code: tx.code,
        data: parseJson(JSON.stringify(tx.data)),
      },
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

/** `base` with its genesis payload hashes replaced by `payloadHashes` (one per chain). */
export function networkVersion(
  base: ChainwebVersion,
  payloadHashes: readonly Uint8Array[],
): ChainwebVersion {
  return Object.freeze({
    ...base,
    genesis: {
      ...base.genesis,
      payloadHashes: payloadHashes.map(encodeBase64Url),
    },
  });
}
