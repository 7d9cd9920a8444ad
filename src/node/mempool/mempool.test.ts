/**
 * The mempool's side of Chainweb's `getPending`: tx ids counted per added command, answers since a
 * high-water mark, the whole mempool for another run's nonce or a mark out of the recent log, and
 * private commands kept from peers.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { devCommand } from "../test-support/dev-node.ts";
import { MEMPOOL_RECENT_LOG_SIZE, Mempool } from "./mempool.ts";

const commands = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => devCommand({ code: "(+ 1 2)", nonce: `${prefix} ${i}` }));

describe("Mempool.pendingSince", () => {
  it("counts one tx id per command added, and answers those added since a mark", () => {
    const mempool = new Mempool();
    const [a, b, c] = commands(3, "since");
    assert.deepEqual(mempool.pendingSince(), { hashes: [], nonce: mempool.nonce, next: 0 });
    mempool.add([a!, b!]);
    mempool.add([a!]); // already pending: no new tx id
    const first = mempool.pendingSince();
    assert.deepEqual(first, { hashes: [a!.hash, b!.hash], nonce: mempool.nonce, next: 2 });
    mempool.add([c!]);
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce, since: 2n }).hashes, [c!.hash]);
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce, since: 1n }).hashes, [
      b!.hash,
      c!.hash,
    ]);
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce, since: 3n }).hashes, []);
    mempool.remove([b!.hash]);
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce, since: 1n }).hashes, [c!.hash]);
  });

  it("answers every pending command for another run's nonce, or a mark ahead of the log", () => {
    const mempool = new Mempool();
    const [a, b] = commands(2, "nonce");
    mempool.add([a!, b!]);
    const all = [a!.hash, b!.hash];
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce + 1n, since: 1n }).hashes, all);
    assert.deepEqual(mempool.pendingSince({ nonce: mempool.nonce, since: 3n }).hashes, all);
    assert.notEqual(new Mempool().nonce, mempool.nonce);
  });

  it(`answers every pending command for a mark older than the last ${MEMPOOL_RECENT_LOG_SIZE} additions`, () => {
    const mempool = new Mempool();
    const many = commands(MEMPOOL_RECENT_LOG_SIZE + 10, "log");
    mempool.add(many);
    mempool.remove(many.slice(0, 5).map((c) => c.hash));
    const pending = (since: bigint) =>
      mempool.pendingSince({ nonce: mempool.nonce, since }).hashes.length;
    assert.equal(pending(10n), MEMPOOL_RECENT_LOG_SIZE + 5, "at the log's oldest: everything");
    assert.equal(pending(11n), MEMPOOL_RECENT_LOG_SIZE - 1);
    assert.equal(pending(BigInt(MEMPOOL_RECENT_LOG_SIZE + 9)), 1);
  });

  it("keeps private commands from peers", () => {
    const mempool = new Mempool();
    const [open] = commands(1, "public");
    const secret = devCommand({
      code: "(+ 1 2)",
      nonce: "private",
      privateMeta: { kind: "private", address: { from: "Alice", to: ["Bob"] } },
    });
    mempool.add([open!, secret]);
    assert.deepEqual(mempool.pendingSince().hashes, [open!.hash]);
    assert.equal(mempool.publicCommand(secret.hash), undefined);
    assert.equal(mempool.publicCommand(open!.hash), open);
  });
});
