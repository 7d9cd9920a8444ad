/**
 * Running a chain's genesis commands (genesis/), as Chainweb runs genesis transactions: without
 * gas, each with the capabilities its transaction grants (`coin.GENESIS`, `coin.COINBASE`), at
 * block time 0 and height 0.
 */
import type { ParsedCommand } from "../../../command/index.ts";
import { encodeCommandResultAround, executeCommand, FREE_GAS } from "../../../execution/index.ts";
import type { VersionedPactDb } from "../../../pact/db/index.ts";
import { PactTime } from "../../../pact/values/index.ts";
import { SYSTEM_RULES } from "../../execution-rules.ts";
import { genesisTransactions } from "../../genesis/transactions.ts";
import { transactionBytes } from "./block-executor.ts";
import { grantedCaps } from "./system-calls.ts";

const utf8 = new TextEncoder();

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
