/**
 * The answer to a gas profile request (the `commands` port's `profile`): where the transaction
 * is, its stored `gas`, whether executing it again gave its stored output, and the profile. The
 * outputs are compared as the bytes a block stores; when they differ, the fields that differ
 * are named (a profile whose run did not give the stored output is still shown, with that said).
 */
import type { BlockHeader } from "../../chain/header/types.ts";
import { encodeBase64Url } from "../../crypto/index.ts";

/** The output fields compared by name when the re-executed output differs from the stored one. */
const OUTPUT_FIELDS = ["gas", "result", "logs", "events", "continuation", "txId"] as const;

/**
 * `answer` is the executor's `{"output","profile"}` text; `stored` the block's output text.
 * Both outputs are JSON text the node wrote.
 */
export function profileAnswer(
  header: BlockHeader,
  position: number,
  stored: string,
  answer: string,
): string {
  const { output, profile } = JSON.parse(answer) as { output: unknown; profile: unknown };
  const storedOutput = JSON.parse(stored) as Record<string, unknown>;
  const replayed = output as Record<string, unknown>;
  const differences = OUTPUT_FIELDS.filter(
    (field) => JSON.stringify(storedOutput[field]) !== JSON.stringify(replayed[field]),
  );
  return JSON.stringify({
    requestKey: storedOutput.reqKey,
    chain: header.chainId,
    height: header.height,
    blockHash: encodeBase64Url(header.hash),
    position,
    gas: storedOutput.gas,
    matchesStored: differences.length === 0,
    differences,
    ...(differences.length === 0 ? {} : { replayedOutput: output }),
    profile,
  });
}
