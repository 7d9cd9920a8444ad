/**
 * Executing a block made elsewhere on a state after its parent: its miner data and commands
 * checked as a block's (transaction-rules.ts), run, and the outputs compared with what the header
 * commits to — the payload hash — as Chainweb validates a block before it enters its database.
 * The chain's own state runs it when it extends the head (ChainState), an overlay when it is on a
 * fork (fork-execution.ts).
 */
import { equalBytes } from "../../chain/bytes.ts";
import type { ParentBlock } from "../../chain/header/types.ts";
import {
  makePayloadWithOutputs,
  type PayloadData,
  type PayloadWithOutputs,
} from "../../chain/payload/payload.ts";
import { type ParsedCommand, parseCommand } from "../../command/index.ts";
import type { PactDb } from "../../pact/db/index.ts";
import type { ForeignBlock } from "../import/foreign-block.ts";
import { ImportError } from "../import/import-error.ts";
import { blockTransactionProblem } from "../import/transaction-rules.ts";
import type { MinerAccount } from "../options.ts";
import { type BlockEnvironment, executeBlock, minerOfData } from "./block/block-executor.ts";

const utf8 = new TextDecoder();

/** How a block from elsewhere is checked while it executes. */
export interface ForeignChecks {
  /** Whether a request key is in a block of the branch ending at the block's parent. */
  readonly onBranch: (hashBytes: Uint8Array) => boolean;
  /** The keys whose private commands the block may hold. */
  readonly entityKeys: readonly string[];
}

/**
 * Executes a block made elsewhere on `db` (a state after `parent`, its block open) in the
 * environment `env` gives for its miner, and returns its payload with the outputs execution
 * gave; throws {@link ImportError} when its miner data or a command is not valid
 * (transaction-rules.ts, with `checks`), or the outputs do not hash to the header's payload hash.
 */
export function executeForeign(
  db: PactDb,
  block: ForeignBlock,
  parent: ParentBlock,
  env: (miner: MinerAccount) => BlockEnvironment,
  checks: ForeignChecks,
): PayloadWithOutputs {
  const { header, payload } = block;
  const miner = minerOfData(payload.minerData);
  if (miner === null) {
    throw new ImportError(
      "invalid-miner-data",
      header.chainId,
      header.hash,
      "the miner data is not a keys-all miner of ED25519 keys",
    );
  }
  const commands = verifiedCommands(block);
  const rules = {
    chainId: header.chainId,
    parentTimeMicros: parent.creationTime,
    earlier: new Set<string>(),
    onBranch: checks.onBranch,
    entityKeys: checks.entityKeys,
  };
  for (const [i, command] of commands.entries()) {
    const problem = blockTransactionProblem(command, rules);
    if (problem !== null) {
      throw new ImportError(
        "invalid-command",
        header.chainId,
        header.hash,
        `transaction ${i} (${command.hash}): ${problem}`,
      );
    }
  }
  const executed = executeBlock(db, env(miner), commands);
  const remade = makePayloadWithOutputs(
    executed.commands.map((c) => ({
      transaction: c.transaction,
      output: c.output,
    })),
    payload.minerData,
    executed.coinbase,
  );
  if (executed.rejected.length > 0 || !equalBytes(remade.payloadHash, header.payloadHash)) {
    throw new ImportError(
      "outputs-mismatch",
      header.chainId,
      header.hash,
      outputsDifference(payload, remade, executed.rejected),
    );
  }
  return remade;
}

/** The block's commands, each with its hash and signatures checked. */
function verifiedCommands(block: ForeignBlock): ParsedCommand[] {
  return block.payload.transactions.map((t, i) => {
    const bytes = "transaction" in t ? t.transaction : t;
    let json: unknown;
    try {
      json = JSON.parse(utf8.decode(bytes));
    } catch {
      throw new ImportError(
        "invalid-command",
        block.header.chainId,
        block.header.hash,
        `transaction ${i} is not JSON`,
      );
    }
    const parsed = parseCommand(json);
    if (!parsed.ok) {
      throw new ImportError(
        "invalid-command",
        block.header.chainId,
        block.header.hash,
        `transaction ${i} is not a valid command: ${parsed.problems.map((p) => p.message).join("; ")}`,
      );
    }
    return parsed.command;
  });
}

/** Where the outputs of a block differ from what executing it gave, in words. */
function outputsDifference(
  stated: PayloadWithOutputs | PayloadData,
  executed: PayloadWithOutputs,
  rejected: readonly {
    readonly command: ParsedCommand;
    readonly reason: string;
  }[],
): string {
  if (rejected.length > 0) {
    return `transaction ${rejected[0]!.command.hash} cannot be in a block: ${rejected[0]!.reason}`;
  }
  if (!("coinbase" in stated)) return "the outputs hash of executing it differs from the header's";
  if (!equalBytes(stated.coinbase, executed.coinbase)) return "the coinbase differs";
  const i = stated.transactions.findIndex(
    (t, n) => !equalBytes(t.output, executed.transactions[n]?.output ?? new Uint8Array()),
  );
  return i >= 0
    ? `the output of transaction ${i} differs`
    : "the outputs hash differs from the header's";
}
