/**
 * Chainweb's checks of each transaction of a block made elsewhere before the block runs (its
 * `validateParsedChainwebTx` for an existing block), each failure in its insert error's words:
 * the command is not already on the block's branch (nor twice in the block), it is for the
 * block's chain, and it was created within what the block's parent's time allows. Its hash and
 * signatures are checked when it is parsed. Pure: the branch lookup is passed in.
 */
import type { ParsedCommand } from "../../command/index.ts";
import { blockTimeProblem } from "../mempool/admission.ts";

/**
 * The first rule `command` (of a block on `chainId` whose parent was made at
 * `parentTimeMicros`) breaks, or null. `earlier` holds the request keys of the block's commands
 * before it (this one is added); `onBranch` says whether a request key is in a block of the
 * branch ending at the parent.
 */
export function blockTransactionProblem(
  command: ParsedCommand,
  chainId: number,
  parentTimeMicros: number,
  earlier: Set<string>,
  onBranch: (hashBytes: Uint8Array) => boolean,
): string | null {
  if (earlier.has(command.hash) || onBranch(command.hashBytes)) {
    return "Transaction already exists on chain";
  }
  earlier.add(command.hash);
  const meta = command.payload.meta;
  if (meta.kind === "public" && meta.chainId !== String(chainId)) {
    return `Wrong chain, expected: ${chainId}, actual: ${meta.chainId}`;
  }
  const time = blockTimeProblem(command, parentTimeMicros);
  if (time === "future") return "Transaction creation time too far in the future";
  if (time === "expired") return "Transaction time-to-live is expired";
  return null;
}
