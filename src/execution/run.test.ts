import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCommand, signCommand } from "../command/index.ts";
import type { ParsedCommand } from "../command/types.ts";
import { openMemoryPactDb, type PactDb } from "../pact/db/index.ts";
import { PactTime } from "../pact/values/time.ts";
import { FREE_GAS, type GasSettings } from "./gas.ts";
import { encodeCommandResult } from "./result-json.ts";
import { executeCommand } from "./run.ts";
import type { CommandOutcome } from "./types.ts";

const BLOCK = { height: 7n, time: new PactTime(1_700_000_000_000_000n), prevBlockHash: "prev" };

interface CommandSpec {
  readonly data?: unknown;
  readonly nonce?: string;
  readonly payload?: unknown;
}

/** A command with no signers, hashed with Blake2b-256 as @kadena/client does. */
function command(code: string, spec: CommandSpec = {}): ParsedCommand {
  const cmd = JSON.stringify({
    payload: spec.payload ?? { exec: { code, data: spec.data ?? null } },
    meta: {
      creationTime: 1700000000,
      ttl: 600,
      gasLimit: 1500,
      chainId: "3",
      gasPrice: 1e-8,
      sender: "alice",
    },
    signers: [],
    networkId: "development",
    nonce: spec.nonce ?? code,
  });
  const parsed = parseCommand(JSON.parse(JSON.stringify(signCommand(cmd, [], "blake2b"))));
  if (!parsed.ok) assert.fail(parsed.problems.map((p) => p.message).join("; "));
  return parsed.command;
}

function run(
  db: PactDb,
  code: string,
  options: { mode?: "transactional" | "local"; gas?: GasSettings; spec?: CommandSpec } = {},
): CommandOutcome {
  return executeCommand(command(code, options.spec), {
    db,
    mode: options.mode ?? "transactional",
    block: BLOCK,
    gas: options.gas ?? FREE_GAS,
    flags: new Set(),
  });
}

function data(outcome: CommandOutcome): unknown {
  if (outcome.result.status !== "success") {
    assert.fail(`failed: ${outcome.result.error.message}`);
  }
  return JSON.parse(encodeCommandResult(outcome)).result.data;
}

function failure(outcome: CommandOutcome) {
  if (outcome.result.status !== "failure") assert.fail("succeeded");
  return outcome.result.error;
}

const MODULE = `(module m G
  (defcap G () true)
  (defun check:integer (x:integer) (enforce (> x 1) "too small") x))`;

describe("executeCommand", () => {
  it("gives the result JSON of a successful command in Pact's key order", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, "(+ 1 2)", { spec: { nonce: "n1" } });
    assert.equal(
      encodeCommandResult(outcome),
      `{"gas":0,"result":{"status":"success","data":{"int":3}},"reqKey":"${outcome.reqKey}","logs":"DldRwCblQ7Loqy6wYJnaodHl30d3j3eH-qtFzfEv46g","metaData":null,"continuation":null,"txId":0}`,
    );
    assert.equal(outcome.reqKey, command("(+ 1 2)", { nonce: "n1" }).hash);
  });

  it("returns the last form's value and numbers transactions from 0", () => {
    const db = openMemoryPactDb();
    assert.equal(data(run(db, '(+ 1 2) (concat ["a" "b"])')), "ab");
    assert.equal(run(db, "1").txId, 1);
    assert.equal(run(db, "2").txId, 2);
  });

  it("deploys a module (result: its load message) that later commands call", () => {
    const db = openMemoryPactDb();
    const loaded = data(run(db, MODULE)) as string;
    assert.match(loaded, /^Loaded module m, hash [A-Za-z0-9_-]{43}$/);
    assert.deepEqual(data(run(db, "(m.check 5)")), { int: 5 });
  });

  it("reads the transaction data, the chain data and the hash", () => {
    const db = openMemoryPactDb();
    assert.deepEqual(data(run(db, "(read-msg 'k)", { spec: { data: { k: [1, "x"] } } })), [1, "x"]);
    assert.deepEqual(data(run(db, "(chain-data)")), {
      "gas-price": 1e-8,
      "gas-limit": { int: 1500 },
      sender: "alice",
      "prev-block-hash": "prev",
      "chain-id": "3",
      "block-height": { int: 7 },
      "block-time": { time: "2023-11-14T22:13:20Z" },
    });
    const outcome = run(db, "(tx-hash)");
    assert.equal(data(outcome), outcome.reqKey);
  });

  it("reports a failed enforce as a TxFailure from the function, and writes nothing", () => {
    const db = openMemoryPactDb();
    const hash = (data(run(db, MODULE)) as string).slice(-43);
    const outcome = run(db, "(m.check 0)");
    assert.deepEqual(failure(outcome), {
      type: "TxFailure",
      message: "too small",
      info: `m.check.{${hash}}:2`,
    });
    assert.equal(
      encodeCommandResult(outcome),
      `{"gas":0,"result":{"status":"failure","error":{"callStack":[],"type":"TxFailure","message":"too small","info":"m.check.{${hash}}:2"}},"reqKey":"${outcome.reqKey}","logs":null,"metaData":null,"continuation":null,"txId":null}`,
    );
  });

  it("rolls back every write of a command that fails", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, `${MODULE}\n(enforce false "stop")`);
    assert.deepEqual(failure(outcome), {
      type: "TxFailure",
      message: "stop",
      info: "<toplevel>:3",
    });
    assert.equal(db.readModule("m"), null);
    assert.equal(run(db, "1").txId, 0, "the failed command used no transaction id");
  });

  it("rolls back a local command's writes and reports no tx id", () => {
    const db = openMemoryPactDb();
    const outcome = run(db, MODULE, { mode: "local" });
    assert.equal(outcome.txId, null);
    assert.match(data(outcome) as string, /^Loaded module m/);
    assert.equal(db.readModule("m"), null);
    assert.equal(run(db, "1").txId, 0);
  });

  it("reports syntax errors and empty code", () => {
    const db = openMemoryPactDb();
    assert.deepEqual(failure(run(db, "\n(+ 1")), {
      type: "SyntaxError",
      message: "expected ')' to close '(' opened at 2:1, found the end of the input",
      info: "<toplevel>:1",
    });
    assert.deepEqual(failure(run(db, " ")), {
      type: "EvalError",
      message: "empty input",
      info: "<toplevel>:0",
    });
  });

  it("cuts long messages to 256 characters", () => {
    const db = openMemoryPactDb();
    const message = failure(run(db, `(enforce false "${"é".repeat(300)}")`)).message;
    assert.equal(message, "é".repeat(256));
  });

  it("meters gas per action when asked, and fails past the limit", () => {
    const db = openMemoryPactDb();
    const metered: GasSettings = { kind: "metered", limit: null, perAction: 2 };
    assert.equal(run(db, "(+ 1 (+ 2 3))", { gas: metered }).gas, 4);
    const limited: GasSettings = { kind: "metered", limit: 3, perAction: 2 };
    const outcome = run(db, "(+ 1 (+ 2 3))", { gas: limited });
    assert.deepEqual(failure(outcome), {
      type: "EvalError",
      message: 'Gas limit "3" exceeded: 4',
      info: "<toplevel>:0",
    });
    assert.equal(outcome.gas, 4);
  });

  it("fails a continuation while defpacts cannot be continued", () => {
    const db = openMemoryPactDb();
    const cont = {
      cont: { pactId: "p1", step: 1, rollback: false, data: null, proof: null },
    };
    assert.equal(
      failure(run(db, "", { spec: { payload: cont } })).message,
      "Cannot continue defpact p1 at step 1: continuation commands are not supported yet",
    );
  });
});
