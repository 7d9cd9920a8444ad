/**
 * Chainweb's checks of each transaction of a block made elsewhere before the block runs (its
 * `validateParsedChainwebTx` for an existing block), each failure in its insert error's words:
 * the command is not already on the block's branch (nor twice in the block), it is for the
 * block's chain, and it was created within what the block's parent's time allows. Its hash and
 * signatures are checked when it is parsed. A private command (Braid's own `private` endpoint;
 * Chainweb's blocks hold none) must be signed by a key of this node's entity, as `private`
 * requires here. Pure: the branch lookup is passed in.
 */
import type { ParsedCommand } from "../../command/index.ts";
import { blockTimeProblem, signedByEntity } from "../mempool/admission.ts";

/** What the rules ask of the block and the node besides the command. */
export interface BlockTransactionContext {
  readonly chainId: number;
  /** When the block's parent was made (µs). */
  readonly parentTimeMicros: number;
  /** The request keys of the block's commands checked so far (each checked one is added). */
  readonly earlier: Set<string>;
  /** Whether a request key is in a block of the branch ending at the parent. */
  onBranch(hashBytes: Uint8Array): boolean;
  /** The keys of this node's entity, lowercase hex. */
  readonly entityKeys: readonly string[];
}

/** The first rule `command` of a block breaks, or null. */
export function blockTransactionProblem(
  command: ParsedCommand,
  { chainId, parentTimeMicros, earlier, onBranch, entityKeys }: BlockTransactionContext,
): string | null {
  if (earlier.has(command.hash) || onBranch(command.hashBytes)) {
    return "Transaction already exists on chain";
  }
  earlier.add(command.hash);
  const meta = command.payload.meta;
  if (meta.kind !== "public") {
    return signedByEntity(command, entityKeys)
      ? null
      : "Private commands must be signed by a key of this node's entity (entityKeys)";
  }
  if (meta.chainId !== String(chainId)) {
    return `Wrong chain, expected: ${chainId}, actual: ${meta.chainId}`;
  }
  const time = blockTimeProblem(command, parentTimeMicros);
  if (time === "future") return "Transaction creation time too far in the future";
  if (time === "expired") return "Transaction time-to-live is expired";
  return null;
}
