/**
 * Contract state throughput on SQLite (a file in a temporary directory, WAL), through the
 * PactDb interface, so row encoding and decoding are included. Rows look like coin accounts
 * (a decimal balance and a keyset guard).
 * - writes: `write` of a row, one transaction (one SQLite commit) per 100 writes;
 * - transfers: blocks of 100 commands, each a savepoint doing 2 reads and 2 updates (the shape
 *   of a coin transfer), one SQLite commit per block;
 * - point reads: of the latest state through the row cache, of the latest state without it
 *   (through the view of the latest block), and of an older block's state.
 * Each line gives operations per second (wall clock) and the process CPU time per operation,
 * which is steadier on a busy machine.
 * Usage: node --import tsx bench/pact-db.ts [accounts, default 10000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openMemoryPactDb, openSqlitePactDb, type VersionedPactDb } from "../src/pact/db/index.ts";
import { Decimal } from "../src/pact/values/decimal.ts";
import type { KeySet, PactObject, PactValue } from "../src/pact/values/types.ts";

const ACCOUNTS = Number(process.argv[2] ?? 10_000);
/** Writes per transaction in the write measurement, commands per block in the transfers. */
const BATCH = 100;
const WRITE_BATCHES = 500;
const TRANSFER_BLOCKS = 200;
const READS = 200_000;
const TABLE = "coin_coin-table";

const guard: KeySet = {
  kind: "keyset",
  keys: ["368820f80c324bbc7c2b0610688a7da43e39f91d118732671cd9c7500ff43cca"],
  pred: "keys-all",
};
const account = (n: number) => `k:${n.toString(16).padStart(64, "0")}`;
const balance = (n: number) => Decimal.read(`${n}.${n % 1000}`) as Decimal;
const accountRow = (n: number): PactObject =>
  new Map<string, PactValue>([
    ["balance", balance(n)],
    ["guard", guard],
  ]);

interface Timing {
  readonly count: number;
  readonly seconds: number;
  readonly cpuMicros: number;
}

function time(run: () => number): Timing {
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const count = run();
  const used = process.cpuUsage(cpu);
  return {
    count,
    seconds: Number(process.hrtime.bigint() - start) / 1e9,
    cpuMicros: used.user + used.system,
  };
}

/** `ops`: storage operations per counted item, for the ops/s figure. */
function report(label: string, { count, seconds, cpuMicros }: Timing, ops = 1) {
  const perSecond = count / seconds;
  const rate = Math.round(perSecond).toLocaleString("en-US").padStart(10);
  const cpu = `${(cpuMicros / count).toFixed(1).padStart(7)} µs CPU`;
  const opsNote = ops > 1 ? `  (${Math.round(perSecond * ops).toLocaleString("en-US")} ops/s)` : "";
  console.log(`  ${label.padEnd(46)} ${rate} /s ${cpu}${opsNote}`);
}

/** Block 1 creates the table and the accounts. */
function populate(db: VersionedPactDb): void {
  db.beginBlock(1);
  db.beginTx();
  db.createTable({ namespace: null, name: "coin" }, "coin-table");
  for (let n = 0; n < ACCOUNTS; n++) db.writeRow("insert", TABLE, account(n), accountRow(n));
  db.commitTx();
  db.commitBlock();
}

function writes(db: VersionedPactDb): number {
  let n = 0;
  for (let b = 0; b < WRITE_BATCHES; b++) {
    db.beginTx();
    for (let i = 0; i < BATCH; i++, n++)
      db.writeRow("write", TABLE, account(n % ACCOUNTS), accountRow(n));
    db.commitTx();
  }
  return n;
}

/** Transfers between pseudo-random accounts, in blocks; returns the number of transfers. */
function transfers(db: VersionedPactDb): number {
  let seed = 1;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % ACCOUNTS;
  };
  const amount = Decimal.read("0.5") as Decimal;
  let count = 0;
  const first = (db.latestBlock()?.height ?? 0) + 1;
  for (let b = 0; b < TRANSFER_BLOCKS; b++) {
    db.beginBlock(first + b);
    for (let i = 0; i < BATCH; i++, count++) {
      const from = account(next());
      const to = account(next());
      db.beginTx();
      const fromRow = db.readRow(TABLE, from) as PactObject;
      const toRow = db.readRow(TABLE, to) as PactObject;
      const fromBalance = fromRow.get("balance") as Decimal;
      const toBalance = toRow.get("balance") as Decimal;
      db.writeRow("update", TABLE, from, new Map([["balance", fromBalance.sub(amount)]]));
      db.writeRow("update", TABLE, to, new Map([["balance", toBalance.add(amount)]]));
      db.commitTx();
    }
    db.commitBlock();
  }
  return count;
}

function pointReads(read: (key: string) => unknown): number {
  const keys = Array.from({ length: 4096 }, (_, i) => account((i * 7919) % ACCOUNTS));
  for (let i = 0; i < READS; i++) read(keys[i & 4095] as string);
  return READS;
}

function run(label: string, db: VersionedPactDb): void {
  console.log(`${label}, ${ACCOUNTS.toLocaleString("en-US")} accounts`);
  report(
    "populate (inserts, one commit)",
    time(() => {
      populate(db);
      return ACCOUNTS;
    }),
  );
  report(
    `writes, one commit per ${BATCH}`,
    time(() => writes(db)),
  );
  report(
    `transfers (2 reads + 2 updates), ${BATCH}/block`,
    time(() => transfers(db)),
    4,
  );
  const cached = (k: string) => db.readRow(TABLE, k);
  report(
    "point reads, latest state, row cache",
    time(() => pointReads(cached)),
  );
  const latest = db.asOf(db.latestBlock()?.height ?? 0);
  const uncached = (k: string) => latest.readRow(TABLE, k);
  report(
    "point reads, latest state, uncached",
    time(() => pointReads(uncached)),
  );
  const old = db.asOf(1);
  report(
    "point reads as of block 1",
    time(() => pointReads((k) => old.readRow(TABLE, k))),
  );
  const listKeys = () => {
    for (let i = 0; i < 20; i++) db.rowKeys(TABLE);
    return 20;
  };
  report("keys of the table (whole list)", time(listKeys));
  db.close();
}

const dir = mkdtempSync(join(tmpdir(), "braid-bench-pact-db-"));
try {
  run("SQLite file (WAL)", openSqlitePactDb(join(dir, "state.sqlite")));
  run("memory", openMemoryPactDb());
} finally {
  rmSync(dir, { recursive: true, force: true });
}
