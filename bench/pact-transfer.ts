/**
 * Token transfers per second through the interpreter on SQLite (a file in a temporary directory).
 * The token is braid-token (src/pact/repl/testdata/token/token.pact): a managed TRANSFER
 * capability scoped by the sender's signature, a debit and a credit per transfer.
 *
 * Each transfer is one transaction as a node runs a command: a fresh runtime and environment, the
 * transaction's code `(braid-token.transfer "a" "b" 1.0)` parsed, compiled and evaluated, its
 * signer's capability list, the table gas model under a gas limit, and `beginTx`/`commitTx` on
 * the versioned database. Blocks of 100 transfers are committed with `beginBlock`/`commitBlock`.
 * Signature verification and the command format are not included (see bench/command-verify.ts).
 *
 * Prints transfers per second (wall clock), CPU time per transfer, and the gas each used; then
 * the same with free gas, to show what metering costs. Each is the best of three rounds.
 * Usage: node --import tsx bench/pact-transfer.ts [blocks, default 100] [accounts, default 1000]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CompileUnit } from "../src/pact/compile/context.ts";
import { openSqlitePactDb, type VersionedPactDb } from "../src/pact/db/index.ts";
import { defaultEnv } from "../src/pact/eval/env.ts";
import { ENV_NATIVES } from "../src/pact/eval/env-natives.ts";
import { Runtime } from "../src/pact/eval/runtime.ts";
import { runTopLevel } from "../src/pact/eval/toplevel.ts";
import {
  FreeGasMeter,
  type GasMeter,
  LimitedGasMeter,
  MILLIGAS_PER_GAS,
} from "../src/pact/gas/index.ts";
import { CAPABILITY_NATIVES } from "../src/pact/natives/capabilities.ts";
import { DEFPACT_NATIVES } from "../src/pact/natives/defpacts.ts";
import { CORE_NATIVES } from "../src/pact/natives/index.ts";
import { STATE_AUTHORITY, STATE_NATIVES } from "../src/pact/natives/state.ts";
import type { NativeDef } from "../src/pact/runtime/types.ts";
import { parseProgram } from "../src/pact/syntax/parser.ts";
import { Decimal } from "../src/pact/values/decimal.ts";
import { makeKeySet } from "../src/pact/values/keyset.ts";
import type { CapToken, PactValue } from "../src/pact/values/types.ts";

const BLOCKS = Number(process.argv[2] ?? 100);
const ACCOUNTS = Number(process.argv[3] ?? 1000);
/** Transfers per block (one block commit per this many transfers). */
const PER_BLOCK = 100;
/** Measured rounds of each gas setting; the best is reported. */
const ROUNDS = 3;
/** The gas limit of each transfer command (a typical wallet setting). */
const GAS_LIMIT = 2_500;
const TOKEN_SOURCE = new URL("../src/pact/repl/testdata/token/token.pact", import.meta.url);
const SOURCE_NAME = "(tx)";

const natives: ReadonlyMap<string, NativeDef> = new Map(
  [
    ...CORE_NATIVES,
    ...ENV_NATIVES,
    ...CAPABILITY_NATIVES,
    ...DEFPACT_NATIVES,
    ...STATE_NATIVES,
  ].map((n) => [n.name, n]),
);

const key = (n: number) => n.toString(16).padStart(64, "0");
const account = (n: number) => `k:${key(n)}`;
const ADMIN_KEY = "ad".repeat(32);

/** Runs `code` as one transaction's code in `rt`; returns the last value. */
function exec(rt: Runtime, code: string): PactValue {
  const unit: CompileUnit = {
    file: SOURCE_NAME,
    source: code,
    natives,
    names: rt.loaded,
    coverage: null,
  };
  let last: PactValue = "";
  for (const form of parseProgram(code, SOURCE_NAME)) {
    const result = runTopLevel(rt, form, unit);
    last = result.kind === "value" ? result.value : result.text;
  }
  return last;
}

/** A runtime for one transaction, as a node makes one per command. */
function transaction(
  db: VersionedPactDb,
  gas: GasMeter,
  signers: Map<string, readonly CapToken[]>,
  data: PactValue = new Map(),
): Runtime {
  const env = defaultEnv(natives, db);
  env.gas = gas;
  env.signers = signers;
  env.data = data;
  const rt = new Runtime(env);
  rt.keysets = STATE_AUTHORITY;
  return rt;
}

