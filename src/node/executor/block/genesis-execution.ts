/**
 * Running a chain's genesis commands, as Chainweb runs genesis transactions (its
 * `runGenesisPayload`): without gas, with magic capabilities granted, in transactional mode with
 * the node's own rules (root modules and keysets allowed). Braid's own genesis (genesis/) grants
 * each transaction the capabilities it names and runs at block time 0 and height 0; chainweb-node's
 * own genesis payloads (genesis/chainweb-genesis.ts) run as chainweb-node runs them.
 */
import type { BlockHeader } from "../../../chain/header/types.ts";
import type { ParsedCommand } from "../../../command/index.ts";
import { encodeBase64Url } from "../../../crypto/index.ts";
import {
  type BlockContext,
  encodeCommandResultAround,
  executeCommand,
  FREE_GAS,
} from "../../../execution/index.ts";
import type { VersionedPactDb } from "../../../pact/db/index.ts";
import { type CapToken, PactTime } from "../../../pact/values/index.ts";
import { SYSTEM_RULES } from "../../execution-rules.ts";
import { genesisTransactions } from "../../genesis/transactions.ts";
import { transactionBytes } from "./block-executor.ts";
import { grantedCaps } from "./system-calls.ts";

const utf8 = new TextEncoder();

/**
 * Runs Braid's own genesis commands on `db` (its genesis block open); throws when one fails, since
 * a genesis that does not load is a fault of Braid's own contracts.
 */
export function executeGenesis(
  db: VersionedPactDb,
  networkId: string,
  chainId: number,
  commands: readonly ParsedCommand[],
): GenesisOutput[] {
  const block = { height: 0n, time: PACT_EPOCH, prevBlockHash: "" };
  const grants = genesisTransactions(String(chainId)).map((tx) => grantedCaps(tx.grants));
  return runGenesis(db, `chain ${chainId} (${networkId})`, commands, block, (i) => grants[i] ?? []);
}

/**
 * Runs chainweb-node's genesis commands of the chain whose genesis header is `genesis` on `db`
 * (its genesis block open), as chainweb-node runs them: every one with both `coin.GENESIS` and
 * `coin.COINBASE` granted, and seeing as its block the one after its parent, which for a genesis
 * block chainweb-node takes to be the genesis header itself (height 1, the genesis time, the
 * genesis hash as the previous block's). Throws when one fails, as chainweb-node does.
 */
export function executeChainwebGenesis(
  db: VersionedPactDb,
  genesis: BlockHeader,
  commands: readonly ParsedCommand[],
): GenesisOutput[] {
  const block: BlockContext = {
    height: BigInt(genesis.height + 1),
    time: new PactTime(BigInt(genesis.creationTime)),
    prevBlockHash: encodeBase64Url(genesis.hash),
  };
  const grants = grantedCaps(CHAINWEB_GENESIS_GRANTS);
  return runGenesis(db, `chain ${genesis.chainId}`, commands, block, () => grants);
}

/** The magic capabilities chainweb-node grants every genesis transaction. */
const CHAINWEB_GENESIS_GRANTS = ["coin.GENESIS", "coin.COINBASE"];

function runGenesis(
  db: VersionedPactDb,
  chain: string,
  commands: readonly ParsedCommand[],
  block: BlockContext,
  grantsOf: (index: number) => readonly CapToken[],
): GenesisOutput[] {
  return commands.map((command, i) => {
    const outcome = executeCommand(command, {
      db,
      mode: "transactional",
      block,
      gas: FREE_GAS,
      ...SYSTEM_RULES,
      grantedCaps: grantsOf(i),
    });
    if (outcome.result.status !== "success") {
      throw new Error(
        `genesis transaction ${i} of ${chain} failed: ${outcome.result.error.message}`,
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
