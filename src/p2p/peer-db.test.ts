/**
 * The peer database: bounded, configured peers never dropped, a full one taking a new peer in
 * the place of a failing learnt one, back-off doubling to its cap, a
 * learnt peer dropped after too many failures in a row, the penalty for sending something
 * invalid, a peer's id filled from its certificate, and the list kept in the data directory (an
 * unreadable file ignored).
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  PEER_BACKOFF_MAX_MS,
  PEER_BACKOFF_MIN_MS,
  PEER_DROP_FAILURES,
  PEER_PENALTY_MS,
  PEERS_FILE,
  PeerDb,
  type PeerDbEvent,
} from "./peer-db.ts";
import type { PeerInfo } from "./peer-info.ts";

const peer = (n: number): PeerInfo => ({
  id: null,
  address: { hostname: `10.0.0.${n}`, port: 1789 },
});

/** A database on a clock the test moves, its events kept. */
function database(dataDir: string | null = null, maxPeers = 4, self: string | null = null) {
  const clock = { now: 1_000_000 };
  const events: PeerDbEvent[] = [];
  const db = new PeerDb(
    dataDir,
    maxPeers,
    () => self,
    () => clock.now,
    (e) => events.push(e),
  );
  return { db, clock, events };
}

describe("the peer database", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "braid-peers-"));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("gives a peer known without an id the one its certificate named, once, and keeps it", () => {
    const dir = tempDir();
    const { db } = database(dir);
    db.load([peer(1)]);
    const id = "A".repeat(43);
    db.identify("10.0.0.1:1789", id);
    db.identify("10.0.0.1:1789", "B".repeat(43));
    db.identify("10.0.0.7:1789", id);
    assert.deepEqual(db.get("10.0.0.1:1789")?.info, { ...peer(1), id });
    assert.equal(db.size, 1, "an unknown address is not added");
    db.save();
    assert.deepEqual(JSON.parse(readFileSync(join(dir, PEERS_FILE), "utf8"))[0].id, id);
  });

  it("holds at most maxPeers learnt peers, never itself, each once; configured peers always", () => {
    const { db, events } = database(null, 2, "10.0.0.9:1789");
    db.load([peer(1)]);
    assert.notEqual(db.add(peer(2)), null);
    assert.equal(db.add(peer(3)), null, "full");
    assert.equal(db.add(peer(9)), null, "itself");
    assert.equal(db.add(peer(2)), db.get("10.0.0.2:1789"), "known: the same entry");
    assert.notEqual(db.add(peer(4), true), null, "a configured peer past the bound");
    assert.deepEqual(
      db.all().map((p) => [p.key, p.configured]),
      [
        ["10.0.0.1:1789", true],
        ["10.0.0.2:1789", false],
        ["10.0.0.4:1789", true],
      ],
    );
    assert.deepEqual(events, [
      { kind: "joined", key: "10.0.0.1:1789" },
      { kind: "joined", key: "10.0.0.2:1789" },
      { kind: "joined", key: "10.0.0.4:1789" },
    ]);
  });

  it("full, takes a new peer in the place of the learnt one failing most, never a configured one", () => {
    const { db, clock, events } = database(null, 3);
    db.load([peer(1)]);
    const [two, three] = [db.add(peer(2))!, db.add(peer(3))!];
    db.failed(db.get("10.0.0.1:1789")!, "ECONNREFUSED");
    assert.equal(db.hasRoom(), false, "full, and only a configured peer failing");
    assert.equal(db.add(peer(4)), null);
    db.failed(two, "ECONNREFUSED");
    db.failed(three, "ECONNREFUSED");
    db.failed(three, "ECONNREFUSED");
    assert.equal(db.hasRoom(), true);
    assert.notEqual(db.add(peer(4)), null);
    db.penalize(two, "it sent more than it may");
    assert.notEqual(db.add(peer(5)), null, "a penalised one counts as failing most");
    assert.deepEqual(
      db.all().map((p) => p.key),
      ["10.0.0.1:1789", "10.0.0.4:1789", "10.0.0.5:1789"],
    );
    assert.deepEqual(events.slice(-4), [
      {
        kind: "dropped",
        key: "10.0.0.3:1789",
        reason: "replaced by 10.0.0.4:1789 (2 failed requests in a row)",
      },
      { kind: "joined", key: "10.0.0.4:1789" },
      {
        kind: "dropped",
        key: "10.0.0.2:1789",
        reason: "replaced by 10.0.0.5:1789 (it sent more than it may)",
      },
      { kind: "joined", key: "10.0.0.5:1789" },
    ]);
    clock.now += PEER_PENALTY_MS;
    assert.equal(db.add(peer(6)), null, "full of peers that answer");
  });

  it("backs a failing peer off, doubling to the cap; an answer ends it", () => {
    const { db, clock } = database();
    db.load([peer(1)]);
    const entry = db.get("10.0.0.1:1789")!;
    const backoffs: number[] = [];
    for (let i = 0; i < 10; i++) {
      db.failed(entry, "ECONNREFUSED");
      backoffs.push(entry.notBefore - clock.now);
      assert.deepEqual(db.available(), [], `failure ${i + 1}: not asked`);
      clock.now = entry.notBefore;
      assert.deepEqual(db.available(), [entry], `failure ${i + 1}: asked again once it passed`);
    }
    assert.deepEqual(backoffs, [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000]);
    assert.equal(backoffs[0], PEER_BACKOFF_MIN_MS);
    assert.equal(backoffs.at(-1), PEER_BACKOFF_MAX_MS);
    assert.equal(db.size, 1, "a configured peer is never dropped");
    db.succeeded(entry);
    assert.equal(entry.failures, 0);
    db.failed(entry, "ECONNREFUSED");
    assert.equal(entry.notBefore - clock.now, PEER_BACKOFF_MIN_MS, "the back-off starts over");
  });

  it("asks a backed-off peer again as soon as it reaches this node, but not a penalised one", () => {
    const { db, clock } = database();
    const failing = db.add(peer(2))!;
    for (let i = 0; i < 5; i++) db.failed(failing, "ETIMEDOUT");
    assert.equal(failing.notBefore - clock.now, 8000);
    db.reachedUs(failing);
    assert.deepEqual(db.available(), [failing]);
    assert.equal(failing.failures, 0);
    const lying = db.add(peer(3))!;
    db.penalize(lying, "block X is refused");
    db.reachedUs(lying);
    assert.equal(lying.notBefore, clock.now + PEER_PENALTY_MS, "the penalty stays");
    assert.deepEqual(db.available(), [failing]);
  });

  it("drops a learnt peer after PEER_DROP_FAILURES failures in a row", () => {
    const { db, events } = database();
    const entry = db.add(peer(2))!;
    for (let i = 1; i < PEER_DROP_FAILURES; i++) db.failed(entry, "ETIMEDOUT");
    assert.equal(db.size, 1, "one failure short");
    db.failed(entry, "ECONNREFUSED");
    assert.equal(db.size, 0);
    assert.deepEqual(events.at(-1), {
      kind: "dropped",
      key: "10.0.0.2:1789",
      reason: "unreachable (ECONNREFUSED)",
    });
  });

  it("leaves a peer that sent something invalid alone for PEER_PENALTY_MS, with the reason", () => {
    const { db, clock } = database();
    const entry = db.add(peer(2))!;
    db.penalize(entry, "block X is refused");
    assert.equal(entry.notBefore, clock.now + PEER_PENALTY_MS);
    assert.equal(entry.penalty, "block X is refused");
    clock.now += PEER_PENALTY_MS - 1;
    assert.deepEqual(db.available(), []);
    db.succeeded(entry);
    assert.equal(entry.penalty, "block X is refused", "an answer does not end a penalty early");
    clock.now += 1;
    assert.deepEqual(db.available(), [entry]);
    db.succeeded(entry);
    assert.equal(entry.penalty, null);
  });

  it("keeps its peers in the data directory: saved whole, loaded back after the configured ones", () => {
    const dir = tempDir();
    const first = database(dir).db;
    first.load([peer(1)]);
    first.add({ id: "uP-pHW4QKrV9fN1mlDGwKuaiIDlJW7xYSj1nW53EHM4", address: peer(2).address });
    first.save();
    assert.deepEqual(JSON.parse(readFileSync(join(dir, PEERS_FILE), "utf8")), [
      { id: null, address: { hostname: "10.0.0.1", port: 1789 } },
      {
        id: "uP-pHW4QKrV9fN1mlDGwKuaiIDlJW7xYSj1nW53EHM4",
        address: { hostname: "10.0.0.2", port: 1789 },
      },
    ]);
    const second = database(dir).db;
    second.load([peer(3)]);
    assert.deepEqual(
      second.all().map((p) => [p.key, p.configured, p.info.id]),
      [
        ["10.0.0.3:1789", true, null],
        ["10.0.0.1:1789", false, null],
        ["10.0.0.2:1789", false, "uP-pHW4QKrV9fN1mlDGwKuaiIDlJW7xYSj1nW53EHM4"],
      ],
    );
  });

  it("ignores a corrupt file, and entries of a saved list that are not peers", () => {
    const dir = tempDir();
    writeFileSync(join(dir, PEERS_FILE), '[{"id":null,"address":');
    const corrupt = database(dir).db;
    corrupt.load([peer(1)]);
    assert.deepEqual(
      corrupt.all().map((p) => p.key),
      ["10.0.0.1:1789"],
    );
    writeFileSync(
      join(dir, PEERS_FILE),
      JSON.stringify([{ id: null, address: { hostname: "a b", port: 1 } }, 7, peer(5)]),
    );
    const mixed = database(dir).db;
    mixed.load([]);
    assert.deepEqual(
      mixed.all().map((p) => p.key),
      ["10.0.0.5:1789"],
    );
    writeFileSync(join(dir, PEERS_FILE), '{"not":"a list"}');
    const notList = database(dir).db;
    notList.load([]);
    assert.equal(notList.size, 0);
  });
});
