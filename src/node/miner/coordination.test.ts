/**
 * Mining coordination holds a solved block's creation time to the rule a peer's block meets
 * (validate.ts, BLOCK_TIME_ALLOWANCE_MICROS) against the node's clock: a miner cannot post-date
 * the blocks it solves.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HeaderOffset } from "../../chain/header/binary.ts";
import { mineNonce } from "../../chain/mining/mine.ts";
import { BLOCK_TIME_ALLOWANCE_MICROS } from "../../chain/validation/validate.ts";
import { word256FromBytes } from "../../chain/word256.ts";
import { manualNode } from "../test-support/dev-node.ts";
import { MiningCoordinator, SolvedWorkRefusal } from "./coordination.ts";

describe("a solved work's creation time", () => {
  it("is taken exactly at the allowance ahead of the node's clock, refused 1 µs beyond", async () => {
    const node = manualNode();
    try {
      const now = node.clock.nowMicros();
      const coordinator = new MiningCoordinator(node.version, node.producer, () => now);
      /** Work for chain 0 with its creation time set to `creationTime`, a nonce found. */
      const solvedAt = async (creationTime: number): Promise<Uint8Array> => {
        const work = await coordinator.work(0);
        const header = work.slice(36);
        new DataView(header.buffer).setBigUint64(
          HeaderOffset.creationTime,
          BigInt(creationTime),
          true,
        );
        assert.ok(mineNonce(header, word256FromBytes(work, 4), 0n, 50_000_000), "no nonce found");
        return header;
      };
      const late = now + BLOCK_TIME_ALLOWANCE_MICROS + 1;
      const lateWork = await solvedAt(late);
      assert.throws(
        () => coordinator.solved(lateWork),
        (e) =>
          e instanceof SolvedWorkRefusal &&
          e.status === 400 &&
          e.message ===
            `Invalid solved work: creation time ${late} µs is ahead of this node's clock by more than 999 µs`,
      );
      assert.equal(node.chains[0]!.head.height, 0, "nothing stored");
      const stored = coordinator.solved(await solvedAt(now + BLOCK_TIME_ALLOWANCE_MICROS));
      assert.equal(stored.creationTime, now + 999);
      assert.equal(node.chains[0]!.head, stored);
    } finally {
      node.close();
    }
  });
});
