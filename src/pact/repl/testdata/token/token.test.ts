/**
 * braid-token (token.pact) on both storage backends: its .repl tests, a cross-chain transfer
 * between two databases continued from a proven defpact state, and a failing transfer rolled
 * back as a node rolls back a failed command.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { openMemoryPactDb, openSqlitePactDb, type PactDb } from "../../../db/index.ts";
import { continueDefPact } from "../../../eval/defpact-engine.ts";
import { decodeDefPactExec, encodeDefPactExec } from "../../../eval/defpact-exec.ts";
import { PactError } from "../../../runtime/errors.ts";
import { Decimal } from "../../../values/decimal.ts";
import { pactValueEquals } from "../../../values/equality.ts";
import { encodePactValue } from "../../../values/json.ts";
import { makeKeySet } from "../../../values/keyset.ts";
import type { CapToken, PactValue } from "../../../values/types.ts";
import { ReplSession } from "../../session.ts";

const dir = dirname(fileURLToPath(import.meta.url));

const BACKENDS: readonly [string, () => PactDb][] = [
  ["memory", openMemoryPactDb],
  ["SQLite", () => openSqlitePactDb(":memory:")],
];

/** The expectations in token.repl. */
const TOKEN_REPL_TESTS = 47;

function session(openDb: () => PactDb): { repl: ReplSession; output: string[] } {
  const output: string[] = [];
  const repl = new ReplSession(
    { line: (text) => output.push(text), readFile: (path) => readFileSync(path, "utf8") },
    { openDb },
  );
  return { repl, output };
}

/** Runs REPL code as if it were a file in this folder; returns the last value. */
function run(repl: ReplSession, source: string): PactValue {
  const results = repl.runSource(join(dir, "inline.repl"), source);
  const last = results[results.length - 1];
  assert.ok(last !== undefined && last.kind === "value");
  return last.value;
}

/** A chain with the token deployed, alice holding 50.0 and bob an empty account. */
function chain(id: string, openDb: () => PactDb): ReplSession {
  const { repl } = session(openDb);
  run(
    repl,
    `(env-data { "admin": ["admin-key"], "alice": ["alice-key"], "bob": ["bob-key"] })
     (env-keys ["admin-key"])
     (define-keyset "token-admin" (read-keyset "admin"))
     (load "token.pact")
     (create-table braid-token.accounts)
     (braid-token.mint "alice" (read-keyset "alice") 50.0)
     (braid-token.create-account "bob" (read-keyset "bob"))
     (env-keys [])
     (env-chain-data { "chain-id": "${id}" })`,
  );
  repl.resetTxState();
  return repl;
}

/** Asserts an account's balance (decimals compare by value: stored `50.0` reads back as `50`). */
function assertBalance(repl: ReplSession, account: string, expected: string): void {
  const actual = run(repl, `(braid-token.get-balance "${account}")`);
  assert.ok(
    pactValueEquals(actual, Decimal.parseLiteral(expected)),
    `${account} holds ${String(actual)}, expected ${expected}`,
  );
}