/** Block 1: the admin keyset, the token module, its table, and funded accounts. */
function setUp(db: VersionedPactDb): void {
  db.beginBlock(1);
  db.beginTx();
  const admin = new Map<string, readonly CapToken[]>([[ADMIN_KEY, []]]);
  const data = new Map<string, PactValue>([["admin", makeKeySet([ADMIN_KEY], "keys-all")]]);
  const rt = transaction(db, new FreeGasMeter(), admin, data);
  exec(rt, `(define-keyset "token-admin" (read-keyset "admin"))`);
  exec(rt, readFileSync(TOKEN_SOURCE, "utf8"));
  exec(rt, "(create-table braid-token.accounts)");
  for (let n = 0; n < ACCOUNTS; n++) {
    // Each account is guarded by its own key.
    rt.env.data = new Map([["ks", makeKeySet([key(n)], "keys-all")]]);
    exec(rt, `(braid-token.mint "${account(n)}" (read-keyset "ks") 1000000.0)`);
  }
  db.commitTx();
  db.commitBlock();
}

interface Result {
  readonly transfers: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  readonly milligas: number;
}

/** `BLOCKS` blocks of `PER_BLOCK` transfers between pseudo-random accounts. */
function transfers(db: VersionedPactDb, firstHeight: number, meter: () => GasMeter): Result {
  const amount = new Decimal(1n, 0);
  let seed = 12345;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % ACCOUNTS;
  };
  let milligas = 0;
  const start = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  for (let b = 0; b < BLOCKS; b++) {
    db.beginBlock(firstHeight + b);
    for (let t = 0; t < PER_BLOCK; t++) {
      const from = next();
      let to = next();
      if (to === from) to = (to + 1) % ACCOUNTS;
      const cap: CapToken = {
        kind: "cap-token",
        name: "braid-token.TRANSFER",
        moduleHash: "",
        args: [account(from), account(to), amount],
      };
      const gas = meter();
      const rt = transaction(db, gas, new Map([[key(from), [cap]]]));
      db.beginTx();
      exec(rt, `(braid-token.transfer "${account(from)}" "${account(to)}" 1.0)`);
      db.commitTx();
      milligas += gas.used();
    }
    db.commitBlock();
  }
  const used = process.cpuUsage(cpu);
  return {
    transfers: BLOCKS * PER_BLOCK,
    seconds: Number(process.hrtime.bigint() - start) / 1e9,
    cpuMicros: used.user + used.system,
    milligas,
  };
}

function report(label: string, r: Result): void {
  const rate = Math.round(r.transfers / r.seconds).toLocaleString("en-US");
  const cpu = (r.cpuMicros / r.transfers).toFixed(0);
  const gas =
    r.milligas === 0
      ? ""
      : `, ${(r.milligas / r.transfers / MILLIGAS_PER_GAS).toFixed(3)} gas each`;
  console.log(
    `  ${label.padEnd(28)} ${rate.padStart(7)} transfers/s  ${cpu.padStart(5)} µs CPU each${gas}`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "braid-transfer-"));
try {
  const db = openSqlitePactDb(join(dir, "state.sqlite"));
  setUp(db);
  console.log(
    `braid-token transfers on SQLite: ${ACCOUNTS.toLocaleString("en-US")} accounts, ` +
      `${BLOCKS} blocks of ${PER_BLOCK}, one transaction per transfer`,
  );
  // Warm-up (compiles the module once, fills caches), then rounds alternating the two
  // settings; each reports its best round (the machine may be busy).
  transfers(db, 2, () => new LimitedGasMeter(GAS_LIMIT));
  let height = 2 + BLOCKS;
  const best: Record<string, Result> = {};
  const settings: [string, () => GasMeter][] = [
    [`table gas, limit ${GAS_LIMIT}`, () => new LimitedGasMeter(GAS_LIMIT)],
    ["free gas", () => new FreeGasMeter()],
  ];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [label, meter] of settings) {
      const r = transfers(db, height, meter);
      height += BLOCKS;
      const previous = best[label];
      if (previous === undefined || r.seconds < previous.seconds) best[label] = r;
    }
  }
  for (const [label] of settings) report(label, best[label]!);
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
