/**
 * Results a node reported (the exact text `listen` answered), and the check that each polls back
 * byte-identical: the crash test's and the full-disk test's proof that nothing reported is lost.
 */
import assert from "node:assert/strict";
import type { NodeProcess } from "../../support/node-process.ts";
import { post } from "./requests.ts";

export interface Reported {
  readonly chainId: number;
  readonly key: string;
  readonly text: string;
  /** The crash test's round it was reported in, for the failure message. */
  readonly round?: number;
}

/** Every reported result on `chainIds` polls back byte-identical (batched polls, chain by chain). */
export async function checkReported(
  node: NodeProcess,
  reported: readonly Reported[],
  chainIds: readonly number[],
): Promise<void> {
  for (const chainId of chainIds) {
    const mine = reported.filter((r) => r.chainId === chainId);
    for (let i = 0; i < mine.length; i += 100) {
      const batch = mine.slice(i, i + 100);
      const polled = await post(
        `${node.api(chainId)}/poll`,
        JSON.stringify({ requestKeys: batch.map((r) => r.key) }),
      );
      assert.equal(polled.status, 200, polled.text);
      for (const r of batch) {
        const when = r.round === undefined ? "" : ` (reported in round ${r.round})`;
        assert.ok(
          polled.text.includes(`"${r.key}":${r.text}`),
          `chain ${chainId}: the result of ${r.key}${when} did not poll back identical:\n  reported ${r.text}\n  polled ${polled.text.slice(0, 2000)}`,
        );
      }
    }
  }
}
