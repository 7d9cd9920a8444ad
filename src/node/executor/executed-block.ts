/**
 * A new block as an executor made it (contract-executor.ts), turned back into what the node
 * stores: the payload with its outputs, the transaction index entries, and the commands it left
 * out, by the commands the request named.
 */

import type { TxIndexEntry } from "../../chain/db/index.ts";
import type { BlockHeader } from "../../chain/header/types.ts";
import type { PayloadWithOutputs } from "../../chain/payload/payload.ts";
import { makePayloadWithOutputs } from "../../chain/payload/payload.ts";
import type { ParsedCommand } from "../../command/index.ts";
import { type ExecutedBlock, transactionBytes } from "./block/block-executor.ts";
import type { ExecutedBlockData } from "./contract-executor.ts";

/** What an executor made of a new block's commands, and the rest of the block's header. */
export interface ExecutedWork {
  readonly parent: BlockHeader;
  readonly commands: readonly ParsedCommand[];
  readonly executed: ExecutedBlockData;
  readonly adjacentParents: ReadonlyMap<number, BlockHeader>;
  readonly creationTime: number;
  /** 0 unless given. */
  readonly nonce?: bigint;
}

export function blockOfExecuted(
  commands: readonly ParsedCommand[],
  executed: ExecutedBlockData,
): {
  readonly payload: PayloadWithOutputs;
  readonly index: readonly TxIndexEntry[];
  readonly requestKeys: readonly string[];
  readonly rejected: ExecutedBlock["rejected"];
} {
  const included = executed.included.map((c) => ({
    ...c,
    command: commands[c.index]!,
  }));
  return {
    payload: makePayloadWithOutputs(
      included.map((c) => ({
        transaction: transactionBytes(c.command),
        output: c.output,
      })),
      executed.minerData,
      executed.coinbase,
    ),
    index: included.map((c) => ({
      requestKey: c.command.hashBytes,
      metaOffset: c.metaOffset,
    })),
    requestKeys: included.map((c) => c.command.hash),
    rejected: executed.rejected.map((r) => ({
      command: commands[r.index]!,
      reason: r.reason,
    })),
  };
}
