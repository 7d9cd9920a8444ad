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
    assert.deepEqual(mempool.pendingSince(), {
      hashes: [],
      nonce: mempool.nonce,
      next: 0,
    });
    mempool.add([a!, b!]);
    mempool.add([a!]); // already pending: no new tx id
    const first = mempool.pendingSince();
    assert.deepEqual(first, {
      hashes: [a!.hash, b!.hash],
      nonce: mempool.nonce,
      next: 2,
    });
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

describe("Mempool's keeper", () => {
  /** A keeper that records what it is told, refusing to keep when `full`. */
  function recorder() {
    const told: string[] = [];
    const keeper = {
      full: false,
      keep(kept: readonly { hash: string }[]) {
        if (keeper.full) throw new Error("no room");
        told.push(`keep ${kept.map((c) => c.hash).join(",")}`);
      },
      release(hashes: readonly string[]) {
        told.push(`release ${hashes.join(",")}`);
      },
    };
    return { keeper, told };
  }

  it("is told of each new command before it is added, and of each that leaves", () => {
    const { keeper, told } = recorder();
    const mempool = new Mempool(keeper);
    const [a, b, c] = commands(3, "keeper");
    mempool.add([a!, b!, a!]);
    mempool.add([b!, c!]);
    mempool.add([c!]);
    mempool.remove([a!.hash, "not-pending"]);
    mempool.remove(["not-pending"]);
    assert.deepEqual(told, [`keep ${a!.hash},${b!.hash}`, `keep ${c!.hash}`, `release ${a!.hash}`]);
  });

  it("adds nothing when the keeper cannot keep", () => {
    const { keeper } = recorder();
    const mempool = new Mempool(keeper);
    keeper.full = true;
    assert.throws(() => mempool.add(commands(2, "full")), /no room/);
    assert.equal(mempool.size, 0);
    assert.deepEqual(mempool.pendingSince().next, 0);
  });
});

describe("Mempool.removeExpired", () => {
  it("removes the public commands whose time to live ended, and tells the keeper", () => {
    const released: string[] = [];
    const mempool = new Mempool({
      keep: () => {},
      release: (h) => released.push(...h),
    });
    // Created at 1,000 and 2,000 with an hour to live: over at 4,600 and 5,600.
    const early = devCommand({
      code: "(+ 1 2)",
      nonce: "early",
      creationTime: 1_000,
    });
    const late = devCommand({
      code: "(+ 1 2)",
      nonce: "late",
      creationTime: 2_000,
    });
    mempool.add([early, late]);
    assert.deepEqual(mempool.removeExpired(4_599), []);
    assert.deepEqual(mempool.removeExpired(4_600), [early.hash]);
    assert.deepEqual(released, [early.hash]);
    assert.deepEqual(
      mempool.commands().map((c) => c.hash),
      [late.hash],
    );
  });
});