describe("braid-token", () => {
  for (const [name, openDb] of BACKENDS) {
    it(`passes every expectation of token.repl on ${name}`, () => {
      const { repl, output } = session(openDb);
      repl.loadFile(join(dir, "token.repl"), true);
      assert.deepEqual(repl.failures(), []);
      assert.equal(repl.results.length, TOKEN_REPL_TESTS);
      assert.deepEqual(output, []);
    });
  }

  it("moves tokens from a memory chain to a SQLite chain by a proven continuation", () => {
    const source = chain("0", openMemoryPactDb);
    const target = chain("1", () => openSqlitePactDb(":memory:"));

    // Step 0 as a command on chain 0, signed by alice for this cross-chain transfer.
    const rt0 = source.rt;
    const signed = run(source, `(braid-token.TRANSFER_XCHAIN "alice" "bob" 7.5 "1")`);
    rt0.env.signers = new Map([["alice-key", [signed as CapToken]]]);
    rt0.env.txHash = "xfer";
    rt0.env.db.beginTx();
    assert.equal(
      run(source, `(braid-token.transfer-crosschain "alice" "bob" (read-keyset "bob") "1" 7.5)`),
      "Sent 7.5 from alice to chain 1",
    );
    rt0.env.db.commitTx();
    const moduleHash = rt0.loaded.module({ namespace: null, name: "braid-token" })?.info.hash;
    const bobGuard = makeKeySet(["bob-key"], "keys-all");
    const payload = new Map<string, PactValue>([
      ["receiver", "bob"],
      ["receiver-guard", bobGuard],
      ["amount", Decimal.parseLiteral("7.5")],
      ["source-chain", "0"],
    ]);
    const continuation = encodeDefPactExec(rt0.pactExec!);
    assert.equal(
      continuation,
      `{"executed":null,"pactId":"xfer","stepHasRollback":false,"step":0,"yield":{"data":${encodePactValue(payload)},"provenance":{"targetChainId":"1","moduleHash":"${moduleHash}"},"source":"0"},"continuation":{"args":["alice","bob",${encodePactValue(bobGuard)},"1",7.5],"def":"braid-token.transfer-crosschain"},"stepCount":2}`,
    );
    assert.equal(rt0.env.db.readDefPact("xfer"), continuation);
    assertBalance(source, "alice", "42.5");

    // Step 1 as a `cont` command on chain 1, with a proof the node's verifier accepts.
    const verifier = {
      verifyContinuation(proof: string) {
        assert.equal(proof, "proof-of-xfer");
        return decodeDefPactExec(continuation);
      },
    };
    const rt1 = target.rt;
    rt1.env.txHash = "xfer-cont";
    rt1.env.db.beginTx();
    const cont = { pactId: "xfer", step: 1, rollback: false, proof: "proof-of-xfer" };
    assert.equal(continueDefPact(rt1, cont, verifier), "Received 7.5 for bob from chain 0");
    rt1.env.db.commitTx();
    assertBalance(target, "bob", "7.5");
    assertBalance(source, "bob", "0.0");
    assert.equal(rt1.env.db.readDefPact("xfer"), "null");
    assert.deepEqual(
      rt1.events.map((e) => [`${e.module.name}.${e.name}`, e.params]),
      [
        ["braid-token.TRANSFER_XCHAIN_RECD", ["", "bob", Decimal.parseLiteral("7.5"), "0"]],
        [
          "pact.X_RESUME",
          [
            "0",
            "braid-token.transfer-crosschain",
            ["alice", "bob", bobGuard, "1", Decimal.parseLiteral("7.5")],
          ],
        ],
      ],
    );

    // Replaying the proof mints nothing more.
    rt1.pactExec = null;
    rt1.env.db.beginTx();
    assert.throws(
      () => continueDefPact(rt1, cont, verifier),
      (e: unknown) =>
        e instanceof PactError &&
        e.message === "Requested defpact already completed:  defpact id:xfer",
    );
    rt1.env.db.rollbackTx();
    assertBalance(target, "bob", "7.5");
  });

  for (const [name, openDb] of BACKENDS) {
    it(`leaves balances unchanged when a transfer fails after its debit (${name})`, () => {
      const repl = chain("0", openDb);
      const signed = run(repl, `(braid-token.TRANSFER "alice" "bob" 5.0)`);
      repl.rt.env.signers = new Map([["alice-key", [signed as CapToken]]]);
      const db = repl.rt.env.db;
      db.beginTx();
      assert.throws(
        () => run(repl, `(braid-token.transfer-create "alice" "bob" (read-keyset "alice") 5.0)`),
        (e: unknown) =>
          e instanceof PactError && e.message === "Guard does not match the account's guard",
      );
      assertBalance(repl, "alice", "45.0");
      db.rollbackTx();
      repl.resetTxState();
      assertBalance(repl, "alice", "50.0");
      assertBalance(repl, "bob", "0.0");
    });
  }
});
