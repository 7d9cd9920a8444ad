/**
 * A new block's commands executed on a scratch state (shared by every executor): the payload's
 * parts and the scratch state's writes, for the node to apply to the chain's state.
 */
import { type ParsedCommand, parseCommand } from "../../command/index.ts";
import type { ScratchDb } from "../../pact/db/index.ts";
import { type BlockEnvironment, executeBlock, leavingOutTimedOut } from "./block/block-executor.ts";
import { type BlockAnswer, type BlockRequest, failedAnswer } from "./contract-executor.ts";

/** Where a new block runs: the environment of its parent's child, and the state after it. */
export interface BlockSite {
  readonly env: BlockEnvironment;
  /** A fresh scratch state after the parent (one per attempt: a time-out spoils the last). */
  readonly scratch: () => ScratchDb;
}

export function answerBlock(request: BlockRequest, site: BlockSite): BlockAnswer {
  try {
    const commands = request.transactions.map(checkedCommand);
    const indexOf = new Map(commands.map((command, index) => [command, index]));
    let state: ScratchDb | undefined;
    const executed = leavingOutTimedOut(commands, (included) => {
      state = site.scratch();
      return executeBlock(state, site.env, included, request.limits);
    });
    return {
      kind: "executed",
      block: {
        minerData: executed.minerData,
        coinbase: executed.coinbase,
        included: executed.commands.map((c) => ({
          index: indexOf.get(c.command)!,
          output: c.output,
          metaOffset: c.metaOffset,
        })),
        rejected: executed.rejected.map((r) => ({
          index: indexOf.get(r.command)!,
          reason: r.reason,
        })),
        writes: state!.writes(),
      },
    };
  } catch (e) {
    return failedAnswer(e);
  }
}

/**
 * A command whose signatures were checked before (admitted to the mempool, or in a stored
 * block): its hash checked again here.
 */
export function checkedCommand(transaction: string): ParsedCommand {
  const parsed = parseCommand(JSON.parse(transaction), {
    verifySignatures: false,
  });
  if (!parsed.ok)
    throw new Error(`a command checked before does not parse: ${parsed.problems[0]?.message}`);
  return parsed.command;
}
